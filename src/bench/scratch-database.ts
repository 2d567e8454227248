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
