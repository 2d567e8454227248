import { mkdtemp, rm } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { createGlossaApp } from '../../src/bootstrap/create-app';
import { loadConfig } from '../../src/config/app-config';

/**
 * Starts the service once on the run's template database and stops it again, so that every test file's
 * database is one the service has already started on: its start-up writes (the language table's 710 rows,
 * the built-in roles and groups, pg-boss's schema and its queues with a partition table and eight indexes
 * each) were made again on every test file's fresh copy, about a quarter of a second per file on the embedded
 * database (docs/performance.md "npm test, session 13"). Each test app still runs the whole start-up; on this
 * database it finds everything in place, as a restarted server does. No administrator (ADMIN_TOKEN) and no
 * demo: those stay each file's own choice.
 *
 * Run by the global setup, in Jest's parent process.
 */
export async function startServiceOnce(databaseUrl: string): Promise<void> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'glossa-template-start-'));
  try {
    const config = loadConfig({ DATABASE_URL: databaseUrl, DATABASE_POOL_SIZE: '1', DATA_DIR: dataDir, DEMO: 'false', LOG_LEVEL: 'error' });
    const glossa = await createGlossaApp(config, { logger: false });
    await glossa.close();
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}
