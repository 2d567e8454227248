import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { buildDataSourceOptions } from '../../src/database/data-source-options';
import { quoteIdent, withClient, withDatabase } from './database-server';

export interface TestDatabase {
  /** Connection URL of a database that holds the migrated schema and nothing else. */
  url: string;
  drop(): Promise<void>;
}

/**
 * A fresh, migrated database for one test file. On PostgreSQL it is a new database cloned from the run's
 * template (fast, isolated); on the embedded database the single schema is dropped and migrated again.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const serverUrl = process.env.GLOSSA_TEST_SERVER_URL;
  const template = process.env.GLOSSA_TEST_TEMPLATE_DB;
  if (serverUrl && template) {
    const name = `glossa_test_${randomBytes(6).toString('hex')}`;
    await withClient(serverUrl, (client) =>
      client.query(`CREATE DATABASE ${quoteIdent(name)} TEMPLATE ${quoteIdent(template)}`),
    );
    return {
      url: withDatabase(serverUrl, name),
      drop: () =>
        withClient(serverUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`)).then(
          () => undefined,
        ),
    };
  }
  const embeddedUrl = process.env.GLOSSA_TEST_EMBEDDED_URL;
  if (!embeddedUrl) throw new Error('The test global setup did not prepare a database (jest.config.cjs globalSetup).');
  await withClient(embeddedUrl, (client) => client.query('DROP SCHEMA public CASCADE; CREATE SCHEMA public'));
  const dataSource = new DataSource(buildDataSourceOptions(embeddedUrl, 1));
  await dataSource.initialize();
  try {
    await dataSource.runMigrations();
  } finally {
    await dataSource.destroy();
  }
  return { url: embeddedUrl, drop: async () => undefined };
}
