#!/usr/bin/env node
// Validates an OpenAPI document with Redocly's linter (@redocly/openapi-core, the engine of `redocly lint`):
// the OpenAPI 3 structure (`struct`), resolvable $refs, defined path parameters and security schemes,
// unique operationIds, plus the "recommended-strict" rules that make a document SDK-friendly (every
// operation has an operationId, a summary, a 2xx and a 4xx response). Then checks what SDK generators
// turn into method names: every operationId is camelCase.
//
//   npm run openapi:validate                     # openapi/openapi.json
//   npm run openapi:validate -- http://localhost:8000/api/schema/
import { createConfig, formatProblems, getTotals, lint } from '@redocly/openapi-core';
import { readFileSync } from 'node:fs';

const ref = process.argv[2] ?? 'openapi/openapi.json';

const config = await createConfig({
  extends: ['recommended-strict'],
  rules: {
    // Weblate's API paths all end with `/` (shared/reference/weblate-api.md §1.1); clients must call them so.
    'no-path-trailing-slash': 'off',
    'operation-operationId': 'error',
    'operation-summary': 'error',
    'operation-4xx-response': 'error',
    'operation-2xx-response': 'error',
    'security-defined': 'error',
  },
});

// The operator endpoints (/healthz, /readyz, /metrics) answer every GET: they have no client error to
// describe, so the 4xx rule does not apply to them (src/openapi/openapi-document.ts, OPERATOR_PATHS).
const OPERATOR_POINTERS = ['#/paths/~1healthz/', '#/paths/~1readyz/', '#/paths/~1metrics/'];
const exempt = (problem) =>
  problem.ruleId === 'operation-4xx-response' && problem.location.some((place) => OPERATOR_POINTERS.some((prefix) => place.pointer?.startsWith(prefix)));

const problems = (await lint({ ref, config })).filter((problem) => !exempt(problem));
const totals = getTotals(problems);
if (problems.length > 0) formatProblems(problems, { format: 'codeframe', totals, version: 'openapi-core', maxProblems: 50 });

const document = JSON.parse(ref.startsWith('http') ? await (await globalThis.fetch(ref)).text() : readFileSync(ref, 'utf8'));
const badIds = [];
let operations = 0;
for (const [path, item] of Object.entries(document.paths ?? {})) {
  for (const [method, operation] of Object.entries(item)) {
    if (!['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'].includes(method)) continue;
    operations += 1;
    if (!/^[a-z][A-Za-z0-9]*$/.test(operation.operationId ?? '')) badIds.push(`${method.toUpperCase()} ${path}: ${operation.operationId}`);
  }
}
for (const line of badIds) console.error(`operationId is not camelCase: ${line}`);

const failed = totals.errors + totals.warnings + badIds.length;
console.log(`${ref}: ${operations} operations, ${totals.errors} errors, ${totals.warnings} warnings, ${badIds.length} bad operationIds`);
process.exit(failed > 0 ? 1 : 0);
