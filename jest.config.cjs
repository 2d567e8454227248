// Jest runs in native ESM mode: Nest 12 packages are ESM-only and Jest can only
// require(esm) on Node >= 24.9 (see shared/reference/stack-evaluation.md §4).
module.exports = {
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
