import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { DataSource } from 'typeorm';
import { createGitSandbox, type GitSandbox } from '../../src/vcs/testing/git-sandbox';
import { authHeader } from '../support/contract';
import { withClient } from '../support/database-server';
import { compileServer, eventually, freePort, ServerProcess } from '../support/server-process';
import { unitIdByContext, waitForTask as waitForSomeTask } from '../support/tasks';
import { createTestApp, TEST_ADMIN_TOKEN, type TestApp } from '../support/test-app';
import { createTestDatabase, type TestDatabase } from '../support/test-database';
import { PATIENCE_MS } from '../support/wait';

// Issue 3 ("Repository round-trip"): "A failed push or merge is reported, keeps the pending changes, and is
// recorded as a change. No translation that the API acknowledged is lost if the process is killed between the
// database write and the commit." (weblate-api.md §10.5: push failure is {"result": false} and action 28;
// languages-formats-hashing.md §5.2 `pending`.)
//
// 1. A push fails, once because upstream moved on (non-fast-forward), once because the push URL is not a
//    repository: the answer is {"result": false, "detail"}, 28 "Failed push on repository" is recorded, the
//    repository still needs a push and the local commit holding the translation survives; once the cause is
//    fixed, a push delivers it to upstream.
// 2. A real server process acknowledges edits (200) and is SIGKILLed before any commit; a new process on the
//    same database and DATA_DIR still has them pending and commits and pushes them.

const TEMPLATE = '{"app": {"title": "Glossa", "greeting": "Hello!"}, "cart": {"items": "Items in cart", "empty": "The cart is empty"}}\n';
const CS_FILE = 'translations/cs/app.json';
const FILES = {
  'sources/app.json': TEMPLATE,
  [CS_FILE]: '{"app": {"title": "Glossa"}}\n',
};

/** The component definition, pushing to the sandbox's bare repository only when asked (push_on_commit off). */
function componentBody(upstream: string): Record<string, unknown> {
  return {
    name: 'App',
    slug: 'app',
    vcs: 'git',
    repo: upstream,
    push: upstream,
    push_on_commit: false,
    // Weblate's default: nothing pending is committed by the periodic job within the test's lifetime.
    commit_pending_age: 24,
    filemask: 'translations/*/app.json',
    template: 'sources/app.json',
    file_format: 'json-nested',
  };
}

