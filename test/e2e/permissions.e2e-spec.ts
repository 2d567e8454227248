import { randomUUID } from 'node:crypto';
import type { Response } from 'supertest';
import { DataSource } from 'typeorm';
import { createTranslatedComponent, SeededContent } from '../support/content-factories';
import { authHeader } from '../support/contract';
import { createComponent, createLanguage, createProject } from '../support/factories';
import { createTeam, roleIdsByName } from '../support/team-factories';
import { holdTaskClaim } from '../support/tasks';
import { createTestApp, TEST_ADMIN_TOKEN, TestApp } from '../support/test-app';
import { createUserWithToken } from '../support/users-factories';
import { PATIENCE_MS } from '../support/wait';

// Issue 3, item 1 and the "permission matrix" Done-means point: every write endpoint for anonymous, an
// authenticated user without rights, a project translator, a project admin and a superuser; every read
// endpoint of a private project and of a restricted component (weblate-api.md §2.3, §2.5, §2.6).
// The rule of §2.3: anonymous writes are 401 (before the view runs); a visible object without the permission
// is 403; an object the caller cannot see (private project, restricted component, someone else's team, role
// or subscriptions) is 404.

type Persona = 'anonymous' | 'plain' | 'translator' | 'projectAdmin' | 'superuser';
type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
const PERSONAS: Persona[] = ['anonymous', 'plain', 'translator', 'projectAdmin', 'superuser'];
const WITHOUT_ACCESS = ['anonymous', 'plain', 'translator', 'projectAdmin'] as const;

/** A value, or one per persona (writes that consume their object: each persona gets its own). */
type PerPersona<T> = T | ((persona: Persona) => T);
const forPersona = <T,>(value: PerPersona<T>, persona: Persona): T => (typeof value === 'function' ? (value as (p: Persona) => T)(persona) : value);

const NOT_AUTHENTICATED = { detail: 'Authentication credentials were not provided.' };
const DENIED = { detail: 'You do not have permission to perform this action.' };
const NOT_FOUND = { detail: 'Not found.' };
const MANAGE_GROUPS = { detail: 'Can not manage groups' };
const MANAGE_ROLES = { detail: 'Can not manage roles' };
const MANAGE_USERS = { detail: 'Can not manage Users' };

/** 401 for anonymous, `denied` for the two personas without rights on the public project, `granted` for its admins. */
const projectWrite = (denied: number, granted: number): Record<Persona, number> => ({ anonymous: 401, plain: denied, translator: denied, projectAdmin: granted, superuser: granted });
/** Global admin endpoints: only the superuser. */
const globalAdmin = (others: number, superuser: number): Record<Persona, number> => ({ anonymous: 401, plain: others, translator: others, projectAdmin: others, superuser });

/** A nested JSON file (json-nested) setting the given dotted keys. */
function jsonFile(entries: Record<string, string>): Buffer {
  const root: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(entries)) {
    const parts = key.split('.');
    let node = root;
    for (const part of parts.slice(0, -1)) node = (node[part] ??= {}) as Record<string, unknown>;
    node[parts[parts.length - 1]] = value;
  }
  return Buffer.from(JSON.stringify(root));
}

