import type { Response } from 'supertest';
import { DataSource } from 'typeorm';
import { generateUserToken, hashToken } from '../../src/common/auth/token-hash';
import { createTranslatedComponent, SeededContent } from '../support/content-factories';
import { authHeader } from '../support/contract';
import { PROJECT_KEYS } from '../support/spec-shapes';
import { createTeam, roleIdsByName } from '../support/team-factories';
import { createTestApp, TEST_ADMIN_TOKEN, TestApp } from '../support/test-app';
import { createUserWithToken } from '../support/users-factories';

// Issue 10 item 3 (privilege escalation through user.edit, and every other user, team and role write) and
// item 10 (access_control on project writes). Rules (src/modules/access/delegation.ts, users.service.ts):
// only superusers act on superusers; only a superuser issues a key for someone else; nobody but a superuser
// makes a superuser; a non-superuser holding user.edit/group.edit/role.edit through a team only touches teams
// and roles within their reach and never widens one beyond it.

type Persona = 'anonymous' | 'plain' | 'userEditor' | 'groupEditor' | 'roleEditor' | 'projectAdmin' | 'superuser';
type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
const PERSONAS: Persona[] = ['anonymous', 'plain', 'userEditor', 'groupEditor', 'roleEditor', 'projectAdmin', 'superuser'];

const NOT_AUTHENTICATED = { detail: 'Authentication credentials were not provided.' };
const DENIED = { detail: 'You do not have permission to perform this action.' };
const NOT_FOUND = { detail: 'Not found.' };
const MANAGE_USERS = { detail: 'Can not manage Users' };
const MANAGE_GROUPS = { detail: 'Can not manage groups' };
const MANAGE_ROLES = { detail: 'Can not manage roles' };

/** A status with its standard DRF body (401, 403 default, 404), or a status with the given body. */
type Expected = number | [number, object];

