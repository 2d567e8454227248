import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { unzipSync } from 'fflate';
import { createTestApp, TEST_ADMIN_TOKEN, TestApp } from '../support/test-app';
import { describeWithWlc } from '../support/wlc-available';
import { PATIENCE_MS } from '../support/wait';

const run = promisify(execFile);

/**
 * Drives Weblate's own command-line client (Debian package `wlc` 1.13, installed by .ci/run) against the
 * demo component, command by command (reference/wlc-client.md §5). Each command must exit 0 and print what
 * the API served.
 */
describeWithWlc('wlc, the Weblate CLI', () => {
  let app: TestApp;
  let workDir: string;
  let apiRoot: string;

  beforeAll(async () => {
    app = await createTestApp({ DEMO: 'true' });
    const port = (app.glossa.app.getHttpServer().address() as { port: number }).port;
    apiRoot = `http://127.0.0.1:${port}/api/`;
    // wlc reads .weblate files from every directory above its working directory (§2): use an empty one.
    workDir = await mkdtemp(path.join(os.tmpdir(), 'glossa-wlc-'));
  });
  afterAll(async () => {
    await app.close();
    await rm(workDir, { recursive: true, force: true });
  });

  async function wlc(...args: string[]): Promise<string> {
    const { stdout } = await run('wlc', ['--url', apiRoot, '--key', TEST_ADMIN_TOKEN, ...args], {
      cwd: workDir,
      env: { ...process.env, HOME: workDir, XDG_CONFIG_HOME: workDir },
      timeout: PATIENCE_MS,
    });
    return stdout;
  }

  it('list-projects and ls', async () => {
    expect(await wlc('list-projects')).toMatch(/^slug: demo$/m);
    expect(await wlc('ls')).toMatch(/^name: Demo$/m);
  });

  it('list-components, list-translations, list-languages', async () => {
    expect(await wlc('list-components')).toMatch(/^slug: app$/m);
    expect(await wlc('list-components', 'demo')).toMatch(/^file_format: json-nested$/m);
    const translations = await wlc('list-translations', 'demo/app');
    expect(translations).toMatch(/^language_code: cs$/m);
    expect(translations).toMatch(/^language_code: de$/m);
    expect(await wlc('list-translations')).toMatch(/^filename: translations\/cs\/app\.json$/m);
    expect(await wlc('list-languages')).toMatch(/^code: cs$/m);
  });

  it('show at every level, including a unit', async () => {
    expect(await wlc('show', 'demo')).toMatch(/^web: https:\/\/example\.org\/$/m);
    expect(await wlc('show', 'demo/app')).toMatch(/^filemask: translations\/\*\/app\.json$/m);
    const translation = await wlc('show', 'demo/app/cs');
    expect(translation).toMatch(/^translated_percent: 100\.0$/m);
    const units = await app.http().get('/api/translations/demo/app/cs/units/').expect(200);
    const unit = await wlc('show', String(units.body.results[0].id));
    expect(unit).toMatch(new RegExp(`^id_hash: ${units.text.match(/"id_hash":(-?\d+)/)![1]}$`, 'm'));
    expect(await wlc('ls', 'demo/app')).toMatch(/^language_code: de$/m);
  });

  it('stats at project, component and translation level', async () => {
    expect(await wlc('stats', 'demo')).toMatch(/^total: \d+$/m);
    expect(await wlc('stats', 'demo/app')).toMatch(/^code: cs$/m);
    expect(await wlc('stats', 'demo/app/de')).toMatch(/^translated_percent: \d+\.\d$/m);
  });

  it('changes at every level', async () => {
    expect(await wlc('changes', 'demo')).toMatch(/^action_name: Resource update$/m);
    expect(await wlc('changes', 'demo/app')).toMatch(/^action_name: Resource update$/m);
    expect(await wlc('changes', 'demo/app/cs')).toMatch(/^action_name: Resource update$/m);
  });

  it('repo at every level', async () => {
    expect(await wlc('repo', 'demo')).toMatch(/^needs_commit: False$/m);
    expect(await wlc('repo', 'demo/app')).toMatch(/^needs_merge: False$/m);
    expect(await wlc('repo', 'demo/app/cs')).toMatch(/^needs_push: False$/m);
  });

  it('download a translation file and a component archive', async () => {
    const file = await wlc('download', 'demo/app/cs');
    expect(JSON.parse(file).menu.file).toBe('Soubor');
    await wlc('download', 'demo/app', '-o', workDir);
    const archive = await readFile(path.join(workDir, 'demo-app.zip'));
    expect(Object.keys(unzipSync(archive)).sort()).toEqual(['sources/app.json', 'translations/cs/app.json', 'translations/de/app.json']);
  });

  it('download every component of a project, and of the whole server', async () => {
    const projectDir = await mkdtemp(path.join(workDir, 'project-'));
    expect(await wlc('download', 'demo', '-o', projectDir)).toContain('downloaded translations for project: demo');
    expect(Object.keys(unzipSync(await readFile(path.join(projectDir, 'demo-app.zip')))).sort()).toContain('translations/cs/app.json');
    const serverDir = await mkdtemp(path.join(workDir, 'server-'));
    await wlc('download', '-o', serverDir);
    expect(Object.keys(unzipSync(await readFile(path.join(serverDir, 'demo-app.zip')))).sort()).toContain('translations/de/app.json');
  });

  it('version (the client alone)', async () => {
    expect(await wlc('version')).toMatch(/version: \d+\.\d+/);
  });
});
