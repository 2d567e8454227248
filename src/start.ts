import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import * as path from 'node:path';
import { EMBEDDED_HEAP_FLAGS, heapFlagsFor, withHeapFlags } from './bootstrap/heap-flags';

/**
 * `npm start`'s entry (package.json "start"). Its command line carries the embedded database's heap limits,
 * which V8 fixes when a process starts (bootstrap/heap-flags.ts). On the embedded database this process is
 * the server: it loads main.js, and nothing runs beside PGlite. On PostgreSQL the server wants a larger young
 * generation, so this process starts main.js in a child with the same flags and PostgreSQL's limits, passes
 * SIGINT, SIGTERM and SIGHUP on to it and ends with its exit status. The container image picks the limits in
 * its entrypoint instead (scripts/container-entrypoint.sh), without a second process.
 */
const heap = heapFlagsFor(process.env);
const flags = withHeapFlags(process.execArgv, heap);

// On the embedded database the command line's flags stand, whatever they are (README "Memory": your own limits).
if (heap === EMBEDDED_HEAP_FLAGS || flags.join(' ') === process.execArgv.join(' ')) {
  void import('./main.js');
} else {
  const server = spawn(process.execPath, [...flags, path.join(__dirname, 'main.js'), ...process.argv.slice(2)], { stdio: 'inherit' });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    // A terminal's Ctrl-C reaches both processes (one process group); main.ts stops once however often it is told.
    process.on(signal, () => server.kill(signal));
  }
  server.on('error', (error) => {
    console.error(`Could not start the server: ${error.message}`);
    process.exit(1);
  });
  server.on('exit', (code, signal) => process.exit(code ?? 128 + (signal === null ? 0 : constants.signals[signal])));
}
