import { execFileSync } from 'node:child_process';
import { access, chmod, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { DataSource } from 'typeorm';
import { createGitSandbox, type GitSandbox } from '../../src/vcs/testing/git-sandbox';
import { authHeader } from '../support/contract';
import { withClient } from '../support/database-server';
import { compileServer, eventually, freePort, ServerProcess } from '../support/server-process';
import { waitForTask } from '../support/tasks';
import { createTestApp, TEST_ADMIN_TOKEN, type TestApp } from '../support/test-app';
import { createTestDatabase, type TestDatabase } from '../support/test-database';
import { PATIENCE_MS } from '../support/wait';

// Issue 10 ("Security and reliability: close the holes an adversarial review found"):
// * item 10: a symlinked language directory let POST …/translations/ create directories outside the checkout
//   before the safety check, then answer 500 with the language half added. Now the path is checked first:
//   a clean 400, nothing created (outside or inside), no translation.
// * item 7: a git killed during a commit leaves `.git/index.lock`, and every later commit, push and reset
//   failed while the acknowledged strings stayed pending. Now stale git locks are removed, before each
//   operation and at start-up, when no live process works in the repository.

describe('POST …/translations/ through a symlinked language directory', () => {
  let app: TestApp;
  let db: DataSource;
  let sandbox: GitSandbox;
  let outside: string;
  const admin = authHeader(TEST_ADMIN_TOKEN);

  beforeAll(async () => {
    app = await createTestApp();
    db = app.glossa.app.get(DataSource);
    outside = await mkdtemp(path.join(os.tmpdir(), 'glossa-outside-'));
    sandbox = await createGitSandbox({
      'sources/app.json': '{"hello": "Hello"}\n',
      'locale/cs/app.json': '{"hello": "Ahoj"}\n',
    });
    // The repository (anyone who can push to it) commits symlinks: `locale/de` to a directory outside the
    // checkout that does not exist yet, and `linked`, the parent of another component's languages, to one that does.
    const seed = path.join(sandbox.root, 'seed');
    await symlink(path.join(outside, 'de-target'), path.join(seed, 'locale', 'de'));
    await symlink(outside, path.join(seed, 'linked'));
    await sandbox.git(seed, ['add', '--all']);
    await sandbox.git(seed, ['commit', '--quiet', '--message', 'Symlinks']);
    await sandbox.git(seed, ['push', '--quiet', 'origin', 'main']);

    await app.http().post('/api/projects/').set(...admin).send({ name: 'Links', slug: 'links', web: 'https://example.org/' }).expect(201);
    for (const slug of ['locale', 'linked']) {
      const created = await app
        .http()
        .post('/api/projects/links/components/')
        .set(...admin)
        .send({ name: slug, slug, repo: sandbox.upstream, filemask: 'locale/*/app.json', template: 'sources/app.json', file_format: 'json', new_lang: 'add' })
        .expect(201);
      expect((await waitForTask(app, created.body.task_url, admin)).result).toMatchObject({ result: true });
    }
    // `linked/*/app.json` matches no tracked file (git lists the symlink, not what is behind it), so the API
    // refuses it since creation is validated against the repository (issue 12); the component gets it
    // the way a repository changed after creation would give it.
    await db.query(`UPDATE components SET filemask = 'linked/*/app.json' WHERE slug = 'linked'`);
  });

  afterAll(async () => {
    await app?.close();
    await sandbox?.cleanup();
    if (outside) await rm(outside, { recursive: true, force: true });
  });

  it.each([
    ['locale', 'File path "locale/de/app.json" goes through a broken symlink.'],
    ['linked', 'File path "linked/de/app.json" points outside the repository.'],
  ])('answers 400 and creates nothing for component %s', async (component, reason) => {
    const response = await app.http().post(`/api/components/links/${component}/translations/`).set(...admin).send({ language_code: 'de' }).expect(400);
    expect(response.body).toEqual({ language_code: [`Could not add 'de'! ${reason}`] });
    // Nothing outside the checkout, nothing inside it, no translation, no "Added new language" (48).
    expect(await readdir(outside)).toEqual([]);
    const workingCopy = path.join(app.dataDir, 'vcs', 'links', component);
    expect(await sandbox.git(workingCopy, ['status', '--porcelain'])).toBe('');
    await app.http().get(`/api/translations/links/${component}/de/`).set(...admin).expect(404);
    const [{ added }] = await db.query(
      `SELECT count(*)::int AS added FROM changes ch JOIN components c ON c.id = ch.component_id WHERE c.slug = $1 AND ch.action = 48`,
      [component],
    );
    expect(added).toBe(0);
  });

  it('still adds a language whose directory is an ordinary one', async () => {
    await app.http().post('/api/components/links/locale/translations/').set(...admin).send({ language_code: 'sk' }).expect(201);
    const file = await readFile(path.join(app.dataDir, 'vcs', 'links', 'locale', 'locale', 'sk', 'app.json'), 'utf8');
    expect(JSON.parse(file)).toEqual({});
    expect(await readdir(outside)).toEqual([]);
  });
});

// Real server processes need a PostgreSQL server: the embedded database serves one process.
const realPostgres = Boolean(process.env.GLOSSA_TEST_SERVER_URL);

(realPostgres ? describe : describe.skip)('a git killed in the middle of a commit (stale git locks)', () => {
  const STRINGS = 150;
  const CS_FILE = 'translations/cs/app.json';
  let database: TestDatabase;
  let dataDir: string;
  let sandbox: GitSandbox;
  let control: string;
  let env: Record<string, string>;
  let server: ServerProcess;
  let workingCopy: string;
  let round = 0;
  const servers: ServerProcess[] = [];
  const admin = { Authorization: `Token ${TEST_ADMIN_TOKEN}`, 'Content-Type': 'application/json' };
  const git = (cwd: string, ...args: string[]) => sandbox.git(cwd, args);
  const pauseFlag = () => path.join(control, 'pause');
  const pidFile = () => path.join(control, 'paused.pid');
  const gitFile = (name: string) => path.join(workingCopy, '.git', name);
  const exists = (file: string) => access(file).then(() => true, () => false);
  /** The lock files git holds where each pause stops it: `git add` reading the index, `git commit` updating HEAD. */
  const LOCKS = { add: ['index.lock'], commit: ['HEAD.lock', 'refs/heads/main.lock'] } as const;

  async function startServer(): Promise<ServerProcess> {
    const started = new ServerProcess(await freePort(), env);
    servers.push(started);
    await started.start();
    return started;
  }

  async function json<T = Record<string, unknown>>(pathname: string, init: RequestInit = {}, expected = 200): Promise<T> {
    const response = await server.fetch(pathname, { headers: admin, ...init });
    const text = await response.text();
    if (response.status !== expected) throw new Error(`${init.method ?? 'GET'} ${pathname}: ${response.status} ${text}`);
    return JSON.parse(text) as T;
  }

  const operate = (operation: string) => json('/api/components/sec/app/repository/', { method: 'POST', body: JSON.stringify({ operation }) });
  const sql = <T = Record<string, unknown>>(query: string, params: unknown[] = []): Promise<T[]> =>
    withClient(database.url, async (client) => (await client.query(query, params)).rows as T[]);
  const pendingCount = async () => (await sql<{ n: number }>('SELECT count(*)::int AS n FROM units WHERE pending'))[0].n;
  const locksPresent = async (mode: keyof typeof LOCKS) => Promise.all(LOCKS[mode].map((name) => exists(gitFile(name))));

  /** Acknowledged edits: every Czech string gets a new text for this round. */
  async function translateAll(): Promise<Record<string, string>> {
    round += 1;
    const units = await sql<{ id: string; context: string }>(
      `SELECT u.id, u.context FROM units u JOIN translations t ON t.id = u.translation_id WHERE t.language_code = 'cs' ORDER BY u.id`,
    );
    expect(units).toHaveLength(STRINGS);
    const expected: Record<string, string> = {};
    for (const unit of units) {
      const target = `Překlad ${unit.context} (kolo ${round})`;
      expected[unit.context] = target;
      const response = await server.fetch(`/api/units/${unit.id}/`, { method: 'PATCH', headers: admin, body: JSON.stringify({ target: [target], state: 20 }) });
      expect(response.status).toBe(200);
      await response.arrayBuffer();
    }
    expect(await pendingCount()).toBe(STRINGS);
    return expected;
  }

  /**
   * Starts a commit through the API and SIGKILLs the real git it runs while that git holds its lock files
   * (paused there by the test's double, see beforeAll), as kill -9 would; with `alsoKillServer` the server
   * goes too. Answers the API request's settled answer (an Error when the server died).
   */
  async function commitAndKillGit(mode: keyof typeof LOCKS, alsoKillServer = false): Promise<unknown> {
    await writeFile(pauseFlag(), mode);
    const answer = operate('commit').then(
      (body) => body,
      (error: Error) => error,
    );
    const [gitPid, pausePid] = (await eventually(async () => (await readFile(pidFile(), 'utf8')).trim() || undefined, PATIENCE_MS, 'git paused')).split(' ').map(Number);
    expect(await locksPresent(mode)).toEqual(LOCKS[mode].map(() => true));
    if (alsoKillServer) expect(await server.kill()).toBe('SIGKILL');
    process.kill(gitPid, 'SIGKILL');
    process.kill(pausePid, 'SIGKILL');
    await rm(pauseFlag());
    await rm(pidFile());
    const settled = await answer;
    // Killed, git released nothing: its locks stay behind.
    expect(await locksPresent(mode)).toEqual(LOCKS[mode].map(() => true));
    return settled;
  }

  async function upstreamCs(): Promise<Record<string, string>> {
    return JSON.parse(await git(sandbox.root, '--git-dir', sandbox.upstream, 'show', `main:${CS_FILE}`)) as Record<string, string>;
  }

  beforeAll(async () => {
    await compileServer();
    database = await createTestDatabase();
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'glossa-stale-lock-'));
    control = await mkdtemp(path.join(os.tmpdir(), 'glossa-git-pause-'));
    const source = Object.fromEntries(Array.from({ length: STRINGS }, (_, i) => [`key${i}`, `Text ${i}`]));
    sandbox = await createGitSandbox({ 'sources/app.json': `${JSON.stringify(source, null, 2)}\n`, [CS_FILE]: '{}\n' });
    workingCopy = path.join(dataDir, 'vcs', 'sec', 'app');

    // A test double on the server's PATH in front of the real git. While the pause file names a subcommand,
    // that git command of the server gets one more `-c` (after Glossa's own, so it wins) that makes the real
    // git run a script of the test while it holds its lock files: for `add`, core.fsmonitor (run while
    // reading the index, index.lock held); for `commit`, a reference-transaction hook ("prepared": HEAD.lock
    // and the branch's lock held; --no-verify does not skip it). The script reports git's pid and sleeps until
    // the test kills both. Otherwise, and for every other command, the real git runs untouched.
    const realGit = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
    const bin = path.join(control, 'bin');
    const hooks = path.join(control, 'hooks');
    const pause = path.join(control, 'pause.sh');
    await mkdir(bin);
    await mkdir(hooks);
    await writeFile(
      path.join(bin, 'git'),
      `#!/bin/sh
mode=$(cat '${pauseFlag()}' 2>/dev/null)
if [ -n "$mode" ]; then
  case "$mode" in
    add) setting='core.fsmonitor=${pause}' ;;
    commit) setting='core.hooksPath=${hooks}' ;;
  esac
  count=$#
  found=
  value=
  for arg do
    if [ -z "$found" ]; then
      if [ -n "$value" ]; then value=
      elif [ "$arg" = -c ]; then value=1
      else
        found=1
        if [ "$arg" = "$mode" ]; then set -- "$@" -c "$setting"; fi
      fi
    fi
    set -- "$@" "$arg"
  done
  shift "$count"
fi
exec '${realGit}' "$@"
`,
    );
    const script = `#!/bin/sh
case "$0" in *reference-transaction) [ "$1" = prepared ] || exit 0 ;; esac
echo "$PPID $$" > '${pidFile()}.tmp'
mv '${pidFile()}.tmp' '${pidFile()}'
exec sleep 600
`;
    await writeFile(pause, script);
    await writeFile(path.join(hooks, 'reference-transaction'), script);
    for (const file of [path.join(bin, 'git'), pause, path.join(hooks, 'reference-transaction')]) await chmod(file, 0o755);

    env = {
      PATH: `${bin}:${process.env.PATH ?? ''}`,
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
    server = await startServer();
    await json('/api/projects/', { method: 'POST', body: JSON.stringify({ name: 'Sec', slug: 'sec', web: 'https://example.org/' }) }, 201);
    const created = await json<{ task_url: string }>(
      '/api/projects/sec/components/',
      {
        method: 'POST',
        body: JSON.stringify({
          name: 'App', slug: 'app', vcs: 'git', repo: sandbox.upstream, push: sandbox.upstream, push_on_commit: false,
          commit_pending_age: 24, filemask: 'translations/*/app.json', template: 'sources/app.json', file_format: 'json',
        }),
      },
      201,
    );
    const task = await eventually(
      async () => {
        const body = await json<{ completed: boolean; result: unknown }>(new URL(created.task_url).pathname);
        return body.completed ? body : undefined;
      },
      PATIENCE_MS,
      'import task completed',
    );
    expect(task.result).toMatchObject({ result: true });
  }, 300_000);

  afterAll(async () => {
    for (const started of servers) await started.kill();
    await database?.drop();
    await sandbox?.cleanup();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
    if (control) await rm(control, { recursive: true, force: true });
  });

  it('the same process removes index.lock on the next commit and commits and pushes every pending string', async () => {
    const expected = await translateAll();
    expect(await commitAndKillGit('add')).toEqual({ result: false, detail: expect.stringMatching(/^git add /) });
    // The attack's state: git itself refuses to work in the checkout, and every string is still pending.
    await expect(git(workingCopy, 'add', '--', CS_FILE)).rejects.toThrow(/index\.lock': File exists/);
    expect(await pendingCount()).toBe(STRINGS);

    expect(await operate('commit')).toEqual({ result: true });
    expect(await locksPresent('add')).toEqual([false]);
    expect(await pendingCount()).toBe(0);
    expect(await operate('push')).toEqual({ result: true });
    expect(await upstreamCs()).toEqual(expected);
    expect(server.output).toContain('Removed stale git lock files left by a killed git in vcs/sec/app: .git/index.lock');
  }, 300_000);

  it('a new process removes the locks at start-up, then commits and pushes what the killed one acknowledged', async () => {
    const expected = await translateAll();
    await commitAndKillGit('add', true);

    server = await startServer();
    // Removed at start-up, before any operation asked for it.
    expect(await locksPresent('add')).toEqual([false]);
    expect(server.output).toContain('Removed stale git lock files left by a killed git in vcs/sec/app: .git/index.lock');
    expect(await json('/api/components/sec/app/repository/')).toMatchObject({ needs_commit: true, needs_push: false });
    expect(await pendingCount()).toBe(STRINGS);
    expect(await operate('commit')).toEqual({ result: true });
    expect(await operate('push')).toEqual({ result: true });
    expect(await upstreamCs()).toEqual(expected);
    expect(await pendingCount()).toBe(0);
  }, 300_000);

  it('a commit killed while updating HEAD: the next commit and push deliver the strings', async () => {
    const expected = await translateAll();
    expect(await commitAndKillGit('commit')).toEqual({ result: false, detail: expect.stringMatching(/^git commit /) });
    await expect(git(workingCopy, 'update-ref', 'refs/heads/main', 'HEAD')).rejects.toThrow(/main\.lock': File exists/);

    expect(await operate('push')).toEqual({ result: true });
    expect(await locksPresent('commit')).toEqual([false, false]);
    expect(await upstreamCs()).toEqual(expected);
    expect(await pendingCount()).toBe(0);
    expect(server.output).toContain('Removed stale git lock files left by a killed git in vcs/sec/app: .git/HEAD.lock, .git/refs/heads/main.lock');
  }, 300_000);

  it('cleanup and reset succeed with stale locks present', async () => {
    await translateAll();
    await writeFile(path.join(workingCopy, 'stray.txt'), 'untracked');
    await commitAndKillGit('commit');
    expect(await operate('cleanup')).toEqual({ result: true });
    expect(await locksPresent('commit')).toEqual([false, false]);
    expect(await exists(path.join(workingCopy, 'stray.txt'))).toBe(false);

    await commitAndKillGit('add');
    const upstreamHead = (await git(sandbox.root, '--git-dir', sandbox.upstream, 'rev-parse', 'main')).trim();
    expect(await operate('reset')).toEqual({ result: true });
    expect(await locksPresent('add')).toEqual([false]);
    // Back to upstream: nothing local left, nothing pending (Weblate's reset discards pending strings).
    expect((await git(workingCopy, 'rev-parse', 'HEAD')).trim()).toBe(upstreamHead);
    expect(await git(workingCopy, 'status', '--porcelain')).toBe('');
    expect(await pendingCount()).toBe(0);
    expect(await json('/api/components/sec/app/repository/')).toMatchObject({ needs_commit: false, needs_push: false, needs_merge: false });
  }, 300_000);
});
