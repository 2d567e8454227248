// ESLint flat config. `npm run lint` runs `eslint src test` (plus dependency-cruiser for the import graph).
// Syntax-only rules on purpose: no type-aware (parserOptions.project) rules, so linting stays fast and
// does not re-run the TypeScript program that `npm run typecheck` already checks.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

// The Node.js globals the plain-JS scripts use (kept inline instead of adding the `globals` package).
const nodeGlobals = Object.fromEntries(
  [
    'process',
    'console',
    'Buffer',
    'URL',
    'URLSearchParams',
    'TextDecoder',
    'TextEncoder',
    'structuredClone',
    'setTimeout',
    'clearTimeout',
    'setInterval',
    'clearInterval',
    'setImmediate',
    'queueMicrotask',
    'globalThis',
  ].map((name) => [name, 'readonly']),
);

export default tseslint.config(
  {
    ignores: ['dist/', 'node_modules/', 'coverage/', 'data/', 'bench-results/', 'openapi/'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    rules: {
      // Matching control characters is the point in several places (JSON string escaping, rejecting them in
      // git identities, repository URLs and file masks), so the regexes that do it are not mistakes.
      'no-control-regex': 'off',
      // `_`-prefixed parameters/variables are deliberately unused (interface signatures, Nest hooks).
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          args: 'after-used',
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          caughtErrorsIgnorePattern: '^_',
          destructuredArrayIgnorePattern: '^_',
          ignoreRestSiblings: true,
        },
      ],
    },
  },
  {
    // TypeORM's DataSourceOptions.migrations takes migration classes typed as `Function[]`.
    files: ['src/database/migrations/index.ts'],
    rules: { '@typescript-eslint/no-unsafe-function-type': 'off' },
  },
  {
    // Plain-JS ESM scripts run by Node (npm run languages:generate).
    files: ['scripts/**/*.mjs', 'scripts/**/*.js'],
    languageOptions: { sourceType: 'module', globals: nodeGlobals },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { ...nodeGlobals, module: 'writable', require: 'readonly', __dirname: 'readonly' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
