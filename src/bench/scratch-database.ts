import { Client } from 'pg';

export interface ScratchDatabase {
  url: string;
  /** True when the benchmark created the database (and drops it afterwards). */
  created: boolean;
  drop(): Promise<void>;
}

/**
 * A fresh database next to the one DATABASE_URL names, so the benchmark measures a known data set and
 * leaves the operator's database alone. Falls back to DATABASE_URL itself when the role may not create
 * databases (the benchmark then uses its own project slug and removes nothing).
 */
export async function createScratchDatabase(databaseUrl: string): Promise<ScratchDatabase> {
  const name = `glossa_bench_${process.pid}_${Date.now().toString(36)}`;
  const admin = new Client({ connectionString: databaseUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}"`);
  } catch (error) {
    console.warn(`Could not create a scratch database (${(error as Error).message}); using DATABASE_URL as it is.`);
    await admin.end();
    return { url: databaseUrl, created: false, drop: async () => undefined };
  }
  await admin.end();
  const url = new URL(databaseUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    created: true,
    drop: async () => {
      const client = new Client({ connectionString: databaseUrl });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}

/**
 * After a bulk import PostgreSQL's autovacuum and checkpointer work through the new rows for a while, on
 * the same 2 cores the load runs need: the first scenario measured 180 or 365 req/s depending on whether they
 * were still busy. Doing that work up front (VACUUM ANALYZE, then CHECKPOINT) makes every scenario measure the
 * steady state a server reaches shortly after an import. Needs a role allowed to run CHECKPOINT (superuser or
 * pg_checkpoint); otherwise only the VACUUM runs.
 */
export async function settleAfterImport(databaseUrl: string): Promise<string> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const started = Date.now();
    await client.query('VACUUM (ANALYZE)');
    const checkpoint = await client.query('CHECKPOINT').then(
      () => 'CHECKPOINT',
      () => 'no CHECKPOINT (not permitted)',
    );
    return `VACUUM (ANALYZE) and ${checkpoint} after the imports took ${((Date.now() - started) / 1000).toFixed(1)} s`;
  } finally {
    await client.end();
  }
}
