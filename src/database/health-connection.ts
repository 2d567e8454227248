import { Pool } from 'pg';
import type { DataSource } from 'typeorm';
import { statementTimeoutOption } from './statement-timeout';

/** The readiness checks' way to the database (src/ops/health.ts), which API requests cannot occupy. */
export interface HealthConnection {
  /** Runs a fixed probe statement; throws when the database does not answer. */
  query(text: string): Promise<void>;
  close(): Promise<void>;
}

/** The probes' own limit: a `SELECT 1` that takes longer means the database is not fit to serve. */
const PROBE_TIMEOUT_MS = 5000;

/**
 * On PostgreSQL the readiness checks have a connection of their own (a pool of one, closed when idle): with
 * every connection of the application's pool busy with slow requests, /readyz used to queue behind them and
 * answer 503 after its 5 s deadline (issue 10 item 5), so an orchestrator took a busy but healthy process out
 * of service. The embedded PGlite gains nothing from a second connection: its one session makes another
 * connection wait while a transaction is open, and a running query blocks the process's event loop (both
 * verified with pglite-socket 0.2), so there the checks share the application's pool.
 */
export function createHealthConnection(url: string, embedded: boolean, dataSource: () => DataSource): HealthConnection {
  if (embedded) {
    return { query: async (text) => void (await dataSource().query(text)), close: async () => undefined };
  }
  const pool = new Pool({
    connectionString: url,
    max: 1,
    idleTimeoutMillis: 60_000,
    connectionTimeoutMillis: PROBE_TIMEOUT_MS,
    options: statementTimeoutOption(PROBE_TIMEOUT_MS),
  });
  // An idle connection that the server dropped emits 'error' on the pool; the next probe opens another.
  pool.on('error', () => undefined);
  return {
    query: async (text) => void (await pool.query(text)),
    close: () => pool.end(),
  };
}
