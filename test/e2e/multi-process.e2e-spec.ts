import { mkdtemp, rm } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { createGitSandbox, type GitSandbox } from '../../src/vcs/testing/git-sandbox';
import { AuthChangeWatcher } from '../support/auth-changes';
import { compileServer, eventually, freePort, ServerProcess } from '../support/server-process';
import { createTestDatabase, type TestDatabase } from '../support/test-database';
import { TEST_ADMIN_TOKEN } from '../support/test-app';
import { PATIENCE_MS } from '../support/wait';

// Two real server processes (`node dist/main.js`, as the container runs it) on one PostgreSQL database:
// background work and rate limits are shared through the database, not held per process (issue 4).
// Needs a PostgreSQL server: the embedded database serves one process.
const realPostgres = Boolean(process.env.GLOSSA_TEST_SERVER_URL);

(realPostgres ? describe : describe.skip)('two Glossa processes on one database', () => {
  let database: TestDatabase;
  let dataDir: string;
  let sandbox: GitSandbox;
  let a: ServerProcess;
  let b: ServerProcess;
  const admin = { Authorization: `Token ${TEST_ADMIN_TOKEN}`, 'Content-Type': 'application/json' };

  beforeAll(async () => {
    // The processes run the compiled server, as in the container: compile the current sources first.
    await compileServer();
    database = await createTestDatabase();
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'glossa-multi-'));
    const files: Record<string, string> = { 'sources/app.json': `${JSON.stringify(Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`key${i}`, `Text ${i}`])))}\n` };
    for (const code of ['cs', 'de', 'fr', 'it', 'pl']) files[`translations/${code}/app.json`] = '{"key1": "x"}\n';
    sandbox = await createGitSandbox(files);
    const env = {
      DATABASE_URL: database.url,
      DATA_DIR: dataDir,
      DEMO: 'false',
      ADMIN_TOKEN: TEST_ADMIN_TOKEN,
      ALLOW_LOCAL_REPOSITORIES: 'true',
      SITE_URL: 'http://glossa.test',
      JOB_POLLING_SECONDS: '0.5',
      RATE_LIMIT_ANON: '5/hour',
      LOG_LEVEL: 'log',
    };
    a = new ServerProcess(await freePort(), env);
    b = new ServerProcess(await freePort(), env);
    await a.start();
    await b.start();
  });

  afterAll(async () => {
    await a?.stop();
    await b?.stop();
    await database?.drop();
    await sandbox?.cleanup();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('counts an anonymous caller across both processes', async () => {
    const remaining: string[] = [];
    for (const server of [a, b, a, b, a]) {
      const response = await server.fetch('/api/');
      expect(response.status).toBe(200);
      remaining.push(response.headers.get('x-ratelimit-remaining')!);
    }
    expect(remaining).toEqual(['4', '3', '2', '1', '0']);
    const throttled = await b.fetch('/api/projects/');
    expect(throttled.status).toBe(429);
    expect(Number(throttled.headers.get('retry-after'))).toBeGreaterThan(0);
    // Authenticated callers have their own (user) budget.
    expect((await a.fetch('/api/projects/', { headers: admin })).status).toBe(200);
  });

  it('finishes an import started through one process while the other is stopped and restarted', async () => {
    const project = await a.fetch('/api/projects/', {
      method: 'POST',
      headers: admin,
      body: JSON.stringify({ name: 'Multi', slug: 'multi', web: 'https://example.org/' }),
    });
    expect(project.status).toBe(201);
    const created = await a.fetch('/api/projects/multi/components/', {
      method: 'POST',
      headers: admin,
      body: JSON.stringify({
        name: 'App',
        slug: 'app',
        vcs: 'git',
        repo: sandbox.upstream,
        filemask: 'translations/*/app.json',
        template: 'sources/app.json',
        file_format: 'json',
      }),
    });
    expect(created.status).toBe(201);
    const taskUrl = new URL(((await created.json()) as { task_url: string }).task_url);

    expect(await b.stop()).toBe(0);
    await b.start();

    let last: unknown;
    const task = await eventually(
      async () => {
        const body = (await (await b.fetch(taskUrl.pathname, { headers: admin })).json()) as { completed: boolean; result: unknown };
        last = body;
        return body.completed ? body : undefined;
      },
      PATIENCE_MS,
      'import task completed',
    ).catch((error: Error) => {
      // Say where the task stood and what both processes logged: a timeout alone says nothing.
      throw new Error(`${error.message}\ntask: ${JSON.stringify(last)}\n--- a:\n${a.output.slice(-6000)}\n--- b:\n${b.output.slice(-6000)}`);
    });
    expect(task.result).toEqual({ result: true, translations: 6, units: 1800 });
    const translations = (await (await b.fetch('/api/components/multi/app/translations/', { headers: admin })).json()) as { count: number };
    expect(translations.count).toBe(6);
  });

  it('stops gracefully on SIGTERM with exit code 0 and JSON logs', async () => {
    expect(await a.stop()).toBe(0);
    const lines = a.output.split('\n').filter(Boolean);
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();
    expect(lines.some((line) => (JSON.parse(line) as { msg?: string }).msg === 'SIGTERM received, shutting down')).toBe(true);
  });
});

