import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import * as fs from 'node:fs';
import * as path from 'node:path';
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
    const db = await PGlite.create(inMemory ? 'memory://' : path.join(dataDir, 'pglite'), { extensions: { pg_trgm } });
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
