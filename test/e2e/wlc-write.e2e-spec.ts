import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { DataSource } from 'typeorm';
import { createGitSandbox, type GitSandbox } from '../../src/vcs/testing/git-sandbox';
import { authHeader } from '../support/contract';
import { createProject } from '../support/factories';
import { createTestApp, TEST_ADMIN_TOKEN, TestApp } from '../support/test-app';
import { describeWithWlc } from '../support/wlc-available';
import { PATIENCE_MS } from '../support/wait';

const run = promisify(execFile);

/**
 * The write commands of Weblate's CLI (`wlc` 1.13; wlc-client.md §5, §6.4, §6.5) against a component imported
 * from a git sandbox: each succeeds with a token and is refused without one.
 */
describeWithWlc('wlc write commands', () => {
  let app: TestApp;
  let db: DataSource;
  let sandbox: GitSandbox;
  let workDir: string;
  let apiRoot: string;

  beforeAll(async () => {
    app = await createTestApp();
    db = app.glossa.app.get(DataSource);
    const port = (app.glossa.app.getHttpServer().address() as { port: number }).port;
    apiRoot = `http://127.0.0.1:${port}/api/`;
    workDir = await mkdtemp(path.join(os.tmpdir(), 'glossa-wlc-write-'));
    sandbox = await createGitSandbox({
      'sources/app.json': '{"hello": "Hello", "bye": "Bye"}\n',
      'translations/cs/app.json': '{"hello": "Ahoj"}\n',
    });
    await createProject(db, { name: 'Cli', slug: 'cli' });
    const created = await app
      .http()
      .post('/api/projects/cli/components/')
      .set(...authHeader(TEST_ADMIN_TOKEN))
      .send({ name: 'App', slug: 'app', repo: sandbox.upstream, push: sandbox.upstream, filemask: 'translations/*/app.json', template: 'sources/app.json', file_format: 'json-nested' })
      .expect(201);
    const deadline = Date.now() + PATIENCE_MS;
    for (;;) {
      const task = await app.http().get(new URL(created.body.task_url).pathname).expect(200);
      if (task.body.completed) break;
      if (Date.now() > deadline) throw new Error('Import did not finish');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  });

  afterAll(async () => {
    await app?.close();
    await sandbox?.cleanup();
    await rm(workDir, { recursive: true, force: true });
  });

  async function wlc(key: string | null, ...args: string[]): Promise<string> {
    const { stdout } = await run('wlc', ['--url', apiRoot, ...(key ? ['--key', key] : []), ...args], {
      cwd: workDir,
      env: { ...process.env, HOME: workDir, XDG_CONFIG_HOME: workDir },
      timeout: PATIENCE_MS,
    });
    return stdout;
  }
  const admin = (...args: string[]) => wlc(TEST_ADMIN_TOKEN, ...args);

  it('lock, lock-status and unlock', async () => {
    expect(await admin('lock-status', 'cli/app')).toBe('locked: False\n');
    await admin('lock', 'cli/app');
    expect(await admin('lock-status', 'cli/app')).toBe('locked: True\n');
    await admin('unlock', 'cli/app');
    expect(await admin('lock-status', 'cli/app')).toBe('locked: False\n');
  });

  it('upload a translation file, then commit and push it', async () => {
    const file = path.join(workDir, 'cs.json');
    await writeFile(file, '{"hello": "Ahoj", "bye": "Nashle"}\n');
    await admin('upload', 'cli/app/cs', '-i', file);
    expect((await app.http().get('/api/translations/cli/app/cs/statistics/').expect(200)).body.translated).toBe(2);
    await admin('upload', 'cli/app/cs', '-i', file, '--overwrite');
    // The other upload options wlc sends as form fields (wlc-client.md §6.4): method, fuzzy, author.
    await app.http().post('/api/components/cli/app/translations/').set(...authHeader(TEST_ADMIN_TOKEN)).send({ language_code: 'de' }).expect(201);
    const fuzzyFile = path.join(workDir, 'de.json');
    await writeFile(fuzzyFile, '{"hello": "Hallo"}\n');
    await admin('upload', 'cli/app/de', '-i', fuzzyFile, '--method', 'fuzzy', '--fuzzy', 'process', '--author-name', 'Ute Uploader', '--author-email', 'ute@example.org');
    const de = (await app.http().get('/api/translations/cli/app/de/units/').expect(200)).body.results as Array<{ context: string; target: string[]; state: number }>;
    expect(de.find((unit) => unit.context === 'hello')).toMatchObject({ target: ['Hallo'], state: 10 });
    await admin('commit', 'cli/app/cs');
    await admin('push', 'cli/app');
    const upstream = await sandbox.git(sandbox.root, ['--git-dir', sandbox.upstream, 'show', 'main:translations/cs/app.json']);
    // The file keeps its own one-line layout (issue 11 item 3: only the uploaded member is written).
    expect(upstream).toBe('{"hello": "Ahoj", "bye": "Nashle"}\n');
    expect(await admin('repo', 'cli/app')).toMatch(/^needs_push: False$/m);
  });

  it('pull, reset and cleanup at component, project and translation level', async () => {
    await admin('pull', 'cli/app');
    await admin('pull', 'cli');
    await admin('reset', 'cli/app');
    await admin('cleanup', 'cli/app/cs');
    await admin('commit', 'cli');
  });

  it('refuses every write command without a token', async () => {
    const file = path.join(workDir, 'cs.json');
    for (const args of [['lock', 'cli/app'], ['unlock', 'cli/app'], ['commit', 'cli/app'], ['push', 'cli/app'], ['pull', 'cli/app'], ['reset', 'cli/app'], ['cleanup', 'cli/app'], ['upload', 'cli/app/cs', '-i', file]]) {
      await expect(wlc(null, ...args)).rejects.toMatchObject({ code: 1 });
    }
    // Nothing changed: the component is still unlocked.
    expect(await admin('lock-status', 'cli/app')).toBe('locked: False\n');
  });
});
