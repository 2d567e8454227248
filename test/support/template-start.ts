import { execFile } from 'node:child_process';
import * as path from 'node:path';
import { promisify } from 'node:util';

/** The file the child Jest runs; its name matches no test pattern of jest.config.cjs, so no other run picks it up. */
const JOB_FILE = 'test/setup/template-start.job.ts';

/**
 * The child's environment: its own global setup prepares no database (GLOSSA_TEST_DATABASE=none, as in the second
 * run of scripts/test.mjs), and it knows none of the run's databases, so its global teardown can never drop the
 * template it is preparing (test/setup/global-teardown.ts drops what GLOSSA_TEST_TEMPLATE_DB names).
 */
function childEnvironment(databaseUrl: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, GLOSSA_TEST_DATABASE: 'none', GLOSSA_TEMPLATE_START_URL: databaseUrl };
  for (const name of ['GLOSSA_TEST_SERVER_URL', 'GLOSSA_TEST_TEMPLATE_DB', 'GLOSSA_TEST_EMBEDDED_URL']) delete env[name];
  return env;
}

/**
 * Starts the service once on the run's template database and stops it again, so that every test file's
 * database is one the service has already started on: its start-up writes (the language table's 710 rows,
 * the built-in roles and groups, pg-boss's schema and its queues with a partition table and eight indexes
 * each) were made again on every test file's fresh copy, about a quarter of a second per file on the embedded
 * database (docs/performance.md "npm test, session 13"). Each test app still runs the whole start-up; on this
 * database it finds everything in place, as a restarted server does. No administrator (ADMIN_TOKEN) and no
 * demo: those stay each file's own choice.
 *
 * The service runs in a child Jest (one file, in band) rather than in the global setup's own process, Jest's
 * parent: loaded there, the application's modules stayed resident for the whole run (the parent grew from
 * about 120 to 320 MB, against the 2 GB budget of `npm test` on the embedded database).
 */
export async function startServiceOnce(databaseUrl: string): Promise<void> {
  const root = process.cwd();
  try {
    await promisify(execFile)(
      process.execPath,
      [
        '--no-concurrent-recompilation',
        '--experimental-vm-modules',
        path.join(root, 'node_modules/jest/bin/jest.js'),
        '--runInBand',
        '--ci',
        `--testRegex=${JOB_FILE.replace(/\./g, '\\.')}$`,
        JOB_FILE,
      ],
      { cwd: root, env: childEnvironment(databaseUrl), maxBuffer: 16 * 1024 * 1024 },
    );
  } catch (error) {
    const { stdout, stderr, message } = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(`Starting the service on the test template failed (${JOB_FILE}): ${message}\n${stdout ?? ''}${stderr ?? ''}`, { cause: error });
  }
}
