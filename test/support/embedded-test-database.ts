import { type ChildProcess, fork } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import { DataSource } from 'typeorm';
import { buildDataSourceOptions } from '../../src/database/data-source-options';
import { EMBEDDED_START_PARAMS } from '../../src/database/embedded-database';
import { packageRoot } from '../../src/formats/parse-worker/worker-script';
import { startServiceOnce } from './template-start';

/**
 * The embedded database of `npm test` without DATABASE_URL (docs/performance.md "npm test on the embedded
 * database, session 8"): the global setup migrates one template data directory, then starts one database
 * process per Jest worker (test/support/embedded-database-process.cjs); each test file gets a fresh PGlite
 * opened on a copy of the template, in its worker's process.
 */

/**
 * Connections one test database accepts at once: as many as the single in-parent PGlite of session 7 accepted
 * (a pool of 8 plus one for a client replaced after an error, stack-evaluation.md §5 probes).
 */
const MAX_CONNECTIONS = 9;

export interface EmbeddedTestDatabases {
  /** One control URL per worker, in worker order (JEST_WORKER_ID 1, 2, …). */
  controlUrls: string[];
  close(): Promise<void>;
}

interface DatabaseProcess {
  control: string;
  stop(): Promise<void>;
}

/**
 * The data directories live on tmpfs when there is one: PGlite writes its files through the file system,
 * and the test databases are thrown away, so a disk would only add I/O waits.
 */
function scratchRoot(): string {
  try {
    fs.accessSync('/dev/shm', fs.constants.W_OK);
    return '/dev/shm';
  } catch {
    return os.tmpdir();
  }
}

function startDatabaseProcess(template: string, workDir: string): Promise<DatabaseProcess> {
  const script = path.join(packageRoot(), 'test/support/embedded-database-process.cjs');
  const child: ChildProcess = fork(script, [JSON.stringify({ template, workDir, startParams: EMBEDDED_START_PARAMS, maxConnections: MAX_CONNECTIONS })], {
    cwd: packageRoot(),
    execArgv: ['--expose-gc'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`The embedded test database process exited with ${code} before it was ready.`)));
    child.once('message', (message: { control: string }) =>
      resolve({
        control: message.control,
        stop: async () => {
          if (child.connected) child.disconnect();
          await exited;
        },
      }),
    );
  });
}

/**
 * One request to a database process, on a connection of its own: fetch() would keep the connection for the
 * next request, which the process may close between the two (its keep-alive timeout) under a loaded machine.
 */
function post<T>(controlUrl: string, route: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const request = http.request(`${controlUrl}${route}`, { method: 'POST', agent: false }, (response) => {
      let body = '';
      response.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      response.on('end', () => {
        if (response.statusCode === 200) resolve(JSON.parse(body) as T);
        else reject(new Error(`The embedded test database could not do ${route}: ${body}`));
      });
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end();
  });
}

/**
 * Creates and migrates the template and starts the service on it once (template-start.ts), then starts `workers`
 * database processes. Run by the global setup.
 */
export async function startEmbeddedTestDatabases(workers: number): Promise<EmbeddedTestDatabases> {
  const root = fs.mkdtempSync(path.join(scratchRoot(), 'glossa-test-db-'));
  const processes: DatabaseProcess[] = [];
  const close = async () => {
    await Promise.all(processes.map((databaseProcess) => databaseProcess.stop()));
    fs.rmSync(root, { recursive: true, force: true });
  };
  try {
    const template = path.join(root, 'template');
    // initdb peaks near 0.75 GB (footprint section): in a process that exits right after, not in a worker's.
    const builder = await startDatabaseProcess(template, path.join(root, 'builder'));
    processes.push(builder);
    const { id, url } = await post<{ id: number; url: string }>(builder.control, '/template');
    const dataSource = new DataSource(buildDataSourceOptions(url, 1));
    await dataSource.initialize();
    try {
      await dataSource.runMigrations();
    } finally {
      await dataSource.destroy();
    }
    await startServiceOnce(url);
    // A clean shutdown checkpoints, so each copy opens without recovery.
    await post(builder.control, `/close?id=${id}`);
    await builder.stop();
    processes.pop();
    for (let worker = 1; worker <= workers; worker++) processes.push(await startDatabaseProcess(template, path.join(root, `worker-${worker}`)));
    return { controlUrls: processes.map((databaseProcess) => databaseProcess.control), close };
  } catch (error) {
    await close();
    throw error;
  }
}

/**
 * Which test file asks: Jest evaluates this module anew for every test file (one module registry per file),
 * so this value differs between the files a worker runs. The database process closes what earlier files left.
 */
const THIS_FILE = randomUUID();

/** A fresh copy of the template in this worker's database process, for `createTestDatabase()`. */
export async function openEmbeddedTestDatabase(controlUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const { id, url } = await post<{ id: number; url: string }>(controlUrl, `/open?owner=${THIS_FILE}`);
  return { url, drop: () => post(controlUrl, `/close?id=${id}`).then(() => undefined) };
}
