// One Jest worker's embedded database, in a process of its own (test/setup/global-setup.ts starts one per
// worker; docs/performance.md "npm test on the embedded database, session 8").
//
// Why a process: PGlite runs PostgreSQL on the thread of the process that holds it. In Jest's parent, the
// databases of all workers took turns on that one thread; here each worker's database has its own.
// Why a fresh PGlite per test file, opened on a copy of a migrated template directory: a copy of ~40 MB on
// tmpfs takes a fraction of the drop-and-migrate it replaces, and a WebAssembly memory never shrinks, so a
// PGlite kept for the whole run only grew; closing it after each file returns its memory.
//
// Plain CommonJS because Node runs it as is (no ts-jest in this process). Its only input is argv[2], JSON:
// { template, workDir, startParams, maxConnections }. It answers on a loopback HTTP port it reports to its
// parent over IPC:
//   POST /open?owner=X  copies the template and opens it; answers { id, url }. Databases opened for another
//                       owner (an earlier test file of the worker) are closed first: a file that never drops
//                       its database does not keep it for the rest of the run.
//   POST /close?id=N    closes database N and removes its copy.
//   POST /template      opens the template directory itself (PGlite runs initdb in it when it is empty), for
//                       the global setup to migrate; closing it keeps the directory.
// It exits when its parent goes away (the IPC channel closes), so a killed Jest leaves no database behind.
const { PGlite } = require('@electric-sql/pglite');
const { pg_trgm } = require('@electric-sql/pglite/contrib/pg_trgm');
const { PGLiteSocketServer } = require('@electric-sql/pglite-socket');
const fs = require('node:fs');
const http = require('node:http');
const path = require('node:path');

const { template, workDir, startParams, maxConnections } = JSON.parse(process.argv[2]);
const open = new Map(); // id → { db, server, dir, keep, owner }
let opened = 0;
// Requests are handled one at a time: a database must never be copied or opened while another request
// closes it.
let queue = Promise.resolve();

async function close(id) {
  const database = open.get(id);
  if (!database) return;
  open.delete(id);
  await database.server.stop();
  await database.db.close();
  if (!database.keep) fs.rmSync(database.dir, { recursive: true, force: true });
  // The closed instance's WebAssembly memory (the bulk of this process) goes back to the system only when it
  // is collected: collect it now rather than beside the next file's instance (started with --expose-gc).
  globalThis.gc?.();
}

async function openDatabase(owner) {
  const id = ++opened;
  let dir = template;
  if (owner !== undefined) {
    for (const [other, database] of open) if (database.owner !== owner) await close(other);
    dir = path.join(workDir, `db-${id}`);
    fs.cpSync(template, dir, { recursive: true });
  }
  const db = await PGlite.create(dir, { extensions: { pg_trgm }, startParams });
  const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections });
  await server.start();
  open.set(id, { db, server, dir, keep: owner === undefined, owner });
  return { id, url: `postgres://postgres:postgres@${server.getServerConn()}/postgres?sslmode=disable` };
}

const routes = {
  '/open': (query) => openDatabase(query.get('owner') ?? ''),
  '/template': () => openDatabase(undefined),
  '/close': (query) => close(Number(query.get('id'))).then(() => ({})),
};

const control = http.createServer((request, response) => {
  const url = new URL(request.url, 'http://localhost');
  const route = request.method === 'POST' ? routes[url.pathname] : undefined;
  request.resume();
  if (!route) {
    response.writeHead(404).end();
    return;
  }
  const done = queue.then(() => route(url.searchParams));
  queue = done.catch(() => undefined);
  done.then(
    (body) => response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body)),
    (error) => response.writeHead(500, { 'content-type': 'text/plain' }).end(String((error && error.stack) || error)),
  );
});

async function shutdown(code) {
  control.close();
  await queue;
  for (const id of [...open.keys()]) await close(id).catch(() => undefined);
  fs.rmSync(workDir, { recursive: true, force: true });
  process.exit(code);
}

process.on('disconnect', () => void shutdown(0));
fs.mkdirSync(workDir, { recursive: true });
control.listen(0, '127.0.0.1', () => process.send({ control: `http://127.0.0.1:${control.address().port}` }));
