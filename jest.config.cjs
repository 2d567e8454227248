// Jest runs in native ESM mode: Nest 12 packages are ESM-only and Jest can only
// require(esm) on Node >= 24.9 (see shared/reference/stack-evaluation.md §4).

// The same choice as test/support/database-server.ts serverUrlFromEnv() (this file cannot import TypeScript).
const onPostgres = Boolean(process.env.TEST_DATABASE_URL?.trim() || process.env.DATABASE_URL?.trim());

module.exports = {
  // Two workers, one per core of the 2-core CI machine: one worker left a core idle whenever a file waited on
  // the database, git or a child server (docs/performance.md "npm test in parallel"). On PostgreSQL every test
  // file gets its own database cloned from the run's template (test/support/test-database.ts) and its own data
  // directory, ports and HOME for wlc. On the embedded database each worker has its own database process, and
  // each file a fresh PGlite on a copy of a migrated template (test/support/embedded-test-database.ts), so the
  // two workers' databases run on both cores too (session 8). `--maxWorkers` on the command line overrides this.
  maxWorkers: 2,
  // Jest replaces a worker whose heap holds more than this after a test file: each file evaluates its import
  // graph in a fresh module registry, and the registries' leftovers add up (a worker reached 2.5 GB resident in
  // session 7). A bound on memory, not a speed setting. On the embedded database the whole run must stay under
  // 2 GB (issue 15 item 5) beside two database processes of ~0.3 GB each, so the bound is lower there; a
  // replaced worker costs a process start (docs/performance.md, sessions 8 and 11: with the first starts in a
  // Jest run of their own, two workers in heavy files beside the two databases are the run's peak).
  workerIdleMemoryLimit: onPostgres ? '2GB' : '200MB',
  testEnvironment: 'node',
  testRegex: '.*\\.(e2e-)?spec\\.ts$',
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: {
    '^.+\\.ts$': [
      'ts-jest',
      {
        useESM: true,
        tsconfig: {
          module: 'esnext',
          moduleResolution: 'bundler',
          target: 'es2022',
          isolatedModules: true,
          experimentalDecorators: true,
          emitDecoratorMetadata: true,
          esModuleInterop: true,
          resolveJsonModule: true,
          skipLibCheck: true,
          strict: true,
          strictPropertyInitialization: false,
          types: ['node', 'jest'],
        },
      },
    ],
  },
  globalSetup: '<rootDir>/test/setup/global-setup.ts',
  setupFilesAfterEnv: ['<rootDir>/test/setup/each-file.ts'],
  globalTeardown: '<rootDir>/test/setup/global-teardown.ts',
  // A safety net for a test that never ends, not an expected duration: tests wait on events, and a loaded
  // machine only makes them slower (test/support/wait.ts TEST_TIMEOUT_MS, which must stay equal).
  testTimeout: 300000,
};
