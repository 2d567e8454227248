import { withClient } from './database-server';

/**
 * pg_stat_database's deadlock counter of a test database, once no backend of the application is left
 * (close the app first). Each backend flushes its statistics when it goes idle or exits; the test database
 * is fresh (cloned from the template), so the counter started at zero. The embedded database serialises
 * everything in one session and cannot deadlock: 0 there.
 */
export async function deadlocksIn(database: string): Promise<number> {
  const url = process.env.GLOSSA_TEST_SERVER_URL;
  if (!url) return 0;
  return withClient(url, async (client) => {
    for (;;) {
      const [{ open }] = (await client.query('SELECT count(*)::int AS open FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [database])).rows;
      if (open === 0) break;
    }
    await client.query('SELECT pg_stat_clear_snapshot()');
    const [{ deadlocks }] = (await client.query('SELECT deadlocks::int AS deadlocks FROM pg_stat_database WHERE datname = $1', [database])).rows;
    return deadlocks;
  });
}
