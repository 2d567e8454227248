#!/usr/bin/env node
// `npm test`: Jest, run so that the whole run on the embedded database stays under 2 GB of memory (issue 15
// item 5; docs/performance.md "npm test on the embedded database, session 11").
//
// An embedded first start (a server on a fresh DATA_DIR without DATABASE_URL) runs PGlite's initdb in a child of
// 0.7–0.8 GB that no setting makes smaller. Beside two Jest workers that have run files (250–500 MB each: a
// worker's resident size only grows, and jest-worker's workerIdleMemoryLimit looks at its heap, not at that) and
// the workers' two database processes (about 200 MB each), the run peaked at 2.1–2.4 GB. So on the embedded
// database, `npm test` runs Jest twice: first every other file, then the files that do a first start, once the
// first run's workers and databases are gone. The second run needs no test database (those files start their
// own servers), so its global setup prepares none.
//
// On PostgreSQL (TEST_DATABASE_URL/DATABASE_URL), Jest runs once. Without arguments, either way, the files run in
// groups (scripts/test-groups.mjs: one module registry per group instead of per file). With arguments
// (`npm test -- <paths or Jest options>`), Jest runs once, on the files as they are, with the arguments as given.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import { constants } from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeTestGroups } from './test-groups.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * The test files that do an embedded first start. test/support/server-process.ts refuses a first start in the
 * first run, so a file that starts doing one fails there until it is listed here.
 */
const FIRST_START_FILES = ['test/e2e/embedded-start.e2e-spec.ts', 'test/e2e/cli-embedded.e2e-spec.ts'];

/** Jest matches these against absolute paths, as regular expressions. */
const pattern = (file) => `/${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`;

/** The signal that stopped `npm test` (Ctrl-C, CI's timeout): passed on to Jest, and no further run starts. */
let stoppedBy;

function jest(args, env = {}) {
  const child = spawn(
    process.execPath,
    ['--no-concurrent-recompilation', '--experimental-vm-modules', path.join(ROOT, 'node_modules/jest/bin/jest.js'), ...args],
    { cwd: ROOT, stdio: 'inherit', env: { ...process.env, ...env } },
  );
  const forward = (signal) => {
    stoppedBy = signal;
    child.kill(signal);
  };
  process.on('SIGINT', forward).on('SIGTERM', forward);
  return new Promise((resolve) =>
    child.once('exit', (code, signal) => {
      process.off('SIGINT', forward).off('SIGTERM', forward);
      resolve(code ?? 128 + (constants.signals[signal] ?? 0));
    }),
  );
}

const args = process.argv.slice(2);
const onPostgres = Boolean(process.env.TEST_DATABASE_URL?.trim() || process.env.DATABASE_URL?.trim());
if (args.length > 0) {
  process.exitCode = await jest(args);
} else {
  const { directory, groups, fileCount } = writeTestGroups(ROOT, { exclude: onPostgres ? [] : FIRST_START_FILES });
  console.log(`npm test: ${fileCount} test files in ${groups.length} groups (scripts/test-groups.mjs)`);
  try {
    const grouped = await jest([`--roots=${directory}`], onPostgres ? {} : { GLOSSA_TEST_FIRST_STARTS: 'later' });
    if (onPostgres || stoppedBy) {
      process.exitCode = grouped || (stoppedBy ? 1 : 0);
    } else {
      console.log(`\nnpm test: now the files that do an embedded first start, alone (scripts/test.mjs): ${FIRST_START_FILES.join(', ')}\n`);
      const firstStarts = await jest(FIRST_START_FILES.map(pattern), { GLOSSA_TEST_DATABASE: 'none' });
      process.exitCode = grouped || firstStarts;
      if (grouped) console.log('\nnpm test: the first run (all files but the first-start ones) failed; see its summary above.');
    }
  } finally {
    fs.rmSync(directory, { recursive: true, force: true });
  }
}
