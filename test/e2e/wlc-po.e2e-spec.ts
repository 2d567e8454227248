import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { unzipSync } from 'fflate';
import { DataSource } from 'typeorm';
import { createGitSandbox, type GitSandbox } from '../../src/vcs/testing/git-sandbox';
import { authHeader } from '../support/contract';
import { createProject } from '../support/factories';
import { waitForTask } from '../support/tasks';
import { createTestApp, TEST_ADMIN_TOKEN, TestApp } from '../support/test-app';
import { describeWithWlc } from '../support/wlc-available';
import { PATIENCE_MS } from '../support/wait';

const run = promisify(execFile);

// Issue 11 "Done means": `wlc download --convert po` with wlc's default settings, and `wlc upload` of a PO
// file into a PO component (wlc 1.13; wlc-client.md §5, §6.4). The component is a gettext PO component
// imported from a git sandbox; the demo component (json-nested) checks the conversion from another format.

const HEADER = (language: string, plural: string) =>
  'msgid ""\nmsgstr ""\n' +
  '"Project-Id-Version: app\\n"\n' +
  `"Language: ${language}\\n"\n` +
  '"MIME-Version: 1.0\\n"\n' +
  '"Content-Type: text/plain; charset=UTF-8\\n"\n' +
  '"Content-Transfer-Encoding: 8bit\\n"\n' +
  `"Plural-Forms: ${plural}\\n"\n`;

const CS_PLURAL = 'nplurals=3; plural=(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2;';

const POT =
  'msgid ""\nmsgstr ""\n"Project-Id-Version: app\\n"\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n' +
  '#: src/app.c:1\nmsgid "Hello"\nmsgstr ""\n\n' +
  '#: src/app.c:2\nmsgctxt "menu"\nmsgid "File"\nmsgstr ""\n\n' +
  '#: src/app.c:3\n#, c-format\nmsgid "%d file"\nmsgid_plural "%d files"\nmsgstr[0] ""\nmsgstr[1] ""\n\n' +
  'msgid "Bye"\nmsgstr ""\n';

const CS_PO =
  `${HEADER('cs', CS_PLURAL)}\n` +
  '#: src/app.c:1\nmsgid "Hello"\nmsgstr "Ahoj"\n\n' +
  '#: src/app.c:2\nmsgctxt "menu"\nmsgid "File"\nmsgstr "Soubor"\n\n' +
  '#: src/app.c:3\n#, c-format\nmsgid "%d file"\nmsgid_plural "%d files"\nmsgstr[0] ""\nmsgstr[1] ""\nmsgstr[2] ""\n\n' +
  'msgid "Bye"\nmsgstr ""\n';

