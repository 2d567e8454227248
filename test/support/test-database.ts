import { randomBytes } from 'node:crypto';
import { quoteIdent, withClient, withDatabase } from './database-server';
import { openEmbeddedTestDatabase } from './embedded-test-database';

export interface TestDatabase {
  /**
   * Connection URL of a database that holds the migrated schema and what the service's start-up writes
   * (test/support/template-start.ts): no project, no administrator.
   */
  url: string;
  drop(): Promise<void>;
}

/**
 * The embedded database process of this Jest worker: the global setup starts one per worker (a PGlite serves
 * one session), and Jest numbers its workers from 1 (JEST_WORKER_ID, kept when a worker is replaced after
 * `workerIdleMemoryLimit`).
 */
function embeddedUrlOfThisWorker(): string {
  const urls = (process.env.GLOSSA_TEST_EMBEDDED_URL ?? '').split(' ').filter(Boolean);
  if (urls.length === 0) {
    throw new Error(
      'The test global setup did not prepare a database (jest.config.cjs globalSetup; none in the second Jest run of `npm test`, scripts/test.mjs, whose files start their own servers).',
    );
  }
  const worker = Number(process.env.JEST_WORKER_ID ?? '1');
  const url = urls[worker - 1];
  if (!url) throw new Error(`Jest worker ${worker} has no embedded database: the global setup started ${urls.length} (one per worker of maxWorkers).`);
  return url;
}

/**
 * A fresh, migrated database for one test file. On PostgreSQL it is a new database cloned from the run's
 * template (fast, isolated); on the embedded database a fresh PGlite on a copy of the run's migrated template,
 * in this worker's database process (which closes what earlier files of the worker left open).
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const serverUrl = process.env.GLOSSA_TEST_SERVER_URL;
  const template = process.env.GLOSSA_TEST_TEMPLATE_DB;
  if (serverUrl && template) {
    const name = `glossa_test_${randomBytes(6).toString('hex')}`;
    await withClient(serverUrl, async (client) => {
      await client.query(`CREATE DATABASE ${quoteIdent(name)} TEMPLATE ${quoteIdent(template)}`);
      // Commits of this throw-away database do not wait for the WAL to reach the disk: on this machine a
      // commit took 2–3 ms with the flush and 0.3 ms without (docs/performance.md "npm test in parallel"),
      // and every write request commits at least once. Only a crash of PostgreSQL itself could lose such a
      // commit, which no test causes (the durability suites kill Glossa, not the database server).
      await client.query(`ALTER DATABASE ${quoteIdent(name)} SET synchronous_commit = off`);
    });
    return {
      url: withDatabase(serverUrl, name),
      drop: () =>
        withClient(serverUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`)).then(
          () => undefined,
        ),
    };
  }
  return openEmbeddedTestDatabase(embeddedUrlOfThisWorker());
}
