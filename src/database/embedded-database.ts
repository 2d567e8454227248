import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * The embedded default database: PGlite, served over the wire protocol by pglite-socket inside this
 * process, so TypeORM and pg talk to it exactly as they talk to PostgreSQL
 * (shared/reference/stack-evaluation.md §5).
 */
export interface EmbeddedDatabase {
  url: string;
  close(): Promise<void>;
}

/** PGlite has no lock of its own: two processes on one directory silently lose data (§5). */
function acquireLock(lockPath: string): () => void {
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      const fd = fs.openSync(lockPath, 'wx');
      fs.writeSync(fd, String(process.pid));
      fs.closeSync(fd);
      return () => fs.rmSync(lockPath, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = Number(fs.readFileSync(lockPath, 'utf8').trim());
      if (Number.isInteger(owner) && owner > 0 && owner !== process.pid && isAlive(owner)) {
        throw new Error(`The embedded database in ${path.dirname(lockPath)} is in use by process ${owner}.`, { cause: error });
      }
      // The previous owner died without cleaning up (kill -9): the lock is stale.
      fs.rmSync(lockPath, { force: true });
    }
  }
  throw new Error(`Could not lock ${lockPath}`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
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
    releaseLock = acquireLock(path.join(dataDir, 'glossa.lock'));
  }
  try {
    const db = await PGlite.create(inMemory ? 'memory://' : path.join(dataDir, 'pglite'));
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
