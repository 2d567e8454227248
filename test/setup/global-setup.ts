import { DataSource } from 'typeorm';
import { buildDataSourceOptions } from '../../src/database/data-source-options';
import { quoteIdent, serverUrlFromEnv, withClient, withDatabase } from '../support/database-server';
import { startEmbeddedTestDatabases } from '../support/embedded-test-database';
import { startServiceOnce } from '../support/template-start';
import { globalState } from './global-state';

/**
 * Prepares one migrated template database per test run, on which the service has started once
 * (test/support/template-start.ts). On PostgreSQL every test file then gets a fresh
 * database cloned from it (architecture.md "Tests"); on the embedded database (no DATABASE_URL) every test
 * file gets a fresh PGlite opened on a copy of a migrated template directory, in its worker's own database
 * process (test/support/embedded-test-database.ts).
 */
export default async function globalSetup(globalConfig: { maxWorkers: number }): Promise<void> {
  // The second Jest run of `npm test` (scripts/test.mjs) holds only files that start their own servers.
  if (process.env.GLOSSA_TEST_DATABASE === 'none') return;
  const serverUrl = serverUrlFromEnv();
  if (!serverUrl) {
    // One database process per Jest worker: PGlite serves a single session, so two workers must never share
    // one. Worker n (JEST_WORKER_ID) asks the n-th control URL of the space-separated list for its files'
    // databases (test/support/test-database.ts); suites only test whether the variable is set.
    const databases = await startEmbeddedTestDatabases(Math.max(1, globalConfig.maxWorkers));
    globalState.closeEmbedded = databases.close;
    process.env.GLOSSA_TEST_EMBEDDED_URL = databases.controlUrls.join(' ');
    return;
  }
  const template = `glossa_test_tpl_${process.pid}_${Date.now()}`;
  await withClient(serverUrl, (client) => client.query(`CREATE DATABASE ${quoteIdent(template)}`));
  const dataSource = new DataSource(buildDataSourceOptions(withDatabase(serverUrl, template), 1));
  await dataSource.initialize();
  try {
    await dataSource.runMigrations();
  } finally {
    await dataSource.destroy();
  }
  await startServiceOnce(withDatabase(serverUrl, template));
  process.env.GLOSSA_TEST_SERVER_URL = serverUrl;
  process.env.GLOSSA_TEST_TEMPLATE_DB = template;
}
