import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { packageRoot } from '../formats/parse-worker/worker-script';
import { acquireLock, EMBEDDED_LOCK_FILE } from './embedded-lock';

/**
 * The embedded default database: PGlite, served over the wire protocol by pglite-socket inside this
 * process, so TypeORM and pg talk to it exactly as they talk to PostgreSQL
 * (shared/reference/stack-evaluation.md §5).
 */
export interface EmbeddedDatabase {
  url: string;
  close(): Promise<void>;
}

/**
 * PostgreSQL settings of the embedded database (issue 15 item 3, measured in docs/performance.md "Memory").
 * PGlite runs PostgreSQL in WebAssembly inside this process, and a WebAssembly memory only ever grows: what
 * PostgreSQL allocates once stays resident. Its defaults are a server's (shared_buffers 128 MB,
 * maintenance_work_mem 64 MB, wal_buffers 4 MB); a laptop demo and a small team's instance need far less,
 * and the operating system's page cache still holds the data files. These values took the database's own
 * share of a steady start from about 300 MB to about 165 MB here.
 */
const EMBEDDED_SETTINGS = ['shared_buffers=32MB', 'maintenance_work_mem=16MB', 'wal_buffers=1MB', 'temp_buffers=2MB'];
export const EMBEDDED_START_PARAMS = [...PGlite.defaultStartParams, ...EMBEDDED_SETTINGS.flatMap((setting) => ['-c', setting])];

/**
 * Creates the data directory on first start in a short-lived child process. PGlite's initdb runs a second
 * PostgreSQL instance and peaks at about 750 MB; in this process that memory would stay resident for the
 * server's whole life (a WebAssembly memory does not shrink, and the freed heap is not returned to the
 * system), which made the first `npm start` hold 880–960 MB against about 430 MB on later starts. A child's
 * memory goes back to the system when it exits. Later starts find the directory and skip this.
 */
async function initializeDataDirectory(pgliteDir: string): Promise<void> {
  if (fs.existsSync(path.join(pgliteDir, 'PG_VERSION'))) return;
  const script = `
    const { PGlite } = require('@electric-sql/pglite');
    const { pg_trgm } = require('@electric-sql/pglite/contrib/pg_trgm');
    const [dir, params] = JSON.parse(process.argv[1]);
    PGlite.create(dir, { extensions: { pg_trgm }, startParams: params })
      .then((db) => db.close())
      .catch((error) => { console.error(error && error.stack || String(error)); process.exit(1); });`;
  // Bare specifiers of `node -e` resolve from the working directory: the package's own node_modules.
  const { code, stderr } = await new Promise<{ code: number | null; stderr: string }>((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', script, JSON.stringify([pgliteDir, EMBEDDED_START_PARAMS])], {
      cwd: packageRoot(),
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let errors = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (errors = (errors + chunk).slice(-4000)));
    child.on('error', reject);
    child.on('close', (exitCode) => resolve({ code: exitCode, stderr: errors }));
  });
  if (code !== 0) {
    // Half a directory would make the next start fail differently: remove it so the next start retries.
    fs.rmSync(pgliteDir, { recursive: true, force: true });
    throw new Error(`Could not create the embedded database in ${pgliteDir}: ${stderr.trim() || `initdb exited with ${code}`}`);
  }
}

/** Where PGlite keeps its files under DATA_DIR. */
function pgliteDirectory(dataDir: string): string {
  return path.join(dataDir, 'pglite');
}

/**
 * Creates the embedded database's data directory under `dataDir` (PGlite's initdb, in a child process) unless it
 * exists. The first start (src/bootstrap/first-start.ts) runs it before its setup child.
 */
export function createEmbeddedDataDirectory(dataDir: string): Promise<void> {
  return initializeDataDirectory(pgliteDirectory(dataDir));
}

/** Whether `dataDir` already holds an initialised embedded database (src/bootstrap/first-start.ts). */
export function embeddedDataDirectoryExists(dataDir: string): boolean {
  return fs.existsSync(path.join(pgliteDirectory(dataDir), 'PG_VERSION'));
}

/**
 * Starts PGlite on `dataDir` (or in memory for "memory://") and exposes it on a random loopback port.
 * `poolSize` is the client pool that will connect; the socket allows one more so a client replaced
 * after an error can reconnect before the old slot is released (§5 probes).
 */
export async function startEmbeddedDatabase(dataDir: string, poolSize: number): Promise<EmbeddedDatabase> {
  const inMemory = dataDir === 'memory://';
  let releaseLock = (): void => undefined;
  if (!inMemory) {
    fs.mkdirSync(dataDir, { recursive: true });
    releaseLock = acquireLock(path.join(dataDir, EMBEDDED_LOCK_FILE));
  }
  try {
    // pg_trgm (bundled with PGlite) lets the substring searches of `q` use the units' trigram indexes, as on
    // PostgreSQL (migration UnitTrigramIndexes; issue 13 item 5).
    const pgliteDir = inMemory ? 'memory://' : pgliteDirectory(dataDir);
    if (!inMemory) await initializeDataDirectory(pgliteDir);
    const db = await PGlite.create(pgliteDir, { extensions: { pg_trgm }, startParams: EMBEDDED_START_PARAMS });
    const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections: poolSize + 1 });
    await server.start();
    const url = `postgres://postgres:postgres@${server.getServerConn()}/postgres?sslmode=disable`;
    return {
      url,
      async close() {
        await server.stop();
        await db.close();
        releaseLock();
      },
    };
  } catch (error) {
    releaseLock();
    throw error;
  }
}
