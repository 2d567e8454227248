import { execFile } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { createGitSandbox, type GitSandbox } from '../../src/vcs/testing/git-sandbox';
import { compileServer, freePort, ServerProcess } from '../support/server-process';
import { PATIENCE_MS, pollUntil } from '../support/wait';

// Issue 15 "The first hour": the README's admin CLI commands work while `npm start` runs on the embedded
// database. The server owns the database (PGlite has one session), so `node dist/cli.js` hands its command
// line to the server over the admin channel (src/cli/admin-channel.ts) and prints what the server answers.
// Needs no PostgreSQL server: the compiled server runs with no DATABASE_URL.

const ROOT = process.cwd();
const READY_TIMEOUT_MS = PATIENCE_MS;

interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

describe('admin CLI while the embedded server runs', () => {
  let dataDir: string;
  let server: ServerProcess;
  let sandbox: GitSandbox;
  /** `createadmin` run as soon as the fresh server held DATA_DIR, i.e. while its first start was still running. */
  let duringFirstStart: CliRun;
  let socketBeforeCommand: boolean;

  /** `npx glossa <args>` as an operator runs it beside the server: same DATA_DIR, no DATABASE_URL. */
  async function cli(...args: string[]): Promise<CliRun> {
    try {
      const { stdout, stderr } = await promisify(execFile)(process.execPath, [path.join(ROOT, 'dist/cli.js'), ...args], {
        cwd: ROOT,
        env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? os.tmpdir(), DATA_DIR: dataDir },
      });
      return { code: 0, stdout, stderr };
    } catch (error) {
      const { code, stdout, stderr } = error as { code: number; stdout: string; stderr: string };
      return { code, stdout, stderr };
    }
  }

  async function apiGet(pathname: string, token?: string): Promise<{ status: number; body: Record<string, unknown> }> {
    const response = await server.fetch(pathname, { headers: token ? { Authorization: `Token ${token}` } : {} });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  beforeAll(async () => {
    await compileServer();
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'glossa-cli-'));
    sandbox = await createGitSandbox({
      'sources/app.json': '{"hello": "Hello", "bye": "Bye"}\n',
      'translations/cs/app.json': '{"hello": "Ahoj"}\n',
      'translations/de/app.json': '{"hello": "Hallo", "bye": "Tschüss"}\n',
    });
    // The git sandbox is a local path, which only ALLOW_LOCAL_REPOSITORIES admits (README "Configuration").
    server = new ServerProcess(await freePort(), { DATA_DIR: dataDir, ALLOW_LOCAL_REPOSITORIES: 'true' }, undefined, READY_TIMEOUT_MS);
    const ready = server.start();
    // The server takes DATA_DIR's lock before its first-start child builds the database
    // (src/bootstrap/first-start.ts); a command started from then on must wait for the admin channel.
    const lockFile = path.join(dataDir, 'glossa.lock');
    await pollUntil(async () => (existsSync(lockFile) && readFileSync(lockFile, 'utf8') === String(server.pid) ? true : undefined), 'the server holds the lock');
    socketBeforeCommand = existsSync(path.join(dataDir, 'admin.sock'));
    duringFirstStart = await cli('createadmin', '--username', 'early', '--email', 'early@example.org');
    await ready;
  }, READY_TIMEOUT_MS + 120_000);

  afterAll(async () => {
    await server?.stop();
    await sandbox?.cleanup();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('serves the channel as a socket only its owner may open', () => {
    const socket = path.join(dataDir, 'admin.sock');
    expect(statSync(socket).isSocket()).toBe(true);
    expect(statSync(socket).mode & 0o777).toBe(0o600);
    // The starting server's mark (src/cli/admin-channel-protocol.ts) is gone once the channel is open.
    expect(existsSync(path.join(dataDir, 'admin.starting'))).toBe(false);
  });

  it('a command started during the first start waits for the server and runs there', async () => {
    expect(socketBeforeCommand).toBe(false);
    // The wait is announced only if the command got there before the channel opened (a fast machine may not).
    expect(duringFirstStart).toEqual({
      code: 0,
      stdout: expect.stringMatching(/^wlu_[A-Za-z0-9]{36}\n$/),
      stderr: expect.stringMatching(/^(Waiting for the server \(process \d+\) to finish starting…\n)?Created superuser "early"\.\n$/),
    });
    expect((await apiGet('/api/users/early/', duringFirstStart.stdout.trim())).status).toBe(200);
  });

  it('createadmin and createtoken give working tokens for the running server', async () => {
    const created = await cli('createadmin', '--username', 'alice', '--email', 'alice@example.org');
    expect(created).toEqual({ code: 0, stdout: expect.stringMatching(/^wlu_[A-Za-z0-9]{36}\n$/), stderr: 'Created superuser "alice".\n' });
    const first = created.stdout.trim();
    const me = await apiGet('/api/users/alice/', first);
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ username: 'alice', is_superuser: true, email: 'alice@example.org' });

    const second = await cli('createtoken', 'alice');
    expect(second.code).toBe(0);
    expect(second.stdout.trim()).toMatch(/^wlu_/);
    expect(second.stdout.trim()).not.toBe(first);
    expect((await apiGet('/api/users/alice/', second.stdout.trim())).status).toBe(200);
  });

  it('migrate and languages sync report through the server', async () => {
    expect(await cli('migrate')).toEqual({ code: 0, stdout: 'No pending migrations.\n', stderr: '' });
    expect(await cli('languages', 'sync')).toEqual({ code: 0, stdout: 'Language table: 0 languages added or updated.\n', stderr: '' });
  });

  it('import creates a component in the running server and waits for its import', async () => {
    const run = await cli(
      'import', 'demo', 'docs', '--repo', sandbox.upstream, '--filemask', 'translations/*/app.json',
      '--template', 'sources/app.json', '--file-format', 'json',
    );
    expect({ code: run.code, stdout: run.stdout }).toEqual({ code: 0, stdout: 'Imported demo/docs: 3 translations, 6 strings.\n' });
    const translations = await apiGet('/api/components/demo/docs/translations/');
    expect(translations.status).toBe(200);
    expect(translations.body.count).toBe(3);
  });

  it('reports errors with the exit codes of a standalone run', async () => {
    const missing = await cli('createtoken', 'nobody');
    expect(missing).toEqual({ code: 1, stdout: '', stderr: 'error: No user "nobody".\n' });
    const refused = await cli('import', 'demo', 'bad', '--repo', sandbox.upstream, '--filemask', 'no-star.json');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^error: \{"filemask":/);
    const unknown = await cli('bogus');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/^error: unknown command 'bogus'/);
  });

  it('a stopped server leaves no channel behind, and the CLI then opens the database itself', async () => {
    expect(await server.stop()).toBe(0);
    expect(existsSync(path.join(dataDir, 'admin.sock'))).toBe(false);
    const standalone = await cli('createtoken', 'alice');
    expect(standalone.code).toBe(0);
    expect(standalone.stdout.trim()).toMatch(/^wlu_/);
  });
});