describe('a failed push or merge', () => {
  let app: TestApp;
  let db: DataSource;
  let sandbox: GitSandbox;
  let workingCopy: string;
  const admin = authHeader(TEST_ADMIN_TOKEN);
  const git = (cwd: string, ...args: string[]) => sandbox.git(cwd, args);
  const upstreamFile = (file: string) => git(sandbox.root, '--git-dir', sandbox.upstream, 'show', `main:${file}`);
  const localFile = (file: string) => git(workingCopy, 'show', `HEAD:${file}`);

  async function waitForTask(taskUrl: string): Promise<void> {
    expect((await waitForSomeTask(app, taskUrl, admin)).result).toMatchObject({ result: true });
  }

  const unitId = (language: string, context: string): Promise<string> => unitIdByContext(db, language, context);

  const translate = async (context: string, target: string) =>
    app.http().patch(`/api/units/${await unitId('cs', context)}/`).set(...admin).send({ target: [target], state: 20 }).expect(200);
  const operate = async (operation: string) =>
    (await app.http().post('/api/components/durable/app/repository/').set(...admin).send({ operation }).expect(200)).body;
  const status = async () => (await app.http().get('/api/components/durable/app/repository/').set(...admin).expect(200)).body;
  const changes = async (action: number) =>
    (await app.http().get(`/api/components/durable/app/changes/?action=${action}&page_size=100`).set(...admin).expect(200)).body;

  /** Changes a setting that re-imports the component and waits for the import. */
  async function reconfigure(values: Record<string, unknown>): Promise<void> {
    const response = await app.http().patch('/api/components/durable/app/').set(...admin).send(values).expect(200);
    expect(response.body.task_url).toEqual(expect.any(String));
    await waitForTask(response.body.task_url);
  }

  beforeAll(async () => {
    app = await createTestApp();
    db = app.glossa.app.get(DataSource);
    sandbox = await createGitSandbox(FILES);
    workingCopy = path.join(app.dataDir, 'vcs', 'durable', 'app');
    await app.http().post('/api/projects/').set(...admin).send({ name: 'Durable', slug: 'durable', web: 'https://example.org/' }).expect(201);
    const created = await app.http().post('/api/projects/durable/components/').set(...admin).send(componentBody(sandbox.upstream)).expect(201);
    await waitForTask(created.body.task_url);
  });

  afterAll(async () => {
    await app?.close();
    await sandbox?.cleanup();
  });

  it('is reported, recorded as 28 and keeps the commit when upstream moved on; a push after pull delivers it', async () => {
    await translate('app.greeting', 'Ahoj!');
    expect(await operate('commit')).toEqual({ result: true });
    expect(await status()).toMatchObject({ needs_commit: false, needs_push: true });

    // Upstream gains a commit Glossa has not fetched: the push is not a fast-forward and is rejected.
    await sandbox.commitUpstream({ 'README.md': 'Upstream readme\n' }, 'Upstream change');
    // One more edit, still pending: push commits it first.
    await translate('cart.items', 'Položky v košíku');

    const pushed = await operate('push');
    expect(pushed).toEqual({ result: false, detail: expect.stringMatching(/^git push exited with code \d+: [\s\S]*rejected/) });

    const failed = await changes(28);
    expect(failed.count).toBe(1);
    expect(failed.results[0]).toMatchObject({
      action: 28,
      action_name: 'Failed push on repository',
      component: expect.stringContaining('/api/components/durable/app/'),
    });
    expect((await changes(18)).count).toBe(0);

    // The changes wait in the working copy's commits: the repository still needs a push, nothing is pending.
    expect(await status()).toMatchObject({ needs_commit: false, needs_push: true });
    const [{ pending }] = await db.query('SELECT count(*)::int AS pending FROM units WHERE pending');
    expect(pending).toBe(0);
    expect(JSON.parse(await localFile(CS_FILE))).toMatchObject({ app: { greeting: 'Ahoj!' }, cart: { items: 'Položky v košíku' } });
    expect(await upstreamFile(CS_FILE)).not.toContain('Ahoj!');
    expect((await git(workingCopy, 'log', '--format=%s', 'HEAD')).split('\n').filter((s) => s.startsWith('Translated using Weblate (Czech)'))).toHaveLength(2);
    const unit = await app.http().get(`/api/units/${await unitId('cs', 'app.greeting')}/`).set(...admin).expect(200);
    expect(unit.body.target).toEqual(['Ahoj!']);

    // The cause fixed (upstream merged in), the same commits are pushed.
    expect(await operate('pull')).toEqual({ result: true });
    expect(await operate('push')).toEqual({ result: true });
    expect((await changes(18)).count).toBe(1);
    expect((await changes(28)).count).toBe(1);
    expect(await status()).toMatchObject({ needs_commit: false, needs_push: false });

    await git(sandbox.root, 'clone', '--quiet', sandbox.upstream, sandbox.clonePath);
    const cloned = JSON.parse(await readFile(path.join(sandbox.clonePath, CS_FILE), 'utf8'));
    expect(cloned).toMatchObject({ app: { greeting: 'Ahoj!' }, cart: { items: 'Položky v košíku' } });
    expect(await readFile(path.join(sandbox.clonePath, 'README.md'), 'utf8')).toBe('Upstream readme\n');
    await rm(sandbox.clonePath, { recursive: true, force: true });
  });

  it('is reported, recorded as 28 and keeps the commit when the push URL is not a repository', async () => {
    const notARepository = path.join(sandbox.root, 'not-a-repository');
    await mkdir(notARepository, { recursive: true });
    await writeFile(path.join(notARepository, 'README'), 'just a directory\n');
    await reconfigure({ push: notARepository });

    await translate('cart.empty', 'Košík je prázdný');
    const pushed = await operate('push');
    expect(pushed).toEqual({ result: false, detail: expect.stringMatching(/^git push exited with code \d+: [\s\S]*not appear to be a git repository/) });
    const failed = await changes(28);
    expect(failed.count).toBe(2);
    expect(failed.results.map((change: { target: string }) => change.target)).toContain(pushed.detail);
    expect(failed.results.map((change: { action: number }) => change.action)).toEqual([28, 28]);
    expect((await changes(18)).count).toBe(1);

    expect(await status()).toMatchObject({ needs_commit: false, needs_push: true });
    expect(JSON.parse(await localFile(CS_FILE))).toMatchObject({ cart: { empty: 'Košík je prázdný' } });
    expect(await upstreamFile(CS_FILE)).not.toContain('Košík je prázdný');

    // Back to the real repository: the kept commit goes out.
    await reconfigure({ push: sandbox.upstream });
    expect(await status()).toMatchObject({ needs_commit: false, needs_push: true });
    expect(await operate('push')).toEqual({ result: true });
    expect((await changes(18)).count).toBe(2);
    expect(await status()).toMatchObject({ needs_commit: false, needs_push: false });
    expect(JSON.parse(await upstreamFile(CS_FILE))).toMatchObject({
      app: { greeting: 'Ahoj!' },
      cart: { items: 'Položky v košíku', empty: 'Košík je prázdný' },
    });
    const unit = await app.http().get(`/api/units/${await unitId('cs', 'cart.empty')}/`).set(...admin).expect(200);
    expect(unit.body).toMatchObject({ target: ['Košík je prázdný'], pending: false });
  });

  it('a failed rebase (merge_style rebase, the default) is reported, recorded as 23 and keeps the local commits and the translations', async () => {
    await translate('app.greeting', 'Nazdar!');
    expect(await operate('commit')).toEqual({ result: true });
    // Upstream changes the same line.
    await git(sandbox.root, 'clone', '--quiet', sandbox.upstream, sandbox.clonePath);
    const upstreamCs = path.join(sandbox.clonePath, CS_FILE);
    await writeFile(upstreamCs, (await readFile(upstreamCs, 'utf8')).replace('Ahoj!', 'Dobrý den!'));
    await git(sandbox.clonePath, 'commit', '--quiet', '-am', 'Upstream greeting');
    await git(sandbox.clonePath, 'push', '--quiet', 'origin', 'HEAD:main');
    // Still pending: pull commits it first.
    await translate('cart.items', 'Zboží v košíku');

    const pulled = await operate('pull');
    expect(pulled).toEqual({ result: false, detail: expect.any(String) });
    const failed = await changes(23);
    expect(failed.count).toBe(1);
    expect(failed.results[0]).toMatchObject({ action: 23, action_name: 'Failed rebase on repository' });

    expect(await status()).toMatchObject({ needs_commit: false, needs_merge: true, needs_push: true, merge_failure: expect.any(String) });
    // The rebase was aborted: the working copy is clean and HEAD holds both local edits.
    expect(await git(workingCopy, 'status', '--porcelain')).toBe('');
    expect(JSON.parse(await localFile(CS_FILE))).toMatchObject({ app: { greeting: 'Nazdar!' }, cart: { items: 'Zboží v košíku' } });
    for (const [context, target] of [
      ['app.greeting', 'Nazdar!'],
      ['cart.items', 'Zboží v košíku'],
    ]) {
      const unit = await app.http().get(`/api/units/${await unitId('cs', context)}/`).set(...admin).expect(200);
      expect(unit.body.target).toEqual([target]);
    }
    await rm(sandbox.clonePath, { recursive: true, force: true });
  });
});

