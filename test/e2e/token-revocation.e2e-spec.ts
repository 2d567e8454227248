import { mkdtemp, rm } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { AuthChangeWatcher } from '../support/auth-changes';
import { compileServer, freePort, ServerProcess } from '../support/server-process';
import { createTestDatabase, type TestDatabase } from '../support/test-database';
import { TEST_ADMIN_TOKEN } from '../support/test-app';

// Issue 15 item 2: each process caches token → caller (src/common/auth/token-cache.ts) and forgets it when
// tokens, users, teams or roles change (NOTIFY glossa_auth, migration AuthNotify). Two real server processes
// on one PostgreSQL database: a change made through A is seen by B on its next request. B's reads that name
// no object (`/api/`, lists, a user's notifications) are the ones answered from its cache. The test waits
// for the change's notification on a connection of its own (published at commit, when B's LISTEN connection
// gets it too) and then for B to report that it heard it too (`glossa_auth_last_change_heard` on its
// /metrics: PostgreSQL hands each listener a commit's notification on its own schedule, so the test's copy
// can arrive first), never for a fixed time.
const realPostgres = Boolean(process.env.GLOSSA_TEST_SERVER_URL);

(realPostgres ? describe : describe.skip)('token revocation across two processes', () => {
  let database: TestDatabase;
  let dataDir: string;
  let a: ServerProcess;
  let b: ServerProcess;
  let watcher: AuthChangeWatcher;
  const admin = { Authorization: `Token ${TEST_ADMIN_TOKEN}`, 'Content-Type': 'application/json' };
  const auth = (key: string): Record<string, string> => ({ Authorization: `Token ${key}`, 'Content-Type': 'application/json' });

  /** Runs `change` (through A), checks its status, and waits until B heard its notification. */
  function changeOnA(change: () => Promise<Response>, status: number): Promise<Response> {
    return watcher.change(async () => {
      const response = await change();
      // Checked before waiting: a refused change sends no notification, and its status says more.
      expect(response.status).toBe(status);
      return response;
    }, [b]);
  }

  async function createUser(username: string): Promise<string> {
    const created = await a.fetch('/api/users/', { method: 'POST', headers: admin, body: JSON.stringify({ username, full_name: username, email: `${username}@example.org` }) });
    expect(created.status).toBe(201);
    const issued = await a.fetch(`/api/users/${username}/token/`, { method: 'POST', headers: admin });
    expect(issued.status).toBe(201);
    return ((await issued.json()) as { key: string }).key;
  }

  /** B's answer to a cached read (`/api/`), asked twice so the second is answered from B's cache. */
  async function readOnB(key: string, pathname = '/api/'): Promise<number> {
    await b.fetch(pathname, { headers: auth(key) });
    return (await b.fetch(pathname, { headers: auth(key) })).status;
  }

  beforeAll(async () => {
    await compileServer();
    database = await createTestDatabase();
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'glossa-revocation-'));
    const env = {
      DATABASE_URL: database.url,
      DATA_DIR: dataDir,
      DEMO: 'false',
      ADMIN_TOKEN: TEST_ADMIN_TOKEN,
      SITE_URL: 'http://glossa.test',
      RATE_LIMIT_USER: '100000/hour',
      LOG_LEVEL: 'warn',
    };
    a = new ServerProcess(await freePort(), env);
    b = new ServerProcess(await freePort(), env);
    await Promise.all([a.start(), b.start()]);
    watcher = await AuthChangeWatcher.start(database.url);
  });

  afterAll(async () => {
    await watcher?.close();
    await a?.stop();
    await b?.stop();
    await database?.drop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('refuses a regenerated key on the other process at once, and takes the new key at once', async () => {
    const oldKey = await createUser('alice');
    expect(await readOnB(oldKey)).toBe(200);
    const issued = await changeOnA(() => a.fetch('/api/users/alice/token/', { method: 'POST', headers: admin }), 201);
    const newKey = ((await issued.json()) as { key: string }).key;
    const refused = await b.fetch('/api/', { headers: auth(oldKey) });
    expect(refused.status).toBe(401);
    expect(await refused.json()).toEqual({ detail: 'Invalid token.' });
    expect(await readOnB(newKey)).toBe(200);
    // The process that made the change is exact too (its own notification arrives with its COMMIT).
    expect((await a.fetch('/api/', { headers: auth(oldKey) })).status).toBe(401);
  });

  it('refuses a deactivated user, accepts it again once reactivated, and refuses a deleted one', async () => {
    const key = await createUser('bob');
    expect(await readOnB(key, '/api/projects/')).toBe(200);
    await changeOnA(() => a.fetch('/api/users/bob/', { method: 'PATCH', headers: admin, body: JSON.stringify({ is_active: false }) }), 200);
    const refused = await b.fetch('/api/projects/', { headers: auth(key) });
    expect(refused.status).toBe(401);
    expect(await refused.json()).toEqual({ detail: 'User inactive or deleted.' });
    await changeOnA(() => a.fetch('/api/users/bob/', { method: 'PATCH', headers: admin, body: JSON.stringify({ is_active: true }) }), 200);
    expect(await readOnB(key, '/api/projects/')).toBe(200);
    await changeOnA(() => a.fetch('/api/users/bob/', { method: 'DELETE', headers: admin }), 204);
    expect((await b.fetch('/api/projects/', { headers: auth(key) })).status).toBe(401);
  });

  it('takes the superuser rights away on the other process at once', async () => {
    await createUser('target');
    const key = await createUser('carol');
    await changeOnA(() => a.fetch('/api/users/carol/', { method: 'PATCH', headers: admin, body: JSON.stringify({ is_superuser: true }) }), 200);
    // Someone else's notification settings: superusers only (404 for others, scope-access.ts).
    expect(await readOnB(key, '/api/users/target/notifications/')).toBe(200);
    await changeOnA(() => a.fetch('/api/users/carol/', { method: 'PATCH', headers: admin, body: JSON.stringify({ is_superuser: false }) }), 200);
    expect((await b.fetch('/api/users/target/notifications/', { headers: auth(key) })).status).toBe(404);
  });

  it('hides a private project from a demoted superuser on the other process at once', async () => {
    const key = await createUser('erin');
    await changeOnA(() => a.fetch('/api/users/erin/', { method: 'PATCH', headers: admin, body: JSON.stringify({ is_superuser: true }) }), 200);
    const created = await a.fetch('/api/projects/', { method: 'POST', headers: admin, body: JSON.stringify({ name: 'Hidden', slug: 'hidden', web: 'https://example.org/', access_control: 100 }) });
    expect(created.status).toBe(201);
    // Read twice: B's second scoped read takes the superuser from its token cache (scope-access.ts `superuser`).
    expect(await readOnB(key, '/api/projects/hidden/')).toBe(200);
    // Demoted in the database directly, as an operator would: the users table's trigger notifies all the same.
    await watcher.change(() => watcher.query("UPDATE users SET is_superuser = false WHERE username = 'erin'"), [b]);
    const refused = await b.fetch('/api/projects/hidden/', { headers: auth(key) });
    expect(refused.status).toBe(404);
    expect(await refused.json()).toEqual({ detail: 'Not found.' });
    expect((await b.fetch('/api/projects/hidden/', { headers: auth(key) })).status).toBe(404);
  });

  it("shows and hides a private project to a team's member on the other process at once", async () => {
    const key = await createUser('frank');
    const created = await a.fetch('/api/projects/', { method: 'POST', headers: admin, body: JSON.stringify({ name: 'Private', slug: 'private', web: 'https://example.org/', access_control: 100 }) });
    expect(created.status).toBe(201);
    const team = await a.fetch('/api/groups/', { method: 'POST', headers: admin, body: JSON.stringify({ name: 'Private readers', project_selection: 1, language_selection: 1 }) });
    expect(team.status).toBe(201);
    const teamId = ((await team.json()) as { id: number }).id;
    // Read twice: B's second scoped read takes frank from its token cache (scope-access.ts `id`).
    expect(await readOnB(key, '/api/projects/private/')).toBe(404);
    // The cache holds the caller, not what it may see: a project made public (no glossa_auth notification) is
    // visible to B's very next read, and hidden again as soon as it is private.
    const accessControl = (level: number): Promise<Response> =>
      a.fetch('/api/projects/private/', { method: 'PATCH', headers: admin, body: JSON.stringify({ access_control: level }) });
    expect((await accessControl(0)).status).toBe(200);
    expect((await b.fetch('/api/projects/private/', { headers: auth(key) })).status).toBe(200);
    expect((await accessControl(100)).status).toBe(200);
    expect((await b.fetch('/api/projects/private/', { headers: auth(key) })).status).toBe(404);
    await changeOnA(() => a.fetch('/api/users/frank/groups/', { method: 'POST', headers: admin, body: JSON.stringify({ group_id: teamId }) }), 200);
    expect((await b.fetch('/api/projects/private/', { headers: auth(key) })).status).toBe(200);
    expect(await readOnB(key, '/api/projects/private/')).toBe(200);
    await changeOnA(() => a.fetch('/api/users/frank/groups/', { method: 'DELETE', headers: admin, body: JSON.stringify({ group_id: teamId }) }), 200);
    expect((await b.fetch('/api/projects/private/', { headers: auth(key) })).status).toBe(404);
    // A revoked token is refused on a scoped read as on any other.
    await changeOnA(() => a.fetch('/api/users/frank/token/', { method: 'POST', headers: admin }), 201);
    expect((await b.fetch('/api/projects/private/', { headers: auth(key) })).status).toBe(401);
  });

  it('takes a permission away on the other process when the user leaves the team that granted it', async () => {
    const key = await createUser('dave');
    const role = await a.fetch('/api/roles/', { method: 'POST', headers: admin, body: JSON.stringify({ name: 'Create projects', permissions: ['project.add'] }) });
    expect(role.status).toBe(201);
    const roleId = ((await role.json()) as { id: number }).id;
    const team = await a.fetch('/api/groups/', { method: 'POST', headers: admin, body: JSON.stringify({ name: 'Creators', project_selection: 1, language_selection: 1 }) });
    expect(team.status).toBe(201);
    const teamId = ((await team.json()) as { id: number }).id;
    expect((await a.fetch(`/api/groups/${teamId}/roles/`, { method: 'POST', headers: admin, body: JSON.stringify({ role_id: roleId }) })).status).toBe(200);
    await changeOnA(() => a.fetch('/api/users/dave/groups/', { method: 'POST', headers: admin, body: JSON.stringify({ group_id: teamId }) }), 200);
    expect(await readOnB(key)).toBe(200);
    const project = (slug: string): RequestInit => ({ method: 'POST', headers: auth(key), body: JSON.stringify({ name: slug, slug, web: 'https://example.org/' }) });
    expect((await b.fetch('/api/projects/', project('first'))).status).toBe(201);
    await changeOnA(() => a.fetch('/api/users/dave/groups/', { method: 'DELETE', headers: admin, body: JSON.stringify({ group_id: teamId }) }), 200);
    expect((await b.fetch('/api/projects/', project('second'))).status).toBe(403);
  });
});
