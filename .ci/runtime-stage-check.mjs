#!/usr/bin/env node
// The Dockerfile's runtime stage, checked without a Docker engine (issue 4 "Container"): in a clean
// temporary directory, lay out what the runtime image holds (package.json, `npm ci --omit=dev`, dist/, the
// files the server reads at run time), run the documented one-shot `node dist/cli.js migrate`, start
// `node dist/main.js` in production mode against a fresh database, run the Dockerfile's own HEALTHCHECK
// command, check /readyz and the API, then stop it with SIGTERM and require a clean exit.
//
// Every command runs as `docker run` runs it, through the ENTRYPOINT's script (without tini), whose choice of
// heap limits by database is checked too.
//
// Usage: node .ci/runtime-stage-check.mjs <postgres server URL>   (dist/ must be built: npm run build)
import { execFileSync, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';

const root = resolve(import.meta.dirname, '..');
const serverUrl = process.argv[2];
if (!serverUrl) throw new Error('usage: runtime-stage-check.mjs <postgres server URL>');
if (!existsSync(join(root, 'dist/main.js'))) throw new Error('dist/ is not built (npm run build)');

const dockerfile = readFileSync(join(root, 'Dockerfile'), 'utf8');
// What the runtime stage copies from the build context besides node_modules and dist (COPY lines without --from).
const copied = [...dockerfile.split('# ---- runtime')[1].matchAll(/^COPY (?!--from)(\S+) /gm)].map((m) => m[1]);
// The HEALTHCHECK's exec-form CMD, run exactly as Docker would.
const healthcheck = JSON.parse(/HEALTHCHECK[^\n]*\\\n\s*CMD (\[.*\])/.exec(dockerfile)[1]);
// The runtime stage's ENV (NODE_OPTIONS and the allocator settings included: the server runs as in the image).
const runtimeEnv = Object.fromEntries(
  [...dockerfile.split('# ---- runtime')[1].matchAll(/^(?:ENV)?\s+([A-Z_]+)=("[^"]*"|\S+)/gm)].map((m) => [m[1], m[2].replace(/^"(.*)"$/, '$1')]),
);
// The image's own CMD (the last line starting with CMD; the HEALTHCHECK's is indented).
const serverCommand = JSON.parse(/^CMD (\[.*\])$/m.exec(dockerfile)[1]);
// The ENTRYPOINT every command of the image runs through, without tini (PID 1 in the image, not installed
// here): its script, with the image's WORKDIR /app being the layout's directory.
const entrypoint = JSON.parse(/^ENTRYPOINT (\[.*\])$/m.exec(dockerfile)[1]);
if (entrypoint[0] !== '/usr/bin/tini' || entrypoint[1] !== '--') throw new Error(`the ENTRYPOINT should start with tini: ${entrypoint.join(' ')}`);
const entrypointScript = entrypoint.slice(2);

const work = mkdtempSync(join(tmpdir(), 'glossa-runtime-'));
const dbName = `glossa_runtime_${process.pid}_${Date.now()}`;
const admin = new pg.Client({ connectionString: serverUrl });
let child;

function step(text) {
  console.log(`-- ${text}`);
}

async function freePort() {
  return new Promise((done, fail) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => done(port));
    });
    server.on('error', fail);
  });
}