// Real server processes need a PostgreSQL server: the embedded database serves one process (as in
// test/e2e/multi-process.e2e-spec.ts).
const realPostgres = Boolean(process.env.GLOSSA_TEST_SERVER_URL);

(realPostgres ? describe : describe.skip)('a process killed between the database write and the commit', () => {
  let database: TestDatabase;
  let dataDir: string;
  let sandbox: GitSandbox;
  let env: Record<string, string>;
  const servers: ServerProcess[] = [];
  const admin = { Authorization: `Token ${TEST_ADMIN_TOKEN}`, 'Content-Type': 'application/json' };
  const git = (cwd: string, ...args: string[]) => sandbox.git(cwd, args);

  async function startServer(): Promise<ServerProcess> {
    const server = new ServerProcess(await freePort(), env);
    servers.push(server);
    await server.start();
    return server;
  }

  async function json<T = Record<string, unknown>>(server: ServerProcess, pathname: string, init: RequestInit = {}, expected = 200): Promise<T> {
    const response = await server.fetch(pathname, { headers: admin, ...init });
    const text = await response.text();
    if (response.status !== expected) throw new Error(`${init.method ?? 'GET'} ${pathname}: ${response.status} ${text}`);
    return (text === '' ? undefined : JSON.parse(text)) as T;
  }

  const sql = <T = Record<string, unknown>>(query: string, params: unknown[] = []): Promise<T[]> =>
    withClient(database.url, async (client) => (await client.query(query, params)).rows as T[]);

  const unitIdOf = async (context: string): Promise<string> =>
    (
      await sql<{ id: string }>(
        `SELECT u.id FROM units u JOIN translations t ON t.id = u.translation_id JOIN languages l ON l.id = t.language_id
          WHERE l.code = 'cs' AND u.context = $1`,
        [context],
      )
    )[0].id;

  beforeAll(async () => {
    // The processes run the compiled server, as in the container: compile the current sources first.
    await compileServer();
    database = await createTestDatabase();
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'glossa-durability-'));
    sandbox = await createGitSandbox(FILES);
    env = {
      DATABASE_URL: database.url,
      DATA_DIR: dataDir,
      DEMO: 'false',
      ADMIN_TOKEN: TEST_ADMIN_TOKEN,
      ALLOW_LOCAL_REPOSITORIES: 'true',
      SITE_URL: 'http://glossa.test',
      JOB_POLLING_SECONDS: '0.5',
      RATE_LIMIT_ANON: '1000000/day',
      RATE_LIMIT_USER: '1000000/hour',
      LOG_LEVEL: 'log',
    };
  }, 300_000);

  afterAll(async () => {
    for (const server of servers) await server.kill();
    await database?.drop();
    await sandbox?.cleanup();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('keeps acknowledged translations pending across SIGKILL; the next process commits and pushes them', async () => {
    const first = await startServer();
    await json(first, '/api/projects/', { method: 'POST', body: JSON.stringify({ name: 'Durable', slug: 'durable', web: 'https://example.org/' }) }, 201);
    const created = await json<{ task_url: string }>(
      first,
      '/api/projects/durable/components/',
      { method: 'POST', body: JSON.stringify(componentBody(sandbox.upstream)) },
      201,
    );
    const task = await eventually(
      async () => {
        const body = await json<{ completed: boolean; result: unknown }>(first, new URL(created.task_url).pathname);
        return body.completed ? body : undefined;
      },
      PATIENCE_MS,
      'import task completed',
    );
    expect(task.result).toMatchObject({ result: true });

    const edits: Record<string, string> = { 'app.greeting': 'Ahoj!', 'cart.items': 'Položky v košíku', 'cart.empty': 'Košík je prázdný' };
    const ids: Record<string, string> = {};
    for (const context of Object.keys(edits)) ids[context] = await unitIdOf(context);
    for (const [context, target] of Object.entries(edits)) {
      const response = await first.fetch(`/api/units/${ids[context]}/`, { method: 'PATCH', headers: admin, body: JSON.stringify({ target: [target], state: 20 }) });
      expect(response.status).toBe(200);
      await response.arrayBuffer();
    }
    // Acknowledged: the process dies at once, without its shutdown hooks.
    expect(await first.kill()).toBe('SIGKILL');

    // Nothing was committed before the kill (the test would prove nothing otherwise): the edits exist only in
    // the database, marked pending.
    const workingCopy = path.join(dataDir, 'vcs', 'durable', 'app');
    const committedBefore = await git(workingCopy, 'show', `HEAD:${CS_FILE}`);
    for (const target of Object.values(edits)) expect(committedBefore).not.toContain(target);
    expect(await readFile(path.join(workingCopy, CS_FILE), 'utf8')).toBe(FILES[CS_FILE]);
    expect((await git(workingCopy, 'log', '--format=%s', 'HEAD')).trim()).toBe('Initial commit');

    const second = await startServer();
    for (const [context, target] of Object.entries(edits)) {
      const unit = await json<{ target: string[]; pending: boolean; state: number }>(second, `/api/units/${ids[context]}/`);
      expect(unit).toMatchObject({ target: [target], pending: true, state: 20 });
    }
    expect(await json(second, '/api/components/durable/app/repository/')).toMatchObject({ needs_commit: true, needs_push: false });

    expect(await json(second, '/api/components/durable/app/repository/', { method: 'POST', body: JSON.stringify({ operation: 'commit' }) })).toEqual({ result: true });
    expect(JSON.parse(await git(workingCopy, 'show', `HEAD:${CS_FILE}`))).toEqual({
      app: { title: 'Glossa', greeting: 'Ahoj!' },
      cart: { items: 'Položky v košíku', empty: 'Košík je prázdný' },
    });
    for (const context of Object.keys(edits)) {
      expect(await json(second, `/api/units/${ids[context]}/`)).toMatchObject({ target: [edits[context]], pending: false });
    }
    expect(await json(second, '/api/components/durable/app/repository/', { method: 'POST', body: JSON.stringify({ operation: 'push' }) })).toEqual({ result: true });

    await git(sandbox.root, 'clone', '--quiet', sandbox.upstream, sandbox.clonePath);
    expect(JSON.parse(await readFile(path.join(sandbox.clonePath, CS_FILE), 'utf8'))).toEqual({
      app: { title: 'Glossa', greeting: 'Ahoj!' },
      cart: { items: 'Položky v košíku', empty: 'Košík je prázdný' },
    });
    expect((await git(sandbox.clonePath, 'log', '-1', '--format=%s', 'origin/main')).trim()).toBe('Translated using Weblate (Czech)');
    const committed = await json<{ count: number }>(second, '/api/components/durable/app/changes/?action=17');
    expect(committed.count).toBe(1);
    expect(await second.stop()).toBe(0);
  }, 300_000);
});