describe('security: authorization of user, team, role and project writes', () => {
  let app: TestApp;
  let ds: DataSource;
  let pub: SeededContent;
  const tokens: Partial<Record<Persona, string>> = { superuser: TEST_ADMIN_TOKEN };
  const admin = authHeader(TEST_ADMIN_TOKEN);
  let roles: Map<string, number>;
  /** A team without roles or projects: within everybody's reach. */
  let emptyTeam: number;

  function request(persona: Persona, method: Method, path: string) {
    const test = app.http()[method](path);
    const token = tokens[persona];
    return token === undefined ? test : test.set(...authHeader(token));
  }

  function expectAnswer(label: string, response: Response, expected: Expected): void {
    const [status, deniedBody] = typeof expected === 'number' ? [expected, DENIED] : expected;
    expect({ label, status: response.status, body: response.status >= 400 ? response.body : undefined }).toEqual({
      label,
      status,
      body: status === 401 ? NOT_AUTHENTICATED : status === 403 ? deniedBody : status === 404 ? NOT_FOUND : undefined,
    });
  }

  /** The key hashes stored for a user, to show a denied write revoked nothing. */
  async function storedKeys(username: string): Promise<string[]> {
    const rows: Array<{ key_hash: string }> = await ds.query(
      `SELECT t.key_hash FROM api_tokens t JOIN users u ON u.id = t.user_id WHERE u.username = $1 ORDER BY t.key_hash`,
      [username],
    );
    return rows.map((row) => row.key_hash);
  }

  async function memberships(username: string): Promise<number[]> {
    const rows: Array<{ group_id: number }> = await ds.query(
      // Every user is a member of the built-in "Users" team (issue 12 item 3); the checks are about the others.
      `SELECT m.group_id FROM group_members m JOIN users u ON u.id = m.user_id JOIN groups g ON g.id = m.group_id
        WHERE u.username = $1 AND NOT g.auto_assign ORDER BY m.group_id`,
      [username],
    );
    return rows.map((row) => row.group_id);
  }

  async function teamId(name: string): Promise<number> {
    const [row]: Array<{ id: number }> = await ds.query('SELECT id FROM groups WHERE name = $1', [name]);
    return row.id;
  }

  beforeAll(async () => {
    app = await createTestApp();
    ds = app.glossa.app.get(DataSource);
    pub = await createTranslatedComponent(ds, { project: { name: 'Public', slug: 'pub' }, component: { name: 'Main', slug: 'main' } });
    for (const persona of ['plain', 'userEditor', 'groupEditor', 'roleEditor', 'projectAdmin'] as const) {
      tokens[persona] = (await createUserWithToken(ds, persona)).token;
    }
    // Roles granting one site-wide permission each, made and handed out by the superuser.
    for (const [name, permissions] of [['User admin', ['user.edit']], ['Team admin', ['group.edit']], ['Role admin', ['role.edit']], ['Edit project', ['project.edit']]]) {
      await app.http().post('/api/roles/').set(...admin).send({ name, permissions }).expect(201);
    }
    roles = await roleIdsByName(app, TEST_ADMIN_TOKEN);
    await createTeam(app, TEST_ADMIN_TOKEN, { name: 'User editors', roles: ['User admin'], members: ['userEditor'] });
    await createTeam(app, TEST_ADMIN_TOKEN, { name: 'Team editors', roles: ['Team admin'], members: ['groupEditor'] });
    await createTeam(app, TEST_ADMIN_TOKEN, { name: 'Role editors', roles: ['Role admin'], members: ['roleEditor'] });
    await createTeam(app, TEST_ADMIN_TOKEN, { name: 'Pub admins', roles: ['Administration'], members: ['projectAdmin'], projectIds: [pub.project.id] });
    emptyTeam = await createTeam(app, TEST_ADMIN_TOKEN, { name: 'Empty', roles: [] });
  });

  afterAll(async () => {
    await app?.close();
  });

  describe('the reported attack: user.edit through a team', () => {
    it('cannot mint the superuser’s key; ADMIN_TOKEN and the admin’s other key keep working and nothing changes', async () => {
      // A second key of the bootstrap administrator, as the admin CLI's createtoken adds one.
      const otherKey = generateUserToken();
      await ds.query(`INSERT INTO api_tokens (user_id, key_hash) SELECT id, $1 FROM users WHERE username = 'admin'`, [hashToken(otherKey)]);
      const keysBefore = await storedKeys('admin');
      expect(keysBefore).toHaveLength(2);
      const adminBefore = (await app.http().get('/api/users/admin/').set(...admin).expect(200)).body;

      const attack = await request('userEditor', 'post', '/api/users/admin/token/');
      expectAnswer('POST /api/users/admin/token/ as a user.edit holder', attack, 403);
      expect(attack.body).not.toHaveProperty('key');

      expect(await storedKeys('admin')).toEqual(keysBefore);
      await app.http().get('/api/users/').set(...admin).expect(200);
      await app.http().get('/api/users/').set(...authHeader(otherKey)).expect(200);
      // Still the superuser: a superuser-only write with ADMIN_TOKEN succeeds.
      await app.http().post('/api/users/plain/groups/').set(...admin).send({ group_id: emptyTeam }).expect(200);
      await app.http().delete('/api/users/plain/groups/').set(...admin).send({ group_id: emptyTeam }).expect(200);
      expect((await app.http().get('/api/users/admin/').set(...admin).expect(200)).body).toEqual(adminBefore);
    });

    it('cannot make anyone a superuser, nor take the ADMIN_USERNAME the next start would promote', async () => {
      const denied: Array<[Method, string, object]> = [
        ['patch', '/api/users/userEditor/', { is_superuser: true }],
        ['put', '/api/users/userEditor/', { username: 'userEditor', full_name: 'U', email: 'u@example.org', is_superuser: true }],
        ['post', '/api/users/', { username: 'made-super', full_name: 'M', email: 'made-super@example.org', is_superuser: true }],
        ['patch', '/api/users/admin/', { is_active: false }],
        ['patch', '/api/users/admin/', { email: 'attacker@example.org' }],
        ['delete', '/api/users/admin/', {}],
      ];
      for (const [method, path, body] of denied) {
        expectAnswer(`${method} ${path} ${JSON.stringify(body)}`, await request('userEditor', method, path).send(body), 403);
      }
      const [me]: Array<{ is_superuser: boolean }> = await ds.query(`SELECT is_superuser FROM users WHERE username = 'userEditor'`);
      expect(me.is_superuser).toBe(false);
      expect(await ds.query(`SELECT 1 FROM users WHERE username = 'made-super'`)).toHaveLength(0);
      await app.http().get('/api/users/').set(...admin).expect(200);

      // With the configured ADMIN_USERNAME free (the superuser renamed that account), a user.edit holder may not take it.
      await app.http().patch('/api/users/admin/').set(...admin).send({ username: 'root' }).expect(200);
      try {
        expectAnswer('rename oneself to admin', await request('userEditor', 'patch', '/api/users/userEditor/').send({ username: 'admin' }), 403);
        expectAnswer('create admin', await request('userEditor', 'post', '/api/users/').send({ username: 'admin', full_name: 'A', email: 'a@example.org' }), 403);
        expect(await ds.query(`SELECT 1 FROM users WHERE username = 'admin'`)).toHaveLength(0);
      } finally {
        await app.http().patch('/api/users/root/').set(...admin).send({ username: 'admin' }).expect(200);
      }
    });

    it('cannot join a team granting more than it holds; may manage its own team and teams within reach', async () => {
      const managers = await teamId('Managers');
      const teamEditors = await teamId('Team editors');
      const userEditors = await teamId('User editors');
      const before = await memberships('userEditor');
      for (const group of [managers, teamEditors]) {
        expectAnswer(`join ${group}`, await request('userEditor', 'post', '/api/users/userEditor/groups/').send({ group_id: group }), 403);
        expectAnswer(`add plain to ${group}`, await request('userEditor', 'post', '/api/users/plain/groups/').send({ group_id: group }), 403);
      }
      // Leaving or removing someone from a team above oneself is refused too.
      await app.http().post('/api/users/plain/groups/').set(...admin).send({ group_id: managers }).expect(200);
      expectAnswer('remove plain from Managers', await request('userEditor', 'delete', '/api/users/plain/groups/').send({ group_id: managers }), 403);
      expect(await memberships('plain')).toEqual([managers]);
      await app.http().delete('/api/users/plain/groups/').set(...admin).send({ group_id: managers }).expect(200);
      expect(await memberships('userEditor')).toEqual(before);
      // Its own team grants nothing it does not hold already.
      await request('userEditor', 'post', '/api/users/plain/groups/').send({ group_id: userEditors }).expect(200);
      expect(await memberships('plain')).toEqual([userEditors]);
      await request('userEditor', 'delete', '/api/users/plain/groups/').send({ group_id: userEditors }).expect(200);
      expect(await memberships('plain')).toEqual([]);
    });

    it('may replace its own key, which revokes the old one, but no one else’s', async () => {
      const victim = await createUserWithToken(ds, 'victim');
      expectAnswer('key for victim', await request('userEditor', 'post', '/api/users/victim/token/'), 403);
      await app.http().get('/api/users/').set(...authHeader(victim.token)).expect(200);
      expectAnswer('key for unknown', await request('userEditor', 'post', '/api/users/nobody/token/'), 404);
      const old = tokens.userEditor!;
      const fresh = await request('userEditor', 'post', '/api/users/userEditor/token/').expect(201);
      expect(fresh.body.key).toMatch(/^wlu_[A-Za-z0-9]{36}$/);
      tokens.userEditor = fresh.body.key;
      await app.http().get('/api/users/').set(...authHeader(old)).expect(401);
      await request('userEditor', 'get', '/api/users/').expect(200);
      // Without user.edit the route stays closed, even for oneself (Weblate 4.x has no such route at all).
      expectAnswer('own key without user.edit', await request('plain', 'post', '/api/users/plain/token/'), [403, MANAGE_USERS]);
    });
  });

  describe('team and role writes cannot widen their own or anyone’s rights', () => {
    it('a group.edit holder cannot give its own team, the built-in Users team or a new team roles or scope it does not hold', async () => {
      const own = await teamId('Team editors');
      const users = await teamId('Users');
      const snapshot = async () => (await app.http().get(`/api/groups/${own}/`).set(...admin).expect(200)).body;
      const ownBefore = await snapshot();
      const usersBefore = (await app.http().get(`/api/groups/${users}/`).set(...admin).expect(200)).body;
      for (const role of ['Administration', 'User admin', 'Role admin', 'Translate']) {
        expectAnswer(`own + ${role}`, await request('groupEditor', 'post', `/api/groups/${own}/roles/`).send({ role_id: roles.get(role) }), 403);
        expectAnswer(`Users + ${role}`, await request('groupEditor', 'post', `/api/groups/${users}/roles/`).send({ role_id: roles.get(role) }), 403);
      }
      expectAnswer('own selects all projects', await request('groupEditor', 'patch', `/api/groups/${own}/`).send({ project_selection: 1 }), 403);
      expectAnswer('new team selecting all', await request('groupEditor', 'post', '/api/groups/').send({ name: 'All seeing', project_selection: 1, language_selection: 1 }), 403);
      expect(await snapshot()).toEqual(ownBefore);
      expect((await app.http().get(`/api/groups/${users}/`).set(...admin).expect(200)).body).toEqual(usersBefore);
      expect(await ds.query(`SELECT 1 FROM groups WHERE name = 'All seeing'`)).toHaveLength(0);

      // Two holders together get no further: the group.edit holder builds a team with group.edit (which it
      // holds), the user.edit holder cannot join it (it does not hold group.edit), and user.edit cannot be added.
      const made = await request('groupEditor', 'post', '/api/groups/').send({ name: 'Escalate', project_selection: 0, language_selection: 1 }).expect(201);
      await request('groupEditor', 'post', `/api/groups/${made.body.id}/roles/`).send({ role_id: roles.get('Team admin') }).expect(200);
      expectAnswer('Escalate + User admin', await request('groupEditor', 'post', `/api/groups/${made.body.id}/roles/`).send({ role_id: roles.get('User admin') }), 403);
      expectAnswer('join Escalate', await request('userEditor', 'post', '/api/users/userEditor/groups/').send({ group_id: made.body.id }), 403);
      expect(await memberships('userEditor')).toEqual([await teamId('User editors')]);
    });

    it('a role.edit holder cannot add permissions it does not hold to its own role or to the built-in Power user role', async () => {
      const own = roles.get('Role admin')!;
      const power = roles.get('Power user')!;
      const permissionsOf = async (id: number) => (await app.http().get(`/api/roles/${id}/`).set(...admin).expect(200)).body.permissions;
      const ownBefore = await permissionsOf(own);
      const powerBefore = await permissionsOf(power);
      expectAnswer('own + user.edit', await request('roleEditor', 'patch', `/api/roles/${own}/`).send({ permissions: ['user.edit'] }), 403);
      expectAnswer('own := group.edit', await request('roleEditor', 'put', `/api/roles/${own}/`).send({ name: 'Role admin', permissions: ['role.edit', 'group.edit'] }), 403);
      // Every signed-in user holds Power user on public projects (the built-in Users team).
      expectAnswer('Power user + project.edit', await request('roleEditor', 'patch', `/api/roles/${power}/`).send({ permissions: ['project.edit'] }), 403);
      expectAnswer('new role with Administration rights', await request('roleEditor', 'post', '/api/roles/').send({ name: 'Sneaky', permissions: ['project.edit'] }), 403);
      expect(await permissionsOf(own)).toEqual(ownBefore);
      expect(await permissionsOf(power)).toEqual(powerBefore);
      expect(await ds.query(`SELECT 1 FROM roles WHERE name = 'Sneaky'`)).toHaveLength(0);
      // A PATCH re-adding what the role has adds nothing: allowed.
      await request('roleEditor', 'patch', `/api/roles/${power}/`).send({ permissions: ['unit.edit'] }).expect(200);
    });
  });

  describe('every user, team and role write for every persona', () => {
    /** Runs one request per persona and checks each answer. */
    async function expectRow(method: Method, path: (p: Persona) => string, body: ((p: Persona) => object) | object | undefined, expected: Record<Persona, Expected>): Promise<void> {
      for (const persona of PERSONAS) {
        const url = path(persona);
        const payload = typeof body === 'function' ? body(persona) : body;
        expectAnswer(`${method} ${url} as ${persona}`, await request(persona, method, url).send(payload), expected[persona]);
      }
    }

    /** Users routes: 401 anonymous, 403 "Can not manage Users" without user.edit, `editor` for the user.edit holder, `ok` for the superuser. */
    const userWrite = (editor: Expected, ok: number): Record<Persona, Expected> => ({
      anonymous: 401, plain: [403, MANAGE_USERS], userEditor: editor, groupEditor: [403, MANAGE_USERS], roleEditor: [403, MANAGE_USERS], projectAdmin: [403, MANAGE_USERS], superuser: ok,
    });
    /** Someone else's subscriptions: the user themself and superusers only, others 404 (GHSA-3pmh-24wp-xpf4). */
    const othersSubscriptions = (ok: number): Record<Persona, Expected> => ({
      anonymous: 401, plain: 404, userEditor: 404, groupEditor: 404, roleEditor: 404, projectAdmin: 404, superuser: ok,
    });

    for (const kind of ['superuser', 'normal'] as const) {
      it(`users routes on a ${kind} target`, async () => {
        const prefix = kind === 'superuser' ? 'sup' : 'norm';
        const target = (p: Persona) => `${prefix}-${p}`;
        const users = new Map<Persona, { token: string }>();
        const subscriptions = new Map<Persona, number>();
        for (const persona of PERSONAS) {
          users.set(persona, await createUserWithToken(ds, target(persona), { isSuperuser: kind === 'superuser' }));
          const made = await app.http().post(`/api/users/${target(persona)}/notifications/`).set(...admin).send({ notification: 'LockNotification', scope: 10, frequency: 1 }).expect(201);
          subscriptions.set(persona, made.body.id);
        }
        // The user.edit holder: 403 on every superuser; on others what user.edit allows, except their key.
        const editor = (status: number): Expected => (kind === 'superuser' ? 403 : status);
        await expectRow('patch', (p) => `/api/users/${target(p)}/`, { full_name: 'Patched' }, userWrite(editor(200), 200));
        await expectRow('put', (p) => `/api/users/${target(p)}/`, (p) => ({ username: target(p), full_name: 'Put', email: `${target(p)}@example.org` }), userWrite(editor(200), 200));
        await expectRow('post', (p) => `/api/users/${target(p)}/groups/`, { group_id: emptyTeam }, userWrite(editor(200), 200));
        await expectRow('delete', (p) => `/api/users/${target(p)}/groups/`, { group_id: emptyTeam }, userWrite(editor(200), 200));
        await expectRow('post', (p) => `/api/users/${target(p)}/notifications/`, { notification: 'MergeFailureNotification', scope: 10, frequency: 1 }, othersSubscriptions(201));
        await expectRow('put', (p) => `/api/users/${target(p)}/notifications/${subscriptions.get(p)}/`, { notification: 'LockNotification', scope: 10, frequency: 2 }, othersSubscriptions(200));
        await expectRow('patch', (p) => `/api/users/${target(p)}/notifications/${subscriptions.get(p)}/`, { frequency: 3 }, othersSubscriptions(200));
        await expectRow('delete', (p) => `/api/users/${target(p)}/notifications/${subscriptions.get(p)}/`, undefined, othersSubscriptions(204));
        await expectRow('post', (p) => `/api/users/${target(p)}/token/`, undefined, userWrite(403, 201));
        await expectRow('delete', (p) => `/api/users/${target(p)}/`, undefined, userWrite(editor(204), 204));
        await expectRow(
          'post',
          () => '/api/users/',
          (p) => ({ username: `new-${prefix}-${p}`, full_name: 'New', email: `new-${prefix}-${p}@example.org`, is_superuser: kind === 'superuser' }),
          userWrite(editor(201), 201),
        );

        // Every refused write left its target as it was: name, rights, key.
        for (const persona of PERSONAS.filter((p) => p !== 'superuser' && !(p === 'userEditor' && kind === 'normal'))) {
          const [row]: Array<{ full_name: string; is_superuser: boolean; is_active: boolean }> = await ds.query(
            'SELECT full_name, is_superuser, is_active FROM users WHERE username = $1',
            [target(persona)],
          );
          expect({ persona, ...row }).toEqual({ persona, full_name: target(persona), is_superuser: kind === 'superuser', is_active: true });
          await app.http().get('/api/users/').set(...authHeader(users.get(persona)!.token)).expect(200);
        }
      });
    }

    for (const kind of ['above', 'within reach'] as const) {
      it(`team routes on a team ${kind === 'above' ? 'above' : 'within the reach of'} the group.edit holder`, async () => {
        const above = kind === 'above';
        const ids = new Map<Persona, number>();
        for (const persona of PERSONAS) {
          // Above: Administration on the public project, selected with its component and a language.
          const id = await createTeam(app, TEST_ADMIN_TOKEN, above
            ? { name: `above-${persona}`, roles: ['Administration'], projectIds: [pub.project.id], componentIds: [pub.component.id] }
            : { name: `reach-${persona}`, roles: [] });
          if (above) await app.http().post(`/api/groups/${id}/languages/`).set(...admin).send({ language_code: 'cs' }).expect(200);
          ids.set(persona, id);
        }
        const team = (p: Persona) => `/api/groups/${ids.get(p)}/`;
        // Weblate's GroupViewSet checks group.edit before the lookup: 403 for callers without it, whether
        // or not they can see the team (issue 12 item 2).
        const teamWrite = (ok: number): Record<Persona, Expected> => ({
          anonymous: 401, plain: [403, MANAGE_GROUPS], userEditor: [403, MANAGE_GROUPS], groupEditor: above ? 403 : ok, roleEditor: [403, MANAGE_GROUPS], projectAdmin: [403, MANAGE_GROUPS], superuser: ok,
        });
        const role = above ? roles.get('Administration')! : roles.get('Team admin')!;
        await expectRow('patch', team, (p) => ({ name: `${kind}-${p} renamed` }), teamWrite(200));
        await expectRow('put', team, (p) => ({ name: `${kind}-${p}`, project_selection: 0, language_selection: 1 }), teamWrite(200));
        await expectRow('post', (p) => `${team(p)}roles/`, { role_id: roles.get('Team admin') }, teamWrite(200));
        await expectRow('delete', (p) => `${team(p)}roles/${role}/`, undefined, teamWrite(204));
        await expectRow('post', (p) => `${team(p)}projects/`, { project_id: pub.project.id }, teamWrite(200));
        await expectRow('delete', (p) => `${team(p)}projects/${pub.project.id}/`, undefined, teamWrite(204));
        await expectRow('post', (p) => `${team(p)}components/`, { component_id: pub.component.id }, teamWrite(200));
        await expectRow('delete', (p) => `${team(p)}components/${pub.component.id}/`, undefined, teamWrite(204));
        await expectRow('post', (p) => `${team(p)}languages/`, { language_code: 'cs' }, teamWrite(200));
        await expectRow('delete', (p) => `${team(p)}languages/cs/`, undefined, teamWrite(204));
        await expectRow('delete', team, undefined, teamWrite(204));
        await expectRow(
          'post',
          () => '/api/groups/',
          (p) => ({ name: `new ${kind} ${p}`, project_selection: above ? 1 : 0, language_selection: 1 }),
          { anonymous: 401, plain: [403, MANAGE_GROUPS], userEditor: [403, MANAGE_GROUPS], groupEditor: above ? 403 : 201, roleEditor: [403, MANAGE_GROUPS], projectAdmin: [403, MANAGE_GROUPS], superuser: 201 },
        );
        if (above) {
          const kept = (await app.http().get(`/api/groups/${ids.get('groupEditor')}/`).set(...admin).expect(200)).body;
          expect(kept).toMatchObject({ name: 'above-groupEditor', roles: [expect.stringContaining(`/api/roles/${roles.get('Administration')}/`)] });
          expect(kept.projects).toHaveLength(1);
          expect(kept.components).toHaveLength(1);
          expect(kept.languages).toHaveLength(1);
        }
      });

      it(`role routes on a role ${kind === 'above' ? 'above' : 'within the reach of'} the role.edit holder`, async () => {
        const above = kind === 'above';
        const permissions = above ? ['project.edit', 'unit.edit'] : ['role.edit'];
        const ids = new Map<Persona, number>();
        for (const persona of PERSONAS) {
          const made = await app.http().post('/api/roles/').set(...admin).send({ name: `${kind} role ${persona}`, permissions }).expect(201);
          ids.set(persona, made.body.id);
        }
        const role = (p: Persona) => `/api/roles/${ids.get(p)}/`;
        const roleWrite = (editor: Expected, ok: number): Record<Persona, Expected> => ({
          anonymous: 401, plain: [403, MANAGE_ROLES], userEditor: [403, MANAGE_ROLES], groupEditor: [403, MANAGE_ROLES], roleEditor: editor, projectAdmin: [403, MANAGE_ROLES], superuser: ok,
        });
        await expectRow('patch', role, (p) => ({ name: `${kind} role ${p} renamed` }), roleWrite(above ? 403 : 200, 200));
        await expectRow('put', role, (p) => ({ name: `${kind} role ${p}`, permissions }), roleWrite(above ? 403 : 200, 200));
        // Adding a permission the holder does not hold everywhere: refused on any role.
        await expectRow('patch', role, { permissions: ['unit.review'] }, roleWrite(403, 200));
        await expectRow('delete', role, undefined, roleWrite(above ? 403 : 204, 204));
        await expectRow(
          'post',
          () => '/api/roles/',
          (p) => ({ name: `new ${kind} role ${p}`, permissions }),
          { anonymous: 401, plain: [403, MANAGE_ROLES], userEditor: [403, MANAGE_ROLES], groupEditor: [403, MANAGE_ROLES], roleEditor: above ? 403 : 201, projectAdmin: [403, MANAGE_ROLES], superuser: 201 },
        );
        if (above) {
          const kept = (await app.http().get(role('roleEditor')).set(...admin).expect(200)).body;
          expect(kept).toMatchObject({ name: 'above role roleEditor', permissions });
        }
      });
    }
  });

  describe('access_control on project writes (issue 10 item 10)', () => {
    /** A project with a component, translations, units and changes, and a team of `admins` with Administration on it. */
    async function projectWithAdmin(slug: string): Promise<{ content: SeededContent; admin: { token: string } }> {
      const content = await createTranslatedComponent(ds, { project: { name: slug, slug }, component: { name: 'Main', slug: 'main' } });
      const owner = await createUserWithToken(ds, `${slug}-admin`);
      await createTeam(app, TEST_ADMIN_TOKEN, { name: `${slug} admins`, roles: ['Administration'], members: [owner.username], projectIds: [content.project.id] });
      return { content, admin: owner };
    }

    /** Every read of the project's objects answers `status` to `headers` (none: anonymous). */
    async function expectReads(content: SeededContent, status: 200 | 404, headers?: [string, string]): Promise<void> {
      const slug = content.project.slug;
      const unit = content.translations.find((t) => t.languageCode === 'cs')!.unitIds[0];
      const [{ id: change }]: Array<{ id: number }> = await ds.query('SELECT id FROM changes WHERE project_id = $1 ORDER BY id LIMIT 1', [content.project.id]);
      const paths = [
        `/api/projects/${slug}/`,
        `/api/projects/${slug}/components/`,
        `/api/projects/${slug}/changes/`,
        `/api/projects/${slug}/statistics/`,
        `/api/components/${slug}/main/`,
        `/api/components/${slug}/main/translations/`,
        `/api/translations/${slug}/main/cs/`,
        `/api/translations/${slug}/main/cs/units/`,
        `/api/units/${unit}/`,
        `/api/changes/${change}/`,
      ];
      for (const path of paths) {
        const test = app.http().get(path);
        const response = await (headers ? test.set(...headers) : test);
        expect({ path, status: response.status }).toEqual({ path, status });
        if (status === 404) expect(response.body).toEqual(NOT_FOUND);
      }
      const listed = async (path: string, pick: (item: Record<string, unknown>) => unknown, value: unknown) => {
        const test = app.http().get(path);
        const body = (await (headers ? test.set(...headers) : test).expect(200)).body as { results: Array<Record<string, unknown>> };
        return body.results.some((item) => pick(item) === value);
      };
      expect(await listed('/api/projects/?page_size=1000', (p) => p.slug, slug)).toBe(status === 200);
      expect(await listed('/api/units/?page_size=1000', (u) => u.id, Number(unit))).toBe(status === 200);
    }

    it('a superuser makes a project private with PATCH: at once 404 for anonymous callers and non-members everywhere', async () => {
      const { content, admin: owner } = await projectWithAdmin('hush');
      await expectReads(content, 200);
      const patched = await app.http().patch('/api/projects/hush/').set(...admin).send({ access_control: 100 }).expect(200);
      // Write-only: the project object keeps the spec's fields (weblate-api.md §6.2, §8.7).
      expect(Object.keys(patched.body)).toEqual(PROJECT_KEYS);
      await expectReads(content, 404);
      await expectReads(content, 404, authHeader(tokens.plain!));
      await expectReads(content, 200, authHeader(owner.token));
      // PUT without access_control leaves it as it is.
      await app.http().put('/api/projects/hush/').set(...admin).send({ name: 'hush', slug: 'hush', web: 'https://example.org/' }).expect(200);
      await expectReads(content, 404);
    });

    it('a project admin may change it with PUT and PATCH (Administration holds project.permissions)', async () => {
      const { content, admin: owner } = await projectWithAdmin('owned');
      const as = authHeader(owner.token);
      await app.http().put('/api/projects/owned/').set(...as).send({ name: 'owned', slug: 'owned', web: 'https://example.org/', access_control: 100 }).expect(200);
      await expectReads(content, 404);
      await app.http().patch('/api/projects/owned/').set(...as).send({ access_control: 0 }).expect(200);
      await expectReads(content, 200);
      // Custom (200): visibility through teams only, like private.
      await app.http().patch('/api/projects/owned/').set(...as).send({ access_control: '200' }).expect(200);
      await expectReads(content, 404, authHeader(tokens.plain!));
      await expectReads(content, 200, as);
    });

    it('protected (1): visible to everybody, translated only by its teams', async () => {
      const { content } = await projectWithAdmin('guarded');
      const unit = content.translations.find((t) => t.languageCode === 'cs')!.unitIds[1];
      const plain = authHeader(tokens.plain!);
      // Public: every signed-in user translates (built-in Users team, "Power user").
      await app.http().patch(`/api/units/${unit}/`).set(...plain).send({ target: ['Ahoj'], state: 20 }).expect(200);
      await app.http().patch('/api/projects/guarded/').set(...admin).send({ access_control: 1 }).expect(200);
      await expectReads(content, 200);
      expectAnswer('translate a protected project', await app.http().patch(`/api/units/${unit}/`).set(...plain).send({ target: ['Nazdar'], state: 20 }), 403);
    });

    it('POST creates a private project for the superuser; a project creator without project.permissions cannot', async () => {
      await app.http().post('/api/projects/').set(...admin).send({ name: 'Born private', slug: 'born-private', web: 'https://example.org/', access_control: 100 }).expect(201);
      await app.http().get('/api/projects/born-private/').expect(404);
      await app.http().get('/api/projects/born-private/').set(...admin).expect(200);

      const creator = await createUserWithToken(ds, 'creator');
      // Weblate 4.18 has no built-in project creator team (5.1+): one made by the administrator.
      await app.http().post('/api/roles/').set(...admin).send({ name: 'Create projects', permissions: ['project.add'] }).expect(201);
      await createTeam(app, TEST_ADMIN_TOKEN, { name: 'Project creators', roles: ['Create projects'], members: ['creator'], projectSelection: 1 });
      const denied = await app.http().post('/api/projects/').set(...authHeader(creator.token)).send({ name: 'Hidden', slug: 'hidden', web: 'https://example.org/', access_control: 100 });
      expectAnswer('creator sets access_control', denied, 403);
      expect(await ds.query(`SELECT 1 FROM projects WHERE slug = 'hidden'`)).toHaveLength(0);
      await app.http().post('/api/projects/').set(...authHeader(creator.token)).send({ name: 'Visible', slug: 'visible', web: 'https://example.org/' }).expect(201);
    });

    it('refuses it without the permission (403) and invalid values (400 on the field), changing nothing', async () => {
      const { content } = await projectWithAdmin('kept');
      const translator = await createUserWithToken(ds, 'kept-translator');
      const editor = await createUserWithToken(ds, 'kept-editor');
      await createTeam(app, TEST_ADMIN_TOKEN, { name: 'kept translators', roles: ['Translate'], members: [translator.username], projectIds: [content.project.id] });
      await createTeam(app, TEST_ADMIN_TOKEN, { name: 'kept editors', roles: ['Edit project'], members: [editor.username], projectIds: [content.project.id] });
      expectAnswer('translator', await app.http().patch('/api/projects/kept/').set(...authHeader(translator.token)).send({ access_control: 100 }), [403, { detail: 'Can not edit project' }]);
      // project.edit alone is not "Manage project access".
      expectAnswer('editor', await app.http().patch('/api/projects/kept/').set(...authHeader(editor.token)).send({ access_control: 100 }), 403);
      await app.http().patch('/api/projects/kept/').set(...authHeader(editor.token)).send({ instructions: 'Fine' }).expect(200);
      expectAnswer('anonymous', await app.http().patch('/api/projects/kept/').send({ access_control: 100 }), 401);
      for (const [value, message] of [[5, '"5" is not a valid choice.'], ['private', '"private" is not a valid choice.'], [null, 'This field may not be null.']] as const) {
        const response = await app.http().patch('/api/projects/kept/').set(...admin).send({ access_control: value, instructions: 'Changed' }).expect(400);
        expect(response.body).toEqual({ access_control: [message] });
      }
      // null is refused for every project field that cannot be null, on PATCH as on PUT (no failed insert, no 500).
      for (const field of ['name', 'slug', 'web', 'translation_review', 'instructions', 'language_aliases']) {
        const patched = await app.http().patch('/api/projects/kept/').set(...admin).send({ instructions: 'Changed', [field]: null }).expect(400);
        expect(patched.body).toEqual({ [field]: ['This field may not be null.'] });
      }
      const put = await app.http().put('/api/projects/kept/').set(...admin).send({ name: 'kept', slug: 'kept', web: 'https://example.org/', access_control: null, enable_hooks: null }).expect(400);
      expect(put.body).toEqual({ access_control: ['This field may not be null.'], enable_hooks: ['This field may not be null.'] });
      await expectReads(content, 200);
      expect((await app.http().get('/api/projects/kept/').expect(200)).body.instructions).toBe('Fine');
    });
  });
});
