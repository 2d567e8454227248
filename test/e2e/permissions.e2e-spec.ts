import { DataSource } from 'typeorm';
import { createTranslatedComponent, SeededContent } from '../support/content-factories';
import { authHeader } from '../support/contract';
import { createTestApp, TEST_ADMIN_TOKEN, TestApp } from '../support/test-app';
import { createUserWithToken } from '../support/users-factories';

// Issue 3, item 1 and the "permission matrix" Done-means point: every write endpoint for anonymous, an
// authenticated user without rights, a project translator, a project admin and a superuser; every read
// endpoint of a private project and of a restricted component (weblate-api.md §2.3, §2.5, §2.6).

type Persona = 'anonymous' | 'plain' | 'translator' | 'projectAdmin' | 'superuser';
const PERSONAS: Persona[] = ['anonymous', 'plain', 'translator', 'projectAdmin', 'superuser'];

const NOT_AUTHENTICATED = { detail: 'Authentication credentials were not provided.' };
const DENIED = { detail: 'You do not have permission to perform this action.' };
const NOT_FOUND = { detail: 'Not found.' };

describe('permissions', () => {
  let app: TestApp;
  let ds: DataSource;
  let pub: SeededContent;
  let secret: SeededContent;
  let vault: SeededContent;
  const tokens: Partial<Record<Persona, string>> = { superuser: TEST_ADMIN_TOKEN };
  const admin = authHeader(TEST_ADMIN_TOKEN);

  function request(persona: Persona, method: 'get' | 'post' | 'put' | 'patch' | 'delete', path: string) {
    const test = app.http()[method](path);
    const token = tokens[persona];
    return token === undefined ? test : test.set(...authHeader(token));
  }

  /** A team on `projects`/`components` with `roles`, holding `username`; all through the API. */
  async function team(name: string, roleNames: string[], username: string, select: { projectId?: number; componentId?: number }): Promise<number> {
    const created = await app.http().post('/api/groups/').set(...admin).send({ name, project_selection: 0, language_selection: 1 }).expect(201);
    const id: number = created.body.id;
    const roles = (await app.http().get('/api/roles/?page_size=100').set(...admin).expect(200)).body.results as Array<{ id: number; name: string }>;
    for (const roleName of roleNames) {
      const role = roles.find((r) => r.name === roleName)!;
      await app.http().post(`/api/groups/${id}/roles/`).set(...admin).send({ role_id: role.id }).expect(200);
    }
    if (select.projectId !== undefined) await app.http().post(`/api/groups/${id}/projects/`).set(...admin).send({ project_id: select.projectId }).expect(200);
    if (select.componentId !== undefined) await app.http().post(`/api/groups/${id}/components/`).set(...admin).send({ component_id: select.componentId }).expect(200);
    await app.http().post(`/api/users/${username}/groups/`).set(...admin).send({ group_id: id }).expect(200);
    return id;
  }

  beforeAll(async () => {
    app = await createTestApp();
    ds = app.glossa.app.get(DataSource);
    pub = await createTranslatedComponent(ds, { project: { name: 'Public', slug: 'pub' }, component: { name: 'Main', slug: 'main', manageUnits: true } });
    secret = await createTranslatedComponent(ds, { project: { name: 'Secret', slug: 'secret', accessControl: 100 }, component: { name: 'Hidden', slug: 'hidden' } });
    vault = await createTranslatedComponent(ds, { project: { name: 'Open', slug: 'open' }, component: { name: 'Vault', slug: 'vault', restricted: true } });
    for (const persona of ['plain', 'translator', 'projectAdmin'] as const) {
      tokens[persona] = (await createUserWithToken(ds, persona)).token;
    }
    await team('Pub translators', ['Translate'], 'translator', { projectId: pub.project.id });
    await team('Pub admins', ['Administration'], 'projectAdmin', { projectId: pub.project.id });
  });

  afterAll(async () => {
    await app?.close();
  });

  /** Runs one request per persona and checks status (and the DRF body of 401/403/404). */
  async function expectMatrix(
    method: 'post' | 'put' | 'patch' | 'delete' | 'get',
    path: string | (() => string),
    body: object | undefined,
    expected: Record<Persona, number>,
    deniedBody: object = DENIED,
  ): Promise<void> {
    for (const persona of PERSONAS) {
      const target = typeof path === 'function' ? path() : path;
      const test = request(persona, method, target);
      const response = body === undefined ? await test : await test.send(body);
      const label = `${method.toUpperCase()} ${target} as ${persona}`;
      expect({ label, status: response.status }).toEqual({ label, status: expected[persona] });
      if (response.status === 401) {
        expect(response.body).toEqual(NOT_AUTHENTICATED);
        expect(response.headers['www-authenticate']).toBe('Token');
      }
      if (response.status === 403) expect({ label, body: response.body }).toEqual({ label, body: deniedBody });
      if (response.status === 404) expect(response.body).toEqual(NOT_FOUND);
    }
  }

  describe('write endpoints on a public project', () => {
    it('project edit needs project.edit; project creation project.add', async () => {
      await expectMatrix('patch', '/api/projects/pub/', { instructions: 'Be kind.' }, { anonymous: 401, plain: 403, translator: 403, projectAdmin: 200, superuser: 200 }, { detail: 'Can not edit project' });
      let n = 0;
      await expectMatrix('post', '/api/projects/', undefined, { anonymous: 401, plain: 400, translator: 400, projectAdmin: 400, superuser: 400 });
      for (const persona of PERSONAS) {
        n += 1;
        const response = await request(persona, 'post', '/api/projects/').send({ name: `Made ${n}`, slug: `made-${n}`, web: 'https://example.org/' });
        expect({ persona, status: response.status }).toEqual({ persona, status: { anonymous: 401, plain: 403, translator: 403, projectAdmin: 403, superuser: 201 }[persona] });
        if (response.status === 403) expect(response.body).toEqual({ detail: 'Can not create projects' });
      }
    });

    it('component edit, lock, translation add/delete, repository', async () => {
      await expectMatrix('patch', '/api/components/pub/main/', { agreement: '' }, { anonymous: 401, plain: 403, translator: 403, projectAdmin: 200, superuser: 200 }, { detail: 'Can not edit component' });
      await expectMatrix('post', '/api/components/pub/main/lock/', { lock: false }, { anonymous: 401, plain: 403, translator: 403, projectAdmin: 200, superuser: 200 });
      await expectMatrix('post', '/api/components/pub/main/translations/', { language_code: 'zz-none' }, { anonymous: 401, plain: 403, translator: 403, projectAdmin: 400, superuser: 400 }, { detail: 'Can not create translation' });
      // Repository operations: the object (404), the body (400), then the operation's vcs.* permission (403).
      for (const path of ['/api/projects/pub/repository/', '/api/components/pub/main/repository/', '/api/translations/pub/main/cs/repository/']) {
        await expectMatrix('post', path, { operation: 'bogus' }, { anonymous: 401, plain: 400, translator: 400, projectAdmin: 400, superuser: 400 });
        for (const operation of ['commit', 'push', 'pull', 'reset', 'cleanup']) {
          for (const persona of ['plain', 'translator'] as const) {
            await request(persona, 'post', path).send({ operation }).expect(403, DENIED);
          }
        }
      }
      // Weblate raises a plain PermissionDenied for repository status: 403 even for anonymous callers (§2.3).
      for (const persona of ['anonymous', 'plain', 'translator'] as const) {
        await request(persona, 'get', '/api/components/pub/main/repository/').expect(403, DENIED);
      }
      // The source translation can never be deleted; others need translation.delete.
      await expectMatrix('delete', '/api/translations/pub/main/en/', undefined, { anonymous: 401, plain: 403, translator: 403, projectAdmin: 403, superuser: 403 }, { detail: 'Can not delete translation' });
      for (const persona of ['plain', 'translator'] as const) {
        await request(persona, 'delete', '/api/translations/pub/main/de/').expect(403, { detail: 'Can not delete translation' });
      }
      await request('anonymous', 'delete', '/api/components/pub/main/').expect(401, NOT_AUTHENTICATED);
      for (const persona of ['plain', 'translator'] as const) {
        await request(persona, 'delete', '/api/components/pub/main/').expect(403, { detail: 'Can not delete component' });
        await request(persona, 'delete', '/api/projects/pub/').expect(403, { detail: 'Can not delete project' });
        await request(persona, 'post', '/api/projects/pub/components/').send({}).expect((res) => expect([400, 403]).toContain(res.status));
      }
    });

    it('units: any signed-in user translates on a public project; approving needs unit.review', async () => {
      const unitPath = () => `/api/units/${pub.translations.find((t) => t.languageCode === 'cs')!.unitIds[1]}/`;
      await expectMatrix('patch', unitPath, { target: ['Přeloženo'], state: 20 }, { anonymous: 401, plain: 200, translator: 200, projectAdmin: 200, superuser: 200 });
      await expectMatrix(
        'patch',
        unitPath,
        { target: ['Schváleno'], state: 30 },
        { anonymous: 401, plain: 403, translator: 403, projectAdmin: 200, superuser: 200 },
        { detail: 'Insufficient privileges for approving.' },
      );
      const sourceUnit = `/api/units/${pub.source.unitIds[0]}/`;
      for (const persona of ['plain', 'translator'] as const) {
        await request(persona, 'patch', sourceUnit).send({ explanation: 'why' }).expect(403, { detail: 'Source strings properties can be set only on source strings' });
        await request(persona, 'delete', `/api/units/${pub.source.unitIds[3]}/`).expect(403, { detail: 'Can not remove string' });
        await request(persona, 'post', '/api/translations/pub/main/en/units/').send({ key: 'k', value: ['v'] }).expect(403, { detail: 'Can not add unit' });
      }
      await request('anonymous', 'delete', `/api/units/${pub.source.unitIds[3]}/`).expect(401, NOT_AUTHENTICATED);
      await request('projectAdmin', 'patch', sourceUnit).send({ explanation: 'why' }).expect(200);
    });

    it('teams, roles, users and tokens need the global admin permissions', async () => {
      await expectMatrix('post', '/api/groups/', { name: 'New team', project_selection: 0, language_selection: 1 }, { anonymous: 401, plain: 403, translator: 403, projectAdmin: 403, superuser: 201 }, { detail: 'Can not manage groups' });
      await expectMatrix('post', '/api/roles/', { name: 'New role', permissions: ['unit.edit'] }, { anonymous: 401, plain: 403, translator: 403, projectAdmin: 403, superuser: 201 }, { detail: 'Can not manage roles' });
      await expectMatrix('post', '/api/users/plain/token/', undefined, { anonymous: 401, plain: 403, translator: 403, projectAdmin: 403, superuser: 201 }, { detail: 'Can not manage Users' });
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
  });

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
        '/api/components/secret/hidden/repository/',
        '/api/translations/secret/hidden/cs/',
        '/api/translations/secret/hidden/cs/units/',
        '/api/translations/secret/hidden/cs/changes/',
        '/api/translations/secret/hidden/cs/statistics/',
        '/api/translations/secret/hidden/cs/file/',
        `/api/units/${cs.unitIds[0]}/`,
      ];
    };

    it('is 404 on every read for everyone but superusers and members', async () => {
      for (const path of readPaths()) {
        for (const persona of ['anonymous', 'plain', 'translator', 'projectAdmin'] as const) {
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
      const unit = `/api/units/${secret.translations[0].unitIds[0]}/`;
      for (const [method, path, body] of [
        ['patch', '/api/projects/secret/', { instructions: 'x' }],
        ['delete', '/api/projects/secret/', undefined],
        ['patch', '/api/components/secret/hidden/', { agreement: '' }],
        ['post', '/api/components/secret/hidden/lock/', { lock: true }],
        ['post', '/api/components/secret/hidden/repository/', { operation: 'commit' }],
        ['post', '/api/components/secret/hidden/translations/', { language_code: 'fr' }],
        ['delete', '/api/translations/secret/hidden/cs/', undefined],
        ['patch', unit, { target: ['x'], state: 20 }],
        ['delete', unit, undefined],
      ] as const) {
        await request('anonymous', method, path).send(body).expect(401, NOT_AUTHENTICATED);
        await request('plain', method, path).send(body).expect(404, NOT_FOUND);
        await request('projectAdmin', method, path).send(body).expect(404, NOT_FOUND);
      }
    });

    it('is absent from every list for callers without access', async () => {
      const lists = ['/api/projects/', '/api/components/', '/api/translations/', '/api/units/?page_size=1000', '/api/changes/?page_size=1000'];
      for (const path of lists) {
        for (const persona of ['anonymous', 'plain', 'projectAdmin'] as const) {
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
      await team('Secret viewers', [], 'secret-member', { projectId: secret.project.id });
      for (const path of readPaths().filter((p) => !p.endsWith('/repository/'))) {
        const response = await app.http().get(path).set(...authHeader(member.token));
        expect({ path, status: response.status }).toEqual({ path, status: 200 });
      }
      // Seeing is not editing.
      await app.http().patch('/api/projects/secret/').set(...authHeader(member.token)).send({ instructions: 'x' }).expect(403, { detail: 'Can not edit project' });
      const projects = (await app.http().get('/api/projects/').set(...authHeader(member.token)).expect(200)).body.results as Array<{ slug: string }>;
      expect(projects.map((p) => p.slug)).toContain('secret');
    });
  });

  describe('a restricted component', () => {
    it('is hidden inside a visible project, from nested lists, changes and statistics', async () => {
      for (const persona of ['anonymous', 'plain', 'projectAdmin'] as const) {
        for (const path of [
          '/api/components/open/vault/',
          '/api/components/open/vault/translations/',
          '/api/components/open/vault/changes/',
          '/api/components/open/vault/statistics/',
          '/api/translations/open/vault/cs/',
          '/api/translations/open/vault/cs/units/',
          `/api/units/${vault.translations[0].unitIds[0]}/`,
        ]) {
          await request(persona, 'get', path).expect(404, NOT_FOUND);
        }
        await request(persona, 'get', '/api/projects/open/').expect(200);
        expect((await request(persona, 'get', '/api/projects/open/components/').expect(200)).body.count).toBe(0);
        expect((await request(persona, 'get', '/api/projects/open/changes/').expect(200)).body.count).toBe(0);
        expect((await request(persona, 'get', '/api/projects/open/statistics/').expect(200)).body.total).toBe(0);
        expect((await request(persona, 'get', '/api/projects/open/languages/').expect(200)).body).toEqual([]);
      }
      expect((await app.http().get('/api/projects/open/components/').set(...admin).expect(200)).body.count).toBe(1);
      expect((await app.http().get('/api/projects/open/changes/').set(...admin).expect(200)).body.count).toBeGreaterThan(0);
    });

    it('is visible only through a team selecting the component itself', async () => {
      const viewer = await createUserWithToken(ds, 'vault-viewer');
      // A project-level grant does not open a restricted component.
      await team('Open project team', ['Translate'], 'vault-viewer', { projectId: vault.project.id });
      await app.http().get('/api/components/open/vault/').set(...authHeader(viewer.token)).expect(404);
      await team('Vault team', ['Translate'], 'vault-viewer', { componentId: vault.component.id });
      await app.http().get('/api/components/open/vault/').set(...authHeader(viewer.token)).expect(200);
      expect((await app.http().get('/api/projects/open/components/').set(...authHeader(viewer.token)).expect(200)).body.count).toBe(1);
      const unit = `/api/units/${vault.translations.find((t) => t.languageCode === 'cs')!.unitIds[1]}/`;
      await app.http().patch(unit).set(...authHeader(viewer.token)).send({ target: ['Trezor'], state: 20 }).expect(200);
    });
  });
});
