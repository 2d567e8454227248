import type { AppConfig } from '../config/app-config';
import { startEmbeddedDatabase } from '../database/embedded-database';

export interface DatabaseRuntime {
  url: string;
  poolSize: number;
  /** The embedded PGlite: one session, no statement timeouts (src/database/statement-timeout.ts). */
  embedded: boolean;
  /** Stops the embedded server (after the connection pool is closed); a no-op for PostgreSQL. */
  close(): Promise<void>;
}

/**
 * PostgreSQL when DATABASE_URL is set; otherwise the embedded PGlite under DATA_DIR with a pool of one
 * (stack-evaluation.md §5: one session, so one connection).
 */
export async function startDatabaseRuntime(config: AppConfig): Promise<DatabaseRuntime> {
  if (config.databaseUrl) return { url: config.databaseUrl, poolSize: config.databasePoolSize, embedded: false, close: async () => undefined };
  const embedded = await startEmbeddedDatabase(config.dataDir, 1);
  return { url: embedded.url, poolSize: 1, embedded: true, close: embedded.close };
}