describe('permissions', () => {
  let app: TestApp;
  let ds: DataSource;
  let pub: SeededContent;
  let secret: SeededContent;
  let vault: SeededContent;
  const tasks: { pub: string; secret: string; vault: string } = { pub: '', secret: '', vault: '' };
  /** Claims held on the running task rows this file inserts (see insertTask). */
  const claims: Array<() => Promise<void>> = [];
  let translatorTeam: number;
  const tokens: Partial<Record<Persona, string>> = { superuser: TEST_ADMIN_TOKEN };
  const admin = authHeader(TEST_ADMIN_TOKEN);

  function request(persona: Persona, method: Method, path: string) {
    const test = app.http()[method](path);
    const token = tokens[persona];
    return token === undefined ? test : test.set(...authHeader(token));
  }

  /** A team on `projects`/`components` with `roles`, holding `username`; all through the API. */
  function team(name: string, roleNames: string[], username: string, select: { projectIds?: number[]; componentIds?: number[] }): Promise<number> {
    return createTeam(app, TEST_ADMIN_TOKEN, { name, roles: roleNames, members: [username], ...select });
  }

  /**
   * A task row as the job runner writes it (not queued, so nothing picks it up); a running one is claimed as
   * its process would claim it, so the task-recovery cron leaves it alone however long the test takes.
   */
  async function insertTask(componentId: number, status: 'running' | 'completed'): Promise<string> {
    const id = randomUUID();
    // Claimed before the row exists: the cron never sees it running and unclaimed.
    if (status === 'running') claims.push(await holdTaskClaim(app, id));
    await ds.query(`INSERT INTO tasks (id, kind, component_id, status, progress, log) VALUES ($1, 'component-import', $2, $3, 50, '')`, [id, componentId, status]);
    return id;
  }

  beforeAll(async () => {
    app = await createTestApp();
    ds = app.glossa.app.get(DataSource);
    pub = await createTranslatedComponent(ds, {
      project: { name: 'Public', slug: 'pub' },
      component: { name: 'Main', slug: 'main', manageUnits: true },
      languages: ['cs', 'de', 'fr', 'it'],
      units: 8,
    });
    secret = await createTranslatedComponent(ds, { project: { name: 'Secret', slug: 'secret', accessControl: 100 }, component: { name: 'Hidden', slug: 'hidden' } });
    vault = await createTranslatedComponent(ds, { project: { name: 'Open', slug: 'open' }, component: { name: 'Vault', slug: 'vault', restricted: true } });
    // Objects the project admin and the superuser remove, one each.
    for (const slug of ['scrap-admin', 'scrap-super']) await createComponent(ds, pub.project, { name: slug, slug });
    const doomed = await createProject(ds, { name: 'Doomed by admin', slug: 'doomed-admin' });
    await createProject(ds, { name: 'Doomed by superuser', slug: 'doomed-super' });
    for (const code of ['pl', 'sk', 'fi', 'hu']) await createLanguage(ds, code);
    for (const persona of ['plain', 'translator', 'projectAdmin'] as const) {
      tokens[persona] = (await createUserWithToken(ds, persona)).token;
    }
    translatorTeam = await team('Pub translators', ['Translate'], 'translator', { projectIds: [pub.project.id] });
    await team('Pub admins', ['Administration'], 'projectAdmin', { projectIds: [pub.project.id, doomed.id] });
    tasks.pub = await insertTask(pub.component.id, 'running');
    tasks.secret = await insertTask(secret.component.id, 'completed');
    tasks.vault = await insertTask(vault.component.id, 'completed');
  });

  afterAll(async () => {
    for (const release of claims) await release();
    await app?.close();
  });

  /** Project and component removal runs in the background: wait for it, so later lists do not race with it. */
  async function waitForRemoval(table: 'projects' | 'components', slugs: string[]): Promise<void> {
    const deadline = Date.now() + PATIENCE_MS;
    for (;;) {
      const [{ count }] = await ds.query(`SELECT count(*)::int AS count FROM ${table} WHERE slug = ANY($1)`, [slugs]);
      if (count === 0) return;
      if (Date.now() > deadline) throw new Error(`${table} ${slugs.join(', ')} were not removed`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /** Checks one answer: its status, and the DRF body of 401/403/404 (401 also carries `WWW-Authenticate`). */
  function expectAnswer(label: string, response: Response, status: number, deniedBody: object): void {
    expect({ label, status: response.status }).toEqual({ label, status });
    if (response.status === 401) {
      expect({ label, body: response.body }).toEqual({ label, body: NOT_AUTHENTICATED });
      expect(response.headers['www-authenticate']).toBe('Token');
    }
    if (response.status === 403) expect({ label, body: response.body }).toEqual({ label, body: deniedBody });
    if (response.status === 404) expect({ label, body: response.body }).toEqual({ label, body: NOT_FOUND });
  }

  /** Runs one request per persona and checks status (and the DRF body of 401/403/404). */
  async function expectMatrix(
    method: Method,
    path: PerPersona<string>,
    body: PerPersona<object | undefined>,
    expected: Record<Persona, number>,
    deniedBody: object = DENIED,
  ): Promise<void> {
    for (const persona of PERSONAS) {
      const target = forPersona(path, persona);
      const payload = forPersona(body, persona);
      const test = request(persona, method, target);
      const response = payload === undefined ? await test : await test.send(payload);
      expectAnswer(`${method.toUpperCase()} ${target} as ${persona}`, response, expected[persona], deniedBody);
    }
  }

  /** The same for a multipart upload of `file` with the form `fields` (weblate-api.md §10.8). */
  async function expectUploadMatrix(
    method: 'post' | 'put',
    path: string,
    file: Buffer,
    fields: Record<string, string>,
    expected: Record<Persona, number>,
    deniedBody: object = DENIED,
  ): Promise<void> {
    for (const persona of PERSONAS) {
      let test = request(persona, method, path).attach('file', file, 'upload.json');
      for (const [name, value] of Object.entries(fields)) test = test.field(name, value);
      expectAnswer(`${method.toUpperCase()} ${path} (upload ${JSON.stringify(fields)}) as ${persona}`, await test, expected[persona], deniedBody);
    }
  }

  const componentBody = (name: string, slug: string) => ({
    name,
    slug,
    repo: 'https://example.org/repository.git',
    filemask: `translations/*/${slug}.json`,
    file_format: 'json-nested',
  });

  describe('write endpoints on a public project', () => {
    it('project edit needs project.edit; project creation project.add', async () => {
      await expectMatrix('patch', '/api/projects/pub/', { instructions: 'Be kind.' }, projectWrite(403, 200), { detail: 'Can not edit project' });
      await expectMatrix('put', '/api/projects/pub/', { name: 'Public', slug: 'pub', web: 'https://example.org/' }, projectWrite(403, 200), { detail: 'Can not edit project' });
      let n = 0;
      // Without a body: the permission is checked before the body, as DRF does (403, then 400).
      await expectMatrix('post', '/api/projects/', {}, { anonymous: 401, plain: 403, translator: 403, projectAdmin: 403, superuser: 400 }, { detail: 'Can not create projects' });
      await expectMatrix('put', '/api/projects/pub/', {}, projectWrite(403, 400), { detail: 'Can not edit project' });
      await expectMatrix('patch', '/api/projects/pub/', { web: 'not a url' }, projectWrite(403, 400), { detail: 'Can not edit project' });
      // ... and a project that does not exist is 404 before either.
      await expectMatrix('put', '/api/projects/no-such-project/', {}, { anonymous: 401, plain: 404, translator: 404, projectAdmin: 404, superuser: 404 });
      for (const persona of PERSONAS) {
        n += 1;
        const response = await request(persona, 'post', '/api/projects/').send({ name: `Made ${n}`, slug: `made-${n}`, web: 'https://example.org/' });
        expect({ persona, status: response.status }).toEqual({ persona, status: { anonymous: 401, plain: 403, translator: 403, projectAdmin: 403, superuser: 201 }[persona] });
        if (response.status === 403) expect(response.body).toEqual({ detail: 'Can not create projects' });
      }
      // Deleting: the project admin removes a project of its team, the superuser another one (async removal, 204).
      await expectMatrix('delete', (p) => (p === 'superuser' ? '/api/projects/doomed-super/' : '/api/projects/doomed-admin/'), undefined, projectWrite(403, 204), {
        detail: 'Can not delete project',
      });
      await waitForRemoval('projects', ['doomed-admin', 'doomed-super']);
      // Creating components needs project.edit, checked before the body (403 for an empty body, then 400).
      await expectMatrix('post', '/api/projects/pub/components/', {}, projectWrite(403, 400), { detail: 'Can not create components' });
    });

    it('component edit, lock, translation add/delete, repository', async () => {
      await expectMatrix('patch', '/api/components/pub/main/', { agreement: '' }, projectWrite(403, 200), { detail: 'Can not edit component' });
      await expectMatrix('put', '/api/components/pub/main/', componentBody('Main', 'main'), projectWrite(403, 200), { detail: 'Can not edit component' });
      await expectMatrix('delete', (p) => (p === 'superuser' ? '/api/components/pub/scrap-super/' : '/api/components/pub/scrap-admin/'), undefined, projectWrite(403, 204), {
        detail: 'Can not delete component',
      });
      await waitForRemoval('components', ['scrap-admin', 'scrap-super']);
      await expectMatrix('post', '/api/components/pub/main/lock/', { lock: false }, projectWrite(403, 200));
      // Weblate 4.18's "Power user" (the Users team, every signed-in user on a public project) holds
      // translation.add: every signed-in caller may add a language here.
      const signedIn = (granted: number): Record<Persona, number> => ({ anonymous: 401, plain: granted, translator: granted, projectAdmin: granted, superuser: granted });
      await expectMatrix('post', '/api/components/pub/main/translations/', { language_code: 'zz-none' }, signedIn(400), { detail: 'Can not create translation' });
      const added: Record<Persona, string> = { anonymous: 'pl', plain: 'pl', translator: 'fi', projectAdmin: 'hu', superuser: 'sk' };
      await expectMatrix('post', '/api/components/pub/main/translations/', (p) => ({ language_code: added[p] }), signedIn(201), {
        detail: 'Can not create translation',
      });
      // Repository operations: the object (404), some vcs.* write right on it (403), the body (400), then the
      // operation's own right (403). The component was never cloned, so the granted operations answer 200
      // {"result": false, "detail"}.
      for (const path of ['/api/projects/pub/repository/', '/api/components/pub/main/repository/', '/api/translations/pub/main/cs/repository/']) {
        await expectMatrix('post', path, { operation: 'bogus' }, { anonymous: 401, plain: 403, translator: 403, projectAdmin: 400, superuser: 400 });
        for (const operation of ['commit', 'push', 'pull', 'reset', 'cleanup', 'file-sync', 'file-scan']) {
          for (const persona of ['plain', 'translator'] as const) {
            await request(persona, 'post', path).send({ operation }).expect(403, DENIED);
          }
          await request('anonymous', 'post', path).send({ operation }).expect(401, NOT_AUTHENTICATED);
          // pull would clone the (unreachable) upstream: its grant is the same vcs.update check, left out here.
          if (operation === 'pull') continue;
          for (const persona of ['projectAdmin', 'superuser'] as const) {
            const response = await request(persona, 'post', path).send({ operation }).expect(200);
            expect(response.body).toMatchObject({ result: false });
          }
        }
        // Weblate raises a plain PermissionDenied for repository status: 403 even for anonymous callers (§2.3).
        await expectMatrix('get', path, undefined, { anonymous: 403, plain: 403, translator: 403, projectAdmin: 200, superuser: 200 });
      }
      // The source translation can never be deleted; others need translation.delete.
      await expectMatrix('delete', '/api/translations/pub/main/en/', undefined, projectWrite(403, 403), { detail: 'Can not delete translation' });
      await expectMatrix('delete', (p) => `/api/translations/pub/main/${p === 'superuser' ? 'it' : 'fr'}/`, undefined, projectWrite(403, 204), { detail: 'Can not delete translation' });
      for (const persona of ['plain', 'translator'] as const) {
        await request(persona, 'delete', '/api/translations/pub/main/de/').expect(403, { detail: 'Can not delete translation' });
      }
    });

    it('units: any signed-in user translates on a public project; approving needs unit.review', async () => {
      const unitPath = () => `/api/units/${pub.translations.find((t) => t.languageCode === 'cs')!.unitIds[1]}/`;
      const everyone = { anonymous: 401, plain: 200, translator: 200, projectAdmin: 200, superuser: 200 };
      await expectMatrix('patch', unitPath, { target: ['Přeloženo'], state: 20 }, everyone);
      await expectMatrix('put', unitPath, { target: ['Přeloženo znovu'], state: 20 }, everyone);
      await expectMatrix('patch', unitPath, { target: ['Schváleno'], state: 30 }, projectWrite(403, 200), { detail: 'Insufficient privileges for approving.' });
      const sourceUnit = `/api/units/${pub.source.unitIds[0]}/`;
      for (const persona of ['plain', 'translator'] as const) {
        await request(persona, 'patch', sourceUnit).send({ explanation: 'why' }).expect(403, { detail: 'Source strings properties can be set only on source strings' });
        await request(persona, 'delete', `/api/units/${pub.source.unitIds[3]}/`).expect(403, { detail: 'Can not remove string' });
      }
      await request('projectAdmin', 'patch', sourceUnit).send({ explanation: 'why' }).expect(200);
      // Adding and removing strings: unit.add / unit.delete (each granted persona adds and removes its own).
      await expectMatrix('post', '/api/translations/pub/main/en/units/', (p) => ({ key: `added.${p}`, value: ['v'] }), projectWrite(403, 200), { detail: 'Can not add unit' });
      await expectMatrix('delete', (p) => `/api/units/${pub.source.unitIds[p === 'superuser' ? 7 : 6]}/`, undefined, projectWrite(403, 204), { detail: 'Can not remove string' });
    });

    it('uploads: upload.perform for every signed-in user, approving uploads need unit.review', async () => {
      const path = '/api/translations/pub/main/cs/file/';
      const file = jsonFile({ 'menu.file.string2': 'Nahráno', 'dialog.string3': 'Dialog' });
      const everyone = { anonymous: 401, plain: 200, translator: 200, projectAdmin: 200, superuser: 200 };
      await expectUploadMatrix('post', path, file, {}, everyone);
      await expectUploadMatrix('put', path, file, { conflicts: 'ignore' }, everyone);
      // Weblate answers a method the caller lacks the rights for with 400 {"method": [...]} (check_perms,
      // weblate-api.md §10.8); every method × conflicts combination: test/e2e/security-uploads.e2e-spec.ts.
      await expectUploadMatrix('post', path, file, { method: 'approve' }, projectWrite(400, 200));
      await expectUploadMatrix('put', path, file, { method: 'approve' }, projectWrite(400, 200));
    });

    it('cancelling a task needs component.edit on its component', async () => {
      await expectMatrix('get', `/api/tasks/${tasks.pub}/`, undefined, { anonymous: 200, plain: 200, translator: 200, projectAdmin: 200, superuser: 200 });
      await expectMatrix('delete', `/api/tasks/${tasks.pub}/`, undefined, projectWrite(403, 204));
      expect((await app.http().get(`/api/tasks/${tasks.pub}/`).expect(200)).body).toMatchObject({ completed: true, result: 'Cancelled' });
      // The project admin of pub has component.edit there only: a task of another project's component is not theirs to cancel.
      const elsewhere = await createProject(ds, { name: 'Elsewhere', slug: 'elsewhere' });
      const side = await createComponent(ds, elsewhere, { name: 'Side', slug: 'side' });
      const foreign = await insertTask(side.id, 'running');
      await request('projectAdmin', 'get', `/api/tasks/${foreign}/`).expect(200);
      await request('projectAdmin', 'delete', `/api/tasks/${foreign}/`).expect(403);
      await request('superuser', 'delete', `/api/tasks/${foreign}/`).expect(204);
    });

    it('teams, roles, users and tokens need the global admin permissions', async () => {
      await expectMatrix('post', '/api/groups/', { name: 'New team', project_selection: 0, language_selection: 1 }, globalAdmin(403, 201), MANAGE_GROUPS);
      await expectMatrix('post', '/api/roles/', { name: 'New role', permissions: ['unit.edit'] }, globalAdmin(403, 201), MANAGE_ROLES);
      await expectMatrix('post', '/api/users/plain/token/', undefined, globalAdmin(403, 201), MANAGE_USERS);
      // The superuser just replaced plain's key: the old one is revoked.
      await request('plain', 'get', '/api/projects/').expect(401, { detail: 'Invalid token.' });
      const fresh = await app.http().post('/api/users/plain/token/').set(...admin).expect(201);
      expect(Object.keys(fresh.body)).toEqual(['key']);
      expect(fresh.body.key).toMatch(/^wlu_[A-Za-z0-9]{36}$/);
      tokens.plain = fresh.body.key;
      await request('plain', 'get', '/api/projects/').expect(200);
      const stored: Array<{ key_hash: string }> = await ds.query(`SELECT key_hash FROM api_tokens t JOIN users u ON u.id = t.user_id WHERE u.username = 'plain'`);
      expect(stored).toHaveLength(1);
      expect(stored[0].key_hash).not.toContain(fresh.body.key);
    });

    it('a team write without group.edit is 403, visible or not (Weblate checks group.edit before the lookup)', async () => {
      const scratch = (await app.http().post('/api/groups/').set(...admin).send({ name: 'Scratch', project_selection: 0, language_selection: 1 }).expect(201)).body.id as number;
      const roles = await roleIdsByName(app, TEST_ADMIN_TOKEN);
      const hidden = { anonymous: 401, plain: 403, translator: 403, projectAdmin: 403 };
      await expectMatrix('patch', `/api/groups/${scratch}/`, { name: 'Scratch 2' }, { ...hidden, superuser: 200 }, MANAGE_GROUPS);
      await expectMatrix('put', `/api/groups/${scratch}/`, { name: 'Scratch', project_selection: 0, language_selection: 1 }, { ...hidden, superuser: 200 }, MANAGE_GROUPS);
      // Permission and existence come before the body: 403 even with an invalid body.
      await expectMatrix('put', `/api/groups/${scratch}/`, {}, { ...hidden, superuser: 400 }, MANAGE_GROUPS);
      await expectMatrix('post', '/api/users/plain/groups/', {}, globalAdmin(403, 400), MANAGE_USERS);
      const relations: Array<[string, object, string]> = [
        ['roles', { role_id: roles.get('Translate') }, String(roles.get('Translate'))],
        ['projects', { project_id: pub.project.id }, String(pub.project.id)],
        ['components', { component_id: pub.component.id }, String(pub.component.id)],
        ['languages', { language_code: 'cs' }, 'cs'],
      ];
      for (const [relation, body, key] of relations) {
        await expectMatrix('post', `/api/groups/${scratch}/${relation}/`, body, { ...hidden, superuser: 200 }, MANAGE_GROUPS);
        await expectMatrix('delete', `/api/groups/${scratch}/${relation}/${key}/`, undefined, { ...hidden, superuser: 204 }, MANAGE_GROUPS);
      }
      // Membership of a team: user.edit (403 for everyone else, whatever the team).
      await expectMatrix('post', '/api/users/plain/groups/', { group_id: scratch }, globalAdmin(403, 200), MANAGE_USERS);
      await expectMatrix('delete', '/api/users/plain/groups/', { group_id: scratch }, globalAdmin(403, 200), MANAGE_USERS);
      await expectMatrix('delete', `/api/groups/${scratch}/`, undefined, { ...hidden, superuser: 204 }, MANAGE_GROUPS);

      // The translator's own team: 403 for everyone without group.edit.
      const own = { anonymous: 401, plain: 403, translator: 403, projectAdmin: 403 } as const;
      for (const [method, path, body] of [
        ['patch', `/api/groups/${translatorTeam}/`, { name: 'Pub translators' }],
        ['put', `/api/groups/${translatorTeam}/`, { name: 'Pub translators', project_selection: 0, language_selection: 1 }],
        ['delete', `/api/groups/${translatorTeam}/`, undefined],
        ['post', `/api/groups/${translatorTeam}/roles/`, { role_id: roles.get('Administration') }],
        ['delete', `/api/groups/${translatorTeam}/projects/${pub.project.id}/`, undefined],
      ] as const) {
        for (const persona of WITHOUT_ACCESS) {
          const response = await request(persona, method, path).send(body);
          expectAnswer(`${method} ${path} as ${persona}`, response, own[persona], MANAGE_GROUPS);
        }
      }
      // Built-in "Users" applies to every signed-in caller: visible, so 403; the superuser may not rename it (400).
      const groups = (await app.http().get('/api/groups/?page_size=100').set(...admin).expect(200)).body.results as Array<{ id: number; name: string }>;
      const users = groups.find((g) => g.name === 'Users')!.id;
      await expectMatrix('patch', `/api/groups/${users}/`, { name: 'Everyone' }, globalAdmin(403, 400), MANAGE_GROUPS);
      expect((await app.http().patch(`/api/groups/${users}/`).set(...admin).send({ name: 'Everyone' }).expect(400)).body).toEqual({ name: ['Cannot change this on a built-in team.'] });
    });

    it('a role write without role.edit is 403, visible or not (Weblate checks role.edit before the lookup)', async () => {
      const scratch = (await app.http().post('/api/roles/').set(...admin).send({ name: 'Scratch role', permissions: ['unit.edit'] }).expect(201)).body.id as number;
      const hidden = { anonymous: 401, plain: 403, translator: 403, projectAdmin: 403 };
      await expectMatrix('patch', `/api/roles/${scratch}/`, { permissions: ['unit.review'] }, { ...hidden, superuser: 200 }, MANAGE_ROLES);
      await expectMatrix('put', `/api/roles/${scratch}/`, { name: 'Scratch role', permissions: ['unit.edit'] }, { ...hidden, superuser: 200 }, MANAGE_ROLES);
      await expectMatrix('delete', `/api/roles/${scratch}/`, undefined, { ...hidden, superuser: 204 }, MANAGE_ROLES);
      const roles = await roleIdsByName(app, TEST_ADMIN_TOKEN);
      // "Power user" is the role of the built-in Users team: every signed-in caller sees it. PATCH adds, so
      // re-adding one of its permissions leaves it unchanged.
      await expectMatrix('patch', `/api/roles/${roles.get('Power user')}/`, { permissions: ['unit.edit'] }, globalAdmin(403, 200), MANAGE_ROLES);
      await expectMatrix('patch', `/api/roles/${roles.get('Translate')}/`, { permissions: ['unit.edit'] }, { anonymous: 401, plain: 403, translator: 403, projectAdmin: 403, superuser: 200 }, MANAGE_ROLES);
      for (const persona of WITHOUT_ACCESS) {
        const status = { anonymous: 401, plain: 403, translator: 403, projectAdmin: 403 }[persona];
        expectAnswer(`PUT Translate as ${persona}`, await request(persona, 'put', `/api/roles/${roles.get('Translate')}/`).send({ name: 'Translate', permissions: ['unit.edit'] }), status, MANAGE_ROLES);
        expectAnswer(`DELETE Translate as ${persona}`, await request(persona, 'delete', `/api/roles/${roles.get('Translate')}/`), status, MANAGE_ROLES);
      }
    });

    it('users and languages need user.edit / language.edit, checked before the lookup', async () => {
      await createUserWithToken(ds, 'victim');
      await expectMatrix('post', '/api/users/', (p) => ({ username: `made-by-${p}`, full_name: 'Made', email: `made-${p}@example.org` }), globalAdmin(403, 201), MANAGE_USERS);
      await expectMatrix('patch', '/api/users/victim/', { full_name: 'Victim' }, globalAdmin(403, 200), MANAGE_USERS);
      await expectMatrix('put', '/api/users/victim/', { username: 'victim', full_name: 'Victim', email: 'victim@example.org' }, globalAdmin(403, 200), MANAGE_USERS);
      await expectMatrix('delete', '/api/users/victim/', undefined, globalAdmin(403, 204), MANAGE_USERS);
      const language = { code: 'xx_perm', name: 'Perm', direction: 'ltr', population: 1, plural: { number: 2, formula: 'n != 1' } };
      const MANAGE_LANGUAGES = { detail: 'Can not manage languages' };
      await expectMatrix('post', '/api/languages/', language, globalAdmin(403, 201), MANAGE_LANGUAGES);
      await expectMatrix('patch', '/api/languages/xx_perm/', { name: 'Renamed' }, globalAdmin(403, 200), MANAGE_LANGUAGES);
      await expectMatrix('put', '/api/languages/xx_perm/', language, globalAdmin(403, 200), MANAGE_LANGUAGES);
      await expectMatrix('delete', '/api/languages/xx_perm/', undefined, globalAdmin(403, 204), MANAGE_LANGUAGES);
    });

    it('notification subscriptions of another user are 404 for everyone but the user and superusers', async () => {
      const owner = await createUserWithToken(ds, 'subscriber');
      const base = '/api/users/subscriber/notifications/';
      const others = { anonymous: 401, plain: 404, translator: 404, projectAdmin: 404 };
      await expectMatrix('post', base, { notification: 'LockNotification', scope: 10, frequency: 1 }, { ...others, superuser: 201 });
      const [{ id }] = (await app.http().get(base).set(...admin).expect(200)).body.results as Array<{ id: number }>;
      await expectMatrix('put', `${base}${id}/`, { notification: 'LockNotification', scope: 10, frequency: 2 }, { ...others, superuser: 200 });
      await expectMatrix('patch', `${base}${id}/`, { frequency: 3 }, { ...others, superuser: 200 });
      await expectMatrix('delete', `${base}${id}/`, undefined, { ...others, superuser: 204 });
      // The user manages their own.
      const self = authHeader(owner.token);
      const created = await app.http().post(base).set(...self).send({ notification: 'LockNotification', scope: 10, frequency: 1 }).expect(201);
      await app.http().patch(`${base}${created.body.id}/`).set(...self).send({ frequency: 2 }).expect(200);
      await app.http().delete(`${base}${created.body.id}/`).set(...self).expect(204);
    });
  });

  /** Every write under a component, for callers who cannot see it: 401 anonymous, 404 signed in, `superuser` for the superuser (null: not run, destructive). */
  function componentWrites(p: string, c: string, content: SeededContent): Array<[Method, string, object | undefined, number | null]> {
    const unit = `/api/units/${content.translations.find((t) => t.languageCode === 'cs')!.unitIds[0]}/`;
    return [
      ['patch', `/api/components/${p}/${c}/`, { agreement: '' }, 200],
      ['put', `/api/components/${p}/${c}/`, componentBody(content.component.name, c), 200],
      ['delete', `/api/components/${p}/${c}/`, undefined, null],
      ['post', `/api/components/${p}/${c}/lock/`, { lock: false }, 200],
      ['post', `/api/components/${p}/${c}/repository/`, { operation: 'commit' }, 200],
      ['post', `/api/translations/${p}/${c}/cs/repository/`, { operation: 'commit' }, 200],
      ['post', `/api/components/${p}/${c}/translations/`, { language_code: 'zz-none' }, 400],
      ['delete', `/api/translations/${p}/${c}/cs/`, undefined, null],
      ['post', `/api/translations/${p}/${c}/en/units/`, { key: 'k', value: ['v'] }, null],
      ['patch', unit, { target: ['x'], state: 20 }, 200],
      ['put', unit, { target: ['y'], state: 20 }, 200],
      ['delete', unit, undefined, null],
    ];
  }

  async function expectHiddenWrites(writes: Array<[Method, string, object | undefined, number | null]>): Promise<void> {
    for (const [method, path, body, superuser] of writes) {
      for (const persona of WITHOUT_ACCESS) {
        const response = await request(persona, method, path).send(body);
        expectAnswer(`${method} ${path} as ${persona}`, response, persona === 'anonymous' ? 401 : 404, DENIED);
      }
      if (superuser !== null) {
        const response = await request('superuser', method, path).send(body);
        expect({ path, method, status: response.status }).toEqual({ path, method, status: superuser });
      }
    }
  }

  async function expectHiddenUploads(path: string): Promise<void> {
    const file = jsonFile({ 'app.string1': 'x' });
    for (const method of ['post', 'put'] as const) {
      await expectUploadMatrix(method, path, file, {}, { anonymous: 401, plain: 404, translator: 404, projectAdmin: 404, superuser: 200 });
    }
  }

  describe('a private project', () => {
    const readPaths = () => {
      const cs = secret.translations.find((t) => t.languageCode === 'cs')!;
      return [
        '/api/projects/secret/',
        '/api/projects/secret/components/',
        '/api/projects/secret/changes/',
        '/api/projects/secret/statistics/',
        '/api/projects/secret/languages/',
        '/api/projects/secret/repository/',
        '/api/components/secret/hidden/',
        '/api/components/secret/hidden/translations/',
        '/api/components/secret/hidden/changes/',
        '/api/components/secret/hidden/statistics/',
        '/api/components/secret/hidden/lock/',
        '/api/components/secret/hidden/links/',
        '/api/components/secret/hidden/alerts/',
        '/api/components/secret/hidden/file/',
        '/api/components/secret/hidden/repository/',
        '/api/translations/secret/hidden/cs/',
        '/api/translations/secret/hidden/cs/units/',
        '/api/translations/secret/hidden/cs/changes/',
        '/api/translations/secret/hidden/cs/statistics/',
        '/api/translations/secret/hidden/cs/file/',
        '/api/translations/secret/hidden/cs/repository/',
        `/api/units/${cs.unitIds[0]}/`,
        `/api/tasks/${tasks.secret}/`,
      ];
    };

    it('is 404 on every read for everyone but superusers and members', async () => {
      for (const path of readPaths()) {
        for (const persona of WITHOUT_ACCESS) {
          const response = await request(persona, 'get', path);
          expect({ path, persona, status: response.status }).toEqual({ path, persona, status: 404 });
          expect(response.body).toEqual(NOT_FOUND);
        }
        const asAdmin = await app.http().get(path).set(...admin);
        expect({ path, status: asAdmin.status }).toEqual({ path, status: 200 });
      }
      const [change] = await ds.query(`SELECT id FROM changes WHERE project_id = $1 LIMIT 1`, [secret.project.id]);
      await request('plain', 'get', `/api/changes/${change.id}/`).expect(404, NOT_FOUND);
      await app.http().get(`/api/changes/${change.id}/`).set(...admin).expect(200);
    });

    it('is 404 on writes for signed-in users without access, 401 for anonymous', async () => {
      await expectHiddenWrites([
        ['patch', '/api/projects/secret/', { instructions: 'x' }, 200],
        ['put', '/api/projects/secret/', { name: 'Secret', slug: 'secret', web: 'https://example.org/' }, 200],
        ['delete', '/api/projects/secret/', undefined, null],
        ['post', '/api/projects/secret/components/', {}, 400],
        ['post', '/api/projects/secret/repository/', { operation: 'commit' }, 200],
        ...componentWrites('secret', 'hidden', secret),
        ['delete', `/api/tasks/${tasks.secret}/`, undefined, 204],
      ]);
      await expectHiddenUploads('/api/translations/secret/hidden/cs/file/');
    });

    it('is absent from every list for callers without access', async () => {
      const lists = ['/api/projects/', '/api/components/', '/api/translations/', '/api/units/?page_size=1000', '/api/changes/?page_size=1000'];
      for (const path of lists) {
        for (const persona of WITHOUT_ACCESS) {
          const body = (await request(persona, 'get', path).expect(200)).body;
          const text = JSON.stringify(body.results);
          expect({ path, persona, leak: text.includes('/secret/') || text.includes('/vault/') }).toEqual({ path, persona, leak: false });
          expect(body.count).toBe(body.results.length);
        }
        const asAdmin = JSON.stringify((await app.http().get(path).set(...admin).expect(200)).body.results);
        expect(asAdmin.includes('/secret/')).toBe(true);
      }
      const secretUnits = secret.translations.flatMap((t) => t.unitIds).concat(secret.source.unitIds);
      const units = (await request('plain', 'get', '/api/units/?page_size=1000').expect(200)).body.results as Array<{ id: number }>;
      expect(units.some((u) => secretUnits.includes(String(u.id)))).toBe(false);
    });

    it('becomes visible to a member of a team selecting it', async () => {
      const member = await createUserWithToken(ds, 'secret-member');
      await team('Secret viewers', [], 'secret-member', { projectIds: [secret.project.id] });
      for (const path of readPaths().filter((p) => !p.endsWith('/repository/'))) {
        const response = await app.http().get(path).set(...authHeader(member.token));
        expect({ path, status: response.status }).toEqual({ path, status: 200 });
      }
      // Seeing is not editing (nor using the repository).
      await app.http().patch('/api/projects/secret/').set(...authHeader(member.token)).send({ instructions: 'x' }).expect(403, { detail: 'Can not edit project' });
      await app.http().get('/api/components/secret/hidden/repository/').set(...authHeader(member.token)).expect(403, DENIED);
      const projects = (await app.http().get('/api/projects/').set(...authHeader(member.token)).expect(200)).body.results as Array<{ slug: string }>;
      expect(projects.map((p) => p.slug)).toContain('secret');
    });
  });

  describe('a restricted component', () => {
    it('is hidden inside a visible project, from nested lists, changes and statistics', async () => {
      const paths = [
        '/api/components/open/vault/',
        '/api/components/open/vault/translations/',
        '/api/components/open/vault/changes/',
        '/api/components/open/vault/statistics/',
        '/api/components/open/vault/lock/',
        '/api/components/open/vault/links/',
        '/api/components/open/vault/alerts/',
        '/api/components/open/vault/repository/',
        '/api/components/open/vault/file/',
        '/api/translations/open/vault/cs/',
        '/api/translations/open/vault/cs/units/',
        '/api/translations/open/vault/cs/changes/',
        '/api/translations/open/vault/cs/statistics/',
        '/api/translations/open/vault/cs/file/',
        '/api/translations/open/vault/cs/repository/',
        `/api/units/${vault.translations[0].unitIds[0]}/`,
        `/api/tasks/${tasks.vault}/`,
      ];
      for (const persona of WITHOUT_ACCESS) {
        for (const path of paths) {
          const response = await request(persona, 'get', path);
          expect({ path, persona, status: response.status }).toEqual({ path, persona, status: 404 });
          expect(response.body).toEqual(NOT_FOUND);
        }
        await request(persona, 'get', '/api/projects/open/').expect(200);
        expect((await request(persona, 'get', '/api/projects/open/components/').expect(200)).body.count).toBe(0);
        expect((await request(persona, 'get', '/api/projects/open/changes/').expect(200)).body.count).toBe(0);
        expect((await request(persona, 'get', '/api/projects/open/statistics/').expect(200)).body.total).toBe(0);
        expect((await request(persona, 'get', '/api/projects/open/languages/').expect(200)).body).toEqual([]);
      }
      for (const path of paths) {
        const asAdmin = await app.http().get(path).set(...admin);
        expect({ path, status: asAdmin.status }).toEqual({ path, status: 200 });
      }
      expect((await app.http().get('/api/projects/open/components/').set(...admin).expect(200)).body.count).toBe(1);
      expect((await app.http().get('/api/projects/open/changes/').set(...admin).expect(200)).body.count).toBeGreaterThan(0);
    });

    it('is 404 on writes for signed-in users without access, 401 for anonymous', async () => {
      await expectHiddenWrites([...componentWrites('open', 'vault', vault), ['delete', `/api/tasks/${tasks.vault}/`, undefined, 204]]);
      await expectHiddenUploads('/api/translations/open/vault/cs/file/');
    });

    it('is visible only through a team selecting the component itself', async () => {
      const viewer = await createUserWithToken(ds, 'vault-viewer');
      // A project-level grant does not open a restricted component.
      await team('Open project team', ['Translate'], 'vault-viewer', { projectIds: [vault.project.id] });
      await app.http().get('/api/components/open/vault/').set(...authHeader(viewer.token)).expect(404);
      await team('Vault team', ['Translate'], 'vault-viewer', { componentIds: [vault.component.id] });
      await app.http().get('/api/components/open/vault/').set(...authHeader(viewer.token)).expect(200);
      expect((await app.http().get('/api/projects/open/components/').set(...authHeader(viewer.token)).expect(200)).body.count).toBe(1);
      const unit = `/api/units/${vault.translations.find((t) => t.languageCode === 'cs')!.unitIds[1]}/`;
      await app.http().patch(unit).set(...authHeader(viewer.token)).send({ target: ['Trezor'], state: 20 }).expect(200);
    });
  });
});
