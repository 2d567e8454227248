#!/usr/bin/env node
// `npm start`'s pre-step (issue 15 "The first hour"): compile the service only when its inputs changed since
// the last build, so a restart takes seconds instead of a full `tsc` run.
//
// The inputs are every file under src/ that tsconfig.build.json compiles, the two tsconfig files and
// package-lock.json (a dependency upgrade changes the types tsc checks against). Their contents, not their
// modification times, are hashed: a `git checkout` that restores the same bytes needs no rebuild, and a clock
// skew cannot hide a change. The hash of the last successful build is kept in dist/.build-inputs; it is
// written only after tsc succeeded, so a failed build is retried on the next start.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const STAMP = path.join(ROOT, 'dist', '.build-inputs');
const ENTRY = path.join(ROOT, 'dist', 'main.js');

/** Files tsconfig.build.json compiles: src/**, without the unit tests it excludes. */
function sourceFiles(directory) {
  const files = [];
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    const full = path.join(directory, entry.name);
    if (entry.isDirectory()) files.push(...sourceFiles(full));
    else if (!entry.name.endsWith('.spec.ts')) files.push(full);
  }
  return files;
}

function inputsHash() {
  const hash = createHash('sha256');
  const files = [...sourceFiles(path.join(ROOT, 'src')), ...['tsconfig.json', 'tsconfig.build.json', 'package-lock.json'].map((f) => path.join(ROOT, f))];
  for (const file of files.sort()) {
    if (!existsSync(file)) continue;
    // The relative path is part of the hash: a renamed file changes the output layout.
    hash.update(path.relative(ROOT, file)).update('\0').update(readFileSync(file)).update('\0');
  }
  return hash.digest('hex');
}

const force = process.argv.includes('--force');
const current = inputsHash();
const previous = existsSync(STAMP) ? readFileSync(STAMP, 'utf8').trim() : '';
if (!force && previous === current && existsSync(ENTRY)) {
  console.log('dist/ is up to date with src/ (no compile needed).');
} else {
  console.log('Compiling the service (src/ changed since the last build)…');
  execFileSync(process.execPath, [path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', path.join(ROOT, 'tsconfig.build.json')], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  writeFileSync(STAMP, `${current}\n`);
}