try {
  step(`layout in ${work}: package.json, package-lock.json, npm ci --omit=dev, dist/, ${copied.filter((p) => p !== 'package.json').join(', ')}`);
  cpSync(join(root, 'package.json'), join(work, 'package.json'));
  cpSync(join(root, 'package-lock.json'), join(work, 'package-lock.json'));
  execFileSync('npm', ['ci', '--omit=dev', '--no-audit', '--no-fund', '--ignore-scripts'], { cwd: work, stdio: 'inherit' });
  rmSync(join(work, 'package-lock.json')); // the runtime image has only package.json
  cpSync(join(root, 'dist'), join(work, 'dist'), { recursive: true });
  for (const path of copied) if (path !== 'package.json') cpSync(join(root, path), join(work, path), { recursive: true });

  await admin.connect();
  await admin.query(`CREATE DATABASE "${dbName}"`);
  const url = new URL(serverUrl);
  url.pathname = `/${dbName}`;
  const port = await freePort();
  const env = {
    PATH: process.env.PATH,
    HOME: work,
    ...runtimeEnv,
    DATA_DIR: join(work, 'data'),
    PORT: String(port),
    DATABASE_URL: url.toString(),
    SITE_URL: 'http://glossa.example',
    ADMIN_TOKEN: 'wlu_runtimestagecheck0000000000000000000000',
  };
  if (env.NODE_ENV !== 'production') throw new Error(`the runtime stage should set NODE_ENV=production, found ${env.NODE_ENV}`);
  // A command as `docker run` runs it: through the entrypoint's script (in the layout, not in /app).
  const viaEntrypoint = (command) => [...entrypointScript.map((word) => word.replace(/^\/app\//, `${work}/`)), ...command];
  // The heap limits the server's own rule gives (src/bootstrap/heap-flags.ts), from the layout's dist/.
  const { EMBEDDED_HEAP_FLAGS, POSTGRES_HEAP_FLAGS } = createRequire(import.meta.url)(join(work, 'dist/bootstrap/heap-flags.js'));

  step(`entrypoint: ${entrypointScript.join(' ')} puts the heap limits for the database in NODE_OPTIONS, and keeps an operator's own`);
  const nodeOptionsOf = (runEnv) => {
    const [command, ...args] = viaEntrypoint(['node', '-e', 'process.stdout.write(JSON.stringify(process.env.NODE_OPTIONS ?? null))']);
    return JSON.parse(execFileSync(command, args, { cwd: work, env: runEnv, encoding: 'utf8' }));
  };
  const { DATABASE_URL: _databaseUrl, ...embedded } = env;
  const found = {
    postgres: nodeOptionsOf(env),
    embedded: nodeOptionsOf(embedded),
    operator: nodeOptionsOf({ ...env, NODE_OPTIONS: '--max-old-space-size=512' }),
    operatorEmpty: nodeOptionsOf({ ...env, NODE_OPTIONS: '' }),
  };
  const expected = { postgres: POSTGRES_HEAP_FLAGS.join(' '), embedded: EMBEDDED_HEAP_FLAGS.join(' '), operator: '--max-old-space-size=512', operatorEmpty: '' };
  for (const key of Object.keys(expected)) {
    if (found[key] !== expected[key]) throw new Error(`entrypoint, ${key}: NODE_OPTIONS ${JSON.stringify(found[key])}, expected ${JSON.stringify(expected[key])}`);
  }

  step('one-shot migrations: node dist/cli.js migrate (through the entrypoint)');
  const [migrateCommand, ...migrateArgs] = viaEntrypoint(['node', 'dist/cli.js', 'migrate']);
  const migrated = execFileSync(migrateCommand, migrateArgs, { cwd: work, env, encoding: 'utf8' });
  if (!/Applied /.test(migrated)) throw new Error(`migrate applied nothing on an empty database:\n${migrated}`);
  process.stdout.write(migrated);

  const [startCommand, ...startArgs] = viaEntrypoint(serverCommand);
  step(`start: ${[startCommand, ...startArgs].join(' ')} (NODE_ENV=production)`);
  let output = '';
  child = spawn(startCommand, startArgs, { cwd: work, env, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise((done) => child.on('exit', (code) => done(code)));

  step(`HEALTHCHECK: ${healthcheck.join(' ')}`);
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      execFileSync(healthcheck[0], healthcheck.slice(1), { cwd: work, env, stdio: 'ignore' });
      break;
    } catch {
      if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}:\n${output}`);
      if (Date.now() > deadline) throw new Error(`the health check did not pass within 60 s:\n${output}`);
      await new Promise((done) => setTimeout(done, 500));
    }
  }
  const ready = await fetch(`http://127.0.0.1:${port}/readyz`);
  if (ready.status !== 200) throw new Error(`/readyz answered ${ready.status}: ${await ready.text()}`);
  const api = await fetch(`http://127.0.0.1:${port}/api/projects/`, { headers: { Authorization: `Token ${env.ADMIN_TOKEN}` } });
  if (api.status !== 200) throw new Error(`/api/projects/ answered ${api.status}`);
  const firstLine = output.split('\n').find(Boolean);
  JSON.parse(firstLine); // logs are JSON lines
  // The script execs the command: the process answering is node itself (so tini's signals reach it), with
  // PostgreSQL's heap limits.
  const serverEnviron = readFileSync(`/proc/${child.pid}/environ`, 'utf8').split('\0');
  const serverArgv = readFileSync(`/proc/${child.pid}/cmdline`, 'utf8').split('\0');
  if (!serverArgv.includes('dist/main.js')) throw new Error(`the entrypoint did not exec the server: ${serverArgv.join(' ')}`);
  if (!serverEnviron.includes(`NODE_OPTIONS=${expected.postgres}`)) throw new Error(`the server runs without PostgreSQL's heap limits in NODE_OPTIONS`);

  step('SIGTERM: graceful shutdown');
  child.kill('SIGTERM');
  const code = await exited;
  if (code !== 0) throw new Error(`exit code ${code} after SIGTERM:\n${output}`);
  console.log('runtime stage OK: migrate, start, HEALTHCHECK, /readyz, API, graceful stop');
} finally {
  if (child && child.exitCode === null) child.kill('SIGKILL');
  await admin.query(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`).catch(() => undefined);
  await admin.end().catch(() => undefined);
  rmSync(work, { recursive: true, force: true });
}
