import { spawn } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { compileServer, freePort, npmStartArguments, ServerProcess } from '../support/server-process';
import { PATIENCE_MS } from '../support/wait';

// README "Quick start", first command: `npm start` builds the service and starts it with the embedded
// database (PGlite under DATA_DIR) and the demo project imported from demo/. This runs the compiled server
// (`node <flags> dist/start.js`, what `npm start` runs after its build) with no DATABASE_URL/TEST_DATABASE_URL in
// its environment, on a fresh DATA_DIR, and checks what an operator relies on: the data is there when
// the server answers, the data directory is locked against a second process, SIGTERM exits cleanly, and
// a restart keeps the data without importing the demo again. Needs no PostgreSQL server.

// Jest runs from the repository root (jest.config.cjs); ESM test modules have no __dirname.
const ROOT = process.cwd();
const READY_TIMEOUT_MS = PATIENCE_MS;
const SPEC_HEADERS = { 'content-type': 'application/json', vary: 'Accept' };

/** The caller's environment minus everything that would point the server elsewhere than the defaults. */
function operatorEnvironment(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value === undefined) continue;
    if (key.startsWith('GLOSSA_') || key.startsWith('JEST_')) continue;
    env[key] = value;
  }
  for (const key of [
    'DATABASE_URL', 'TEST_DATABASE_URL', 'DATABASE_POOL_SIZE', 'DATA_DIR', 'DEMO', 'PORT', 'HOST', 'NODE_ENV', 'SITE_URL',
    'ADMIN_TOKEN', 'ADMIN_USERNAME', 'LINK_FORMAT', 'ALLOW_LOCAL_REPOSITORIES', 'RATE_LIMIT_ANON', 'RATE_LIMIT_USER', 'LOG_LEVEL',
  ]) {
    delete env[key];
  }
  return env;
}

/** `npm start`'s command line (`node <flags> dist/start.js`), plus a GET that checks the spec's headers. */
class EmbeddedServer extends ServerProcess {
  constructor(port: number, env: Record<string, string>) {
    super(port, env, operatorEnvironment(), READY_TIMEOUT_MS);
  }

  protected override nodeArguments(): string[] {
    return npmStartArguments();
  }

  /** GET that must answer 200 with the spec's headers (api-spec.md rules 2 and 4); returns text and body. */
  async get<T = List>(pathname: string, allow: string, init: RequestInit = {}): Promise<{ text: string; body: T }> {
    const response = await this.fetch(pathname, init);
    const text = await response.text();
    expect({ path: pathname, status: response.status }).toEqual({ path: pathname, status: 200 });
    expect({
      'content-type': response.headers.get('content-type'),
      vary: response.headers.get('vary'),
      allow: response.headers.get('allow'),
    }).toEqual({ ...SPEC_HEADERS, allow });
    return { text, body: JSON.parse(text) as T };
  }
}

/** The parts of the bodies this file reads. */
interface List<T = Record<string, unknown>> {
  count: number;
  next: string | null;
  previous: string | null;
  results: T[];
}
interface Detail {
  [field: string]: unknown;
  total: number;
  translated: number;
  repo: string;
  source_language: { code: string };
}

/** The contexts and texts of a json-nested file, as Weblate names them (`a.b`, `list[0]`). */
function flattenNested(value: unknown, prefix = ''): Array<[string, string]> {
  if (typeof value === 'string') return [[prefix, value]];
  if (Array.isArray(value)) return value.flatMap((item, index) => flattenNested(item, `${prefix}[${index}]`));
  if (value !== null && typeof value === 'object') {
    return Object.entries(value).flatMap(([key, item]) => flattenNested(item, prefix ? `${prefix}.${key}` : key));
  }
  return [];
}

const readDemo = (file: string): Array<[string, string]> => flattenNested(JSON.parse(readFileSync(path.join(ROOT, 'demo', file), 'utf8')));