// A separate pair: the pair above spends its anonymous budget on purpose, and a refused key is counted as an
// anonymous caller (Weblate throttles before it authenticates), so 401s need a budget of their own.
(realPostgres ? describe : describe.skip)('two Glossa processes: credentials changed on one are in force on the other', () => {
  let database: TestDatabase;
  let dataDir: string;
  let a: ServerProcess;
  let b: ServerProcess;
  let watcher: AuthChangeWatcher;
  const admin = { Authorization: `Token ${TEST_ADMIN_TOKEN}`, 'Content-Type': 'application/json' };

  beforeAll(async () => {
    await compileServer();
    database = await createTestDatabase();
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'glossa-multi-'));
    const env = { DATABASE_URL: database.url, DATA_DIR: dataDir, DEMO: 'false', ADMIN_TOKEN: TEST_ADMIN_TOKEN, SITE_URL: 'http://glossa.test' };
    a = new ServerProcess(await freePort(), env);
    b = new ServerProcess(await freePort(), env);
    await a.start();
    await b.start();
    watcher = await AuthChangeWatcher.start(database.url);
  });

  afterAll(async () => {
    await watcher?.close();
    await a?.stop();
    await b?.stop();
    await database?.drop();
    await rm(dataDir, { recursive: true, force: true });
  });

  // Issue 15 item 2: whatever a process keeps about tokens, a key replaced, a user deactivated or a team
  // membership removed through one process is in force on the other process's very next request once that
  // process heard the change's notification (auth-changes.ts: PostgreSQL delivers it to each on its own time).
  it('refuses a replaced key, and a deactivated user, on the other process at its next request', async () => {
    const created = await a.fetch('/api/users/', { method: 'POST', headers: admin, body: JSON.stringify({ username: 'rotating', full_name: 'Rotating', email: 'rotating@example.org' }) });
    expect(created.status).toBe(201);
    const issue = async (server: ServerProcess): Promise<string> => {
      const response = await server.fetch('/api/users/rotating/token/', { method: 'POST', headers: admin });
      expect(response.status).toBe(201);
      return ((await response.json()) as { key: string }).key;
    };
    const as = (key: string) => ({ Authorization: `Token ${key}` });
    const first = await issue(a);
    expect((await b.fetch('/api/users/rotating/', { headers: as(first) })).status).toBe(200);
    expect((await a.fetch('/api/users/rotating/', { headers: as(first) })).status).toBe(200);

    const second = await watcher.change(() => issue(a), [b]);
    expect((await b.fetch('/api/projects/', { headers: as(first) })).status).toBe(401);
    expect((await b.fetch('/api/projects/', { headers: as(second) })).status).toBe(200);

    await watcher.change(async () => {
      const deactivated = await b.fetch('/api/users/rotating/', { method: 'PATCH', headers: admin, body: JSON.stringify({ is_active: false }) });
      expect(deactivated.status).toBe(200);
    }, [a]);
    expect((await a.fetch('/api/projects/', { headers: as(second) })).status).toBe(401);
  });

});