describeWithWlc('wlc with a gettext PO component', () => {
  let app: TestApp;
  let db: DataSource;
  let sandbox: GitSandbox;
  let workDir: string;
  let apiRoot: string;

  beforeAll(async () => {
    app = await createTestApp({ DEMO: 'true' });
    db = app.glossa.app.get(DataSource);
    const port = (app.glossa.app.getHttpServer().address() as { port: number }).port;
    apiRoot = `http://127.0.0.1:${port}/api/`;
    // wlc reads .weblate files from every directory above its working directory: use an empty one.
    workDir = await mkdtemp(path.join(os.tmpdir(), 'glossa-wlc-po-'));
    sandbox = await createGitSandbox({ 'po/app.pot': POT, 'po/cs.po': CS_PO });
    await createProject(db, { name: 'Gettext', slug: 'gettext' });
    const created = await app
      .http()
      .post('/api/projects/gettext/components/')
      .set(...authHeader(TEST_ADMIN_TOKEN))
      .send({ name: 'App', slug: 'app', repo: sandbox.upstream, push: sandbox.upstream, filemask: 'po/*.po', new_base: 'po/app.pot', file_format: 'po' })
      .expect(201);
    const task = await waitForTask(app, created.body.task_url);
    expect(task.progress).toBe(100);
  });

  afterAll(async () => {
    await app?.close();
    await sandbox?.cleanup();
    await rm(workDir, { recursive: true, force: true });
  });

  async function wlc(...args: string[]): Promise<string> {
    const { stdout } = await run('wlc', ['--url', apiRoot, '--key', TEST_ADMIN_TOKEN, ...args], {
      cwd: workDir,
      env: { ...process.env, HOME: workDir, XDG_CONFIG_HOME: workDir },
      timeout: PATIENCE_MS,
      encoding: 'utf8',
    });
    return stdout;
  }

  async function msgfmtCheck(content: string): Promise<void> {
    const file = path.join(workDir, `check-${Date.now()}.po`);
    await writeFile(file, content);
    try {
      await run('msgfmt', ['-c', '-o', '/dev/null', file]);
    } catch (error) {
      if ((error as { code?: unknown }).code === 'ENOENT') return; // gettext not installed: nothing to cross-check with
      throw error;
    }
  }

  it('download --convert po of a PO translation', async () => {
    const po = await wlc('download', 'gettext/app/cs', '--convert', 'po');
    expect(po).toContain('"Language: cs\\n"');
    expect(po).toContain('msgid "Hello"\nmsgstr "Ahoj"\n');
    expect(po).toContain('msgctxt "menu"\nmsgid "File"\nmsgstr "Soubor"\n');
    expect(po).toContain('msgid "%d file"\nmsgid_plural "%d files"\nmsgstr[0] ""\nmsgstr[1] ""\nmsgstr[2] ""\n');
    await msgfmtCheck(po);
  });

  it('download --convert po of a json-nested translation (the demo component)', async () => {
    const po = await wlc('download', 'demo/app/cs', '--convert', 'po');
    expect(po).toMatch(/^msgid ""\nmsgstr ""\n/);
    expect(po).toContain('"Language: cs\\n"');
    expect(po).toContain('msgctxt "menu.file"\n');
    await msgfmtCheck(po);
  });

  it('download --convert mo of a PO translation', async () => {
    const { stdout } = await run('wlc', ['--url', apiRoot, '--key', TEST_ADMIN_TOKEN, 'download', 'gettext/app/cs', '--convert', 'mo'], {
      cwd: workDir,
      env: { ...process.env, HOME: workDir, XDG_CONFIG_HOME: workDir },
      encoding: 'buffer',
    });
    // GNU MO magic number, little endian.
    expect(stdout.readUInt32LE(0)).toBe(0x950412de);
  });

  it('download --convert zip:po of the PO component', async () => {
    const dir = await mkdtemp(path.join(workDir, 'zip-'));
    await wlc('download', 'gettext/app', '--convert', 'zip:po', '-o', dir);
    const files = unzipSync(await readFile(path.join(dir, 'gettext-app.zip')));
    const cs = Object.entries(files).find(([name]) => name.endsWith('cs.po'));
    expect(cs).toBeDefined();
    expect(Buffer.from(cs![1]).toString('utf8')).toContain('msgid "Hello"\nmsgstr "Ahoj"\n');
  });

  it('download without --convert gives the PO file as it is in the repository', async () => {
    expect(await wlc('download', 'gettext/app/cs')).toBe(CS_PO);
  });

  it('upload a PO file into the PO component, then commit and push it', async () => {
    const file = path.join(workDir, 'cs.po');
    await writeFile(
      file,
      `${HEADER('cs', CS_PLURAL)}\n` +
        'msgid "Hello"\nmsgstr "Nazdar"\n\n' +
        'msgid "%d file"\nmsgid_plural "%d files"\nmsgstr[0] "%d soubor"\nmsgstr[1] "%d soubory"\nmsgstr[2] "%d souborů"\n\n' +
        'msgid "Bye"\nmsgstr "Nashle"\n\n' +
        'msgid "Not in the component"\nmsgstr "Není"\n',
    );
    const before = (await app.http().get('/api/translations/gettext/app/cs/statistics/').expect(200)).body.translated;
    expect(before).toBe(2);
    // Without --overwrite, the already translated "Hello" is skipped; the plural and "Bye" are accepted.
    await wlc('upload', 'gettext/app/cs', '-i', file);
    const units = (await app.http().get('/api/translations/gettext/app/cs/units/').expect(200)).body.results as Array<{ source: string[]; target: string[]; state: number }>;
    const bySource = new Map(units.map((unit) => [unit.source[0], unit]));
    expect(bySource.get('Hello')).toMatchObject({ target: ['Ahoj'], state: 20 });
    expect(bySource.get('%d file')).toMatchObject({ target: ['%d soubor', '%d soubory', '%d souborů'], state: 20 });
    expect(bySource.get('Bye')).toMatchObject({ target: ['Nashle'], state: 20 });
    expect((await app.http().get('/api/translations/gettext/app/cs/statistics/').expect(200)).body.translated).toBe(4);

    await wlc('upload', 'gettext/app/cs', '-i', file, '--overwrite');
    const hello = ((await app.http().get('/api/translations/gettext/app/cs/units/').expect(200)).body.results as Array<{ source: string[]; target: string[] }>).find(
      (unit) => unit.source[0] === 'Hello',
    );
    expect(hello?.target).toEqual(['Nazdar']);

    await wlc('commit', 'gettext/app/cs');
    await wlc('push', 'gettext/app');
    const upstream = await sandbox.git(sandbox.root, ['--git-dir', sandbox.upstream, 'show', 'main:po/cs.po']);
    expect(upstream).toContain('#: src/app.c:1\nmsgid "Hello"\nmsgstr "Nazdar"\n');
    expect(upstream).toContain('msgctxt "menu"\nmsgid "File"\nmsgstr "Soubor"\n');
    expect(upstream).toContain('#: src/app.c:3\n#, c-format\nmsgid "%d file"\nmsgid_plural "%d files"\nmsgstr[0] "%d soubor"\nmsgstr[1] "%d soubory"\nmsgstr[2] "%d souborů"\n');
    expect(upstream).toContain('msgid "Bye"\nmsgstr "Nashle"\n');
    expect(upstream).not.toContain('Not in the component');
    await msgfmtCheck(upstream);
  });
});