/** The pid of a process that has exited: what a server killed with -9 leaves in its lock file. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
  await new Promise((resolve) => child.once('exit', resolve));
  return child.pid!;
}

const ADMIN_TOKEN = 'wlu_embedded-start-admin-token-0000';

describe('npm start: the compiled server on the embedded database (README "Quick start")', () => {
  const dataDirs: string[] = [];
  const servers: EmbeddedServer[] = [];
  let dataDir: string;
  let port: number;
  let first: EmbeddedServer;
  /** What the first process served, to compare after the restart. */
  const before: { projects?: string; units?: string; changes?: string; component?: string } = {};

  const newDataDir = async (): Promise<string> => {
    const directory = await mkdtemp(path.join(os.tmpdir(), 'glossa-embedded-'));
    dataDirs.push(directory);
    return directory;
  };
  const newServer = (serverPort: number, env: Record<string, string>): EmbeddedServer => {
    const server = new EmbeddedServer(serverPort, env);
    servers.push(server);
    return server;
  };
  const lockPath = () => path.join(dataDir, 'glossa.lock');

  beforeAll(async () => {
    // `npm start` builds first (prestart); compile the current sources the same way.
    await compileServer();
    dataDir = await newDataDir();
    port = await freePort();
  });

  afterAll(async () => {
    for (const server of servers) {
      const stopped = server.stop();
      const timeout = new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), 15_000).unref());
      if ((await Promise.race([stopped, timeout])) === 'timeout') await server.kill();
    }
    for (const directory of dataDirs) await rm(directory, { recursive: true, force: true });
  });

  it('starts PGlite under DATA_DIR and imports the demo before it answers: the API has data at once', async () => {
    first = newServer(port, { DATA_DIR: dataDir });
    await first.start();
    expect(first.output).toContain(`database: embedded PGlite in ${dataDir}`);
    expect(first.output).toContain('Demo project imported: /api/components/demo/app/');

    // The data directory: the database files and the lock naming this process.
    expect(statSync(path.join(dataDir, 'pglite')).isDirectory()).toBe(true);
    expect(existsSync(path.join(dataDir, 'pglite', 'PG_VERSION'))).toBe(true);
    expect(readFileSync(lockPath(), 'utf8').trim()).toBe(String(first.pid));

    // The first request already sees the demo: it was imported before the server started listening.
    const projects = await first.get('/api/projects/', 'GET, POST, HEAD, OPTIONS');
    expect(projects.body.count).toBe(1);
    expect(projects.body.results[0]).toMatchObject({ name: 'Demo', slug: 'demo', url: `${first.url}/api/projects/demo/?format=api` });
    before.projects = projects.text;

    // The spec's component endpoint: the demo component as the README and demo/README.md describe it.
    const component = await first.get<Detail>('/api/components/demo/app/', 'GET, PUT, PATCH, DELETE, HEAD, OPTIONS');
    expect(component.body).toMatchObject({
      name: 'App',
      slug: 'app',
      vcs: 'git',
      filemask: 'translations/*/app.json',
      template: 'sources/app.json',
      file_format: 'json-nested',
      task_url: null,
      url: `${first.url}/api/components/demo/app/?format=api`,
    });
    expect(component.body.source_language.code).toBe('en');
    // A git repository Glossa built from demo/, kept in the data directory.
    expect(component.body.repo.startsWith(dataDir + path.sep)).toBe(true);
    expect(existsSync(path.join(component.body.repo, '.git')) || existsSync(path.join(component.body.repo, 'HEAD'))).toBe(true);
    before.component = component.text;

    // One translation per file in demo/translations/ plus the source language.
    const translations = await first.get<List<{ language_code: string }>>('/api/components/demo/app/translations/', 'GET, POST, HEAD, OPTIONS');
    const codes = translations.body.results.map((t) => t.language_code).sort();
    expect(codes).toEqual(['cs', 'de', 'en']);

    // The spec's translation endpoint and its units list: the strings of demo/, in file order.
    const source = readDemo('sources/app.json');
    const czech = new Map(readDemo('translations/cs/app.json'));
    const cs = await first.get<Detail>('/api/translations/demo/app/cs/', 'GET, DELETE, HEAD, OPTIONS');
    expect(cs.body).toMatchObject({ language_code: 'cs', filename: 'translations/cs/app.json', total: source.length, is_source: false });
    expect(cs.body.translated).toBe(source.filter(([context]) => czech.get(context)).length);
    const units = await first.get<List<{ context: string; source: string[]; target: string[]; position: number }>>(
      '/api/translations/demo/app/cs/units/?page_size=1000',
      'GET, POST, HEAD, OPTIONS',
    );
    expect(units.body.count).toBeGreaterThan(0);
    expect(units.body.count).toBe(cs.body.total);
    const results = units.body.results;
    expect(results.map((u) => u.context)).toEqual(source.map(([context]) => context));
    expect(results.map((u) => u.source[0])).toEqual(source.map(([, text]) => text));
    expect(results.map((u) => u.target[0])).toEqual(source.map(([context]) => czech.get(context) ?? ''));
    expect(results.map((u) => u.position)).toEqual(results.map((_, i) => i + 1));
    before.units = units.text;
    const en = await first.get<Detail>('/api/translations/demo/app/en/', 'GET, DELETE, HEAD, OPTIONS');
    expect(en.body).toMatchObject({ is_source: true, is_template: true, total: source.length, translated: source.length });

    // The spec's translation changes list, and the global changes list.
    // The import's history: one 44 "New string to translate" per string (issue 12), then 0 "Resource update".
    const csChanges = await first.get('/api/translations/demo/app/cs/changes/?page_size=1000', 'GET, HEAD, OPTIONS');
    const csResults = csChanges.body.results as unknown as Array<{ action: number; unit: string | null }>;
    const resourceUpdate = csResults.findIndex((c) => c.action === 0);
    expect(csResults[resourceUpdate]).toMatchObject({ action: 0, action_name: 'Resource update', unit: null, target: '' });
    expect(csResults.slice(0, resourceUpdate).map((c) => [c.action, c.unit === null])).toEqual(source.map(() => [44, false]));
    const changes = await first.get('/api/changes/?page_size=1000', 'GET, HEAD, OPTIONS');
    expect(changes.body.count).toBeGreaterThanOrEqual(3);
    before.changes = changes.text;

    // The README's other pointers: the translation file and the OpenAPI document.
    const file = await first.fetch('/api/translations/demo/app/de/file/');
    expect(file.status).toBe(200);
    expect(JSON.parse(await file.text())).toEqual(JSON.parse(readFileSync(path.join(ROOT, 'demo/translations/de/app.json'), 'utf8')));
    expect((await first.fetch('/api/schema/')).status).toBe(200);
  });

  it('refuses a second process on the same DATA_DIR with a clear message, and leaves the first one alone', async () => {
    expect(first.running).toBe(true);
    const second = newServer(await freePort(), { DATA_DIR: dataDir });
    const exitCode = await Promise.race([
      second.spawn(),
      new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), PATIENCE_MS).unref()),
    ]);
    expect(exitCode).not.toBe('timeout');
    expect(exitCode).not.toBe(0);
    expect(second.output).toContain(`The embedded database in ${dataDir} is in use by process ${first.pid}.`);
    await expect(second.fetch('/readyz')).rejects.toThrow();
    // The lock still names the first process, which still serves.
    expect(readFileSync(lockPath(), 'utf8').trim()).toBe(String(first.pid));
    expect((await first.fetch('/readyz')).status).toBe(200);
    expect((await first.get('/api/projects/', 'GET, POST, HEAD, OPTIONS')).body.count).toBe(1);
  });

  it('stops on SIGTERM with exit code 0 and releases the lock, keeping the database files', async () => {
    expect(await first.stop()).toBe(0);
    expect(first.output).toContain('SIGTERM received, shutting down');
    expect(existsSync(lockPath())).toBe(false);
    expect(existsSync(path.join(dataDir, 'pglite', 'PG_VERSION'))).toBe(true);
  });

  it('restarts on the same DATA_DIR (even over a stale lock) with the data kept and no second demo import', async () => {
    // A lock left behind by a process that no longer exists (kill -9) does not block the start.
    const stale = await deadPid();
    await writeFile(lockPath(), String(stale));
    // Same port, so every absolute link in the bodies is comparable byte for byte. With ADMIN_TOKEN, as the
    // README's "Writing: tokens" starts it.
    const again = newServer(port, { DATA_DIR: dataDir, ADMIN_TOKEN });
    await again.start();
    expect(readFileSync(lockPath(), 'utf8').trim()).toBe(String(again.pid));
    expect(again.output).toContain(`database: embedded PGlite in ${dataDir}`);
    expect(again.output).not.toContain('Demo project created');
    expect(again.output).not.toContain('Demo project imported');

    const projects = await again.get('/api/projects/', 'GET, POST, HEAD, OPTIONS');
    expect(projects.body.count).toBe(1);
    expect(projects.text).toBe(before.projects);
    expect((await again.get('/api/components/demo/app/', 'GET, PUT, PATCH, DELETE, HEAD, OPTIONS')).text).toBe(before.component);
    expect((await again.get('/api/translations/demo/app/cs/units/?page_size=1000', 'GET, POST, HEAD, OPTIONS')).text).toBe(before.units);
    // No new change: nothing was imported or rescanned.
    expect((await again.get('/api/changes/?page_size=1000', 'GET, HEAD, OPTIONS')).text).toBe(before.changes);

    // The fifth spec endpoint, for the administrator the token created.
    const notifications = await again.get<List<{ scope: number }>>('/api/users/admin/notifications/', 'GET, POST, HEAD, OPTIONS', {
      headers: { Authorization: `Token ${ADMIN_TOKEN}` },
    });
    expect(notifications.body.count).toBe(notifications.body.results.length);
    expect(new Set(notifications.body.results.map((s) => s.scope))).toEqual(new Set([10, 20]));

    expect(await again.stop()).toBe(0);
    expect(existsSync(lockPath())).toBe(false);
  });

  it('imports nothing with DEMO=false on a fresh DATA_DIR', async () => {
    const emptyDir = await newDataDir();
    const plain = newServer(await freePort(), { DATA_DIR: emptyDir, DEMO: 'false' });
    await plain.start();
    expect(plain.output).toContain(`database: embedded PGlite in ${emptyDir}`);
    expect(plain.output).not.toContain('Demo project');
    expect(existsSync(path.join(emptyDir, 'pglite', 'PG_VERSION'))).toBe(true);
    expect(readFileSync(path.join(emptyDir, 'glossa.lock'), 'utf8').trim()).toBe(String(plain.pid));
    expect(existsSync(path.join(emptyDir, 'demo-repository'))).toBe(false);

    const projects = await plain.get('/api/projects/', 'GET, POST, HEAD, OPTIONS');
    expect(projects.body).toEqual({ count: 0, next: null, previous: null, results: [] });
    expect((await plain.get('/api/changes/', 'GET, HEAD, OPTIONS')).body.count).toBe(0);
    expect((await plain.fetch('/api/components/demo/app/')).status).toBe(404);
    // The language table is filled all the same (anonymous callers see only languages in use: none yet).
    expect(plain.output).toMatch(/Language table: \d+ languages added or updated/);
    expect((await plain.get('/api/languages/', 'GET, POST, HEAD, OPTIONS')).body.count).toBe(0);

    expect(await plain.stop()).toBe(0);
    expect(existsSync(path.join(emptyDir, 'glossa.lock'))).toBe(false);
  });
});
