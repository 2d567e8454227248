// Jest runs in native ESM mode: Nest 12 packages are ESM-only and Jest can only
// require(esm) on Node >= 24.9 (see shared/reference/stack-evaluation.md §4).

// The same choice as test/support/database-server.ts serverUrlFromEnv() (this file cannot import TypeScript).
const onPostgres = Boolean(process.env.TEST_DATABASE_URL?.trim() || process.env.DATABASE_URL?.trim());

module.exports = {
  // On PostgreSQL every test file gets its own database cloned from the run's template
  // (test/support/test-database.ts) and its own data directory, ports and HOME for wlc, so two files can run
  // at once: one worker per core of the 2-core CI machine, where one worker left a core idle whenever a file
  // waited on the database, git or a child server (docs/performance.md "npm test in parallel"). On the
  // embedded database the global setup starts one PGlite per worker in Jest's parent; one worker by default
  // there, since each further PGlite holds about 0.35 GB against issue 15's 2 GB target (`--maxWorkers=2`
  // works and took 30 % less time on a subset). `--maxWorkers` on the command line overrides this.
  maxWorkers: onPostgres ? 2 : 1,
  // Jest replaces a worker that holds more than this after a test file (each file evaluates its import graph
  // in a fresh module registry, and the registries' leftovers add up): a bound on memory, not a speed setting.
  workerIdleMemoryLimit: '2GB',
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
  globalTeardown: '<rootDir>/test/setup/global-teardown.ts',
  // A safety net for a test that never ends, not an expected duration: tests wait on events, and a loaded
  // machine only makes them slower (test/support/wait.ts TEST_TIMEOUT_MS, which must stay equal).
  testTimeout: 300000,
};
