import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { heapFlagsFor, withHeapFlags } from '../../src/bootstrap/heap-flags';
import { withCheckoutLock } from './checkout-locks';
import { PATIENCE_MS, pause, pollUntil } from './wait';

// A real server process (`node dist/main.js`, as the container and `npm start` (src/start.ts) run it), for tests
// that start several, stop, kill or restart the server (multi-process, durability, embedded start).

// Jest runs from the repository root (jest.config.cjs); ESM test modules have no __dirname.
const ROOT = process.cwd();

/**
 * The Node.js flags `npm start` runs the server with for `env` (package.json "start" is `node <flags>
 * dist/start.js`; src/start.ts gives the server PostgreSQL's heap limits on PostgreSQL), so the tests run the
 * server with the heap limits an operator gets (README "Memory").
 */
function startFlags(env: Record<string, string>): string[] {
  return withHeapFlags(npmStartArguments().slice(0, -1), heapFlagsFor(env));
}

/** What `npm start` runs after `node` (package.json "start": its flags and dist/start.js). */
export function npmStartArguments(): string[] {
  const words = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start.trim().split(/\s+/);
  if (words[0] !== 'node') throw new Error(`package.json "start" does not run node: ${words.join(' ')}`);
  return words.slice(1);
}

/**
 * Compiles the current sources into dist/ when they changed since the last build (`npm start`'s step,
 * scripts/build-if-changed.mjs), so the processes run what the tests read and the test files after the first
 * do not pay for tsc again. Under a lock: a second worker's `tsc` would rewrite dist/ while the first worker's
 * server processes load it; the second then finds dist/ up to date.
 */
export async function compileServer(): Promise<void> {
  await withCheckoutLock('build', 'compile', async () => {
    try {
      await promisify(execFile)(process.execPath, [path.join(ROOT, 'scripts/build-if-changed.mjs')], { cwd: ROOT, maxBuffer: 16 * 1024 * 1024 });
    } catch (error) {
      const { stdout, stderr, message } = error as { stdout?: string; stderr?: string; message: string };
      throw new Error(`scripts/build-if-changed.mjs failed: ${message}\n${stdout ?? ''}${stderr ?? ''}`, { cause: error });
    }
  });
}

/**
 * Ports for the servers of this process's tests. Asking the kernel for port 0 and closing it races: two Jest
 * workers (or two checkouts' suites) could be handed the same port before either server binds it, and a port
 * in the ephemeral range can be taken in between as the local end of any outgoing connection (a database
 * client, fetch). So each worker walks its own stretch of ports below Linux's ephemeral range (32768+),
 * placed by its Jest worker id and the Jest parent's pid, and skips a port it cannot bind (a server another
 * run still holds). A server restarted on its port (durability tests) finds it free for the same reason.
 */
const PORT_RANGE_START = 20000;
const PORT_RANGE_SIZE = 12000;
const PORTS_PER_WORKER = 500;
let portsHandedOut = 0;

export async function freePort(): Promise<number> {
  const workerId = Number(process.env.JEST_WORKER_ID ?? 1);
  const stretch = (process.ppid * 7 + workerId * 1237) % (PORT_RANGE_SIZE / PORTS_PER_WORKER);
  for (let attempt = 0; attempt < PORTS_PER_WORKER; attempt++) {
    const port = PORT_RANGE_START + stretch * PORTS_PER_WORKER + (portsHandedOut++ % PORTS_PER_WORKER);
    if (await canListen(port)) return port;
  }
  throw new Error(`No free port in this worker's stretch of ${PORTS_PER_WORKER} ports`);
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/**
 * Polls `probe` until it answers something other than undefined (errors count as undefined, the last one is
 * reported). `timeoutMs` is a safety net: pass PATIENCE_MS (test/support/wait.ts), not an expected duration.
 */
export async function eventually<T>(probe: () => Promise<T | undefined>, timeoutMs: number, what: string): Promise<T> {
  return pollUntil(probe, what, { timeoutMs });
}

/** The environment a server process starts from unless a test passes another (the caller's PATH and HOME). */
function minimalEnvironment(): Record<string, string> {
  return { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? os.tmpdir() };
}

export class ServerProcess {
  private child: ChildProcess | undefined;
  private exited: Promise<number | null> | undefined;
  output = '';

  constructor(
    readonly port: number,
    private readonly env: Record<string, string>,
    /** What the environment starts from; `env`, PORT and HOST are laid over it. */
    private readonly baseEnv: Record<string, string> = minimalEnvironment(),
    private readonly readyTimeoutMs = PATIENCE_MS,
  ) {}

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get pid(): number {
    return this.child!.pid!;
  }

  get running(): boolean {
    return this.child !== undefined && this.child.exitCode === null && this.child.signalCode === null;
  }

  /**
   * The server's command line after `node`: dist/main.js with the flags `npm start` gives it, so that a test's
   * signals (SIGTERM, SIGKILL) reach the server itself. A subclass may run `npm start`'s own line instead.
   */
  protected nodeArguments(env: Record<string, string>): string[] {
    return [...startFlags(env), 'dist/main.js'];
  }

  /** Spawns the server; resolves with its exit code once it exits (whenever that is). */
  spawn(): Promise<number | null> {
    this.output = '';
    const env = { ...this.baseEnv, ...this.env, PORT: String(this.port), HOST: '127.0.0.1' };
    const child = spawn(process.execPath, this.nodeArguments(env), {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    child.stdout!.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    this.exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
    return this.exited;
  }

  /**
   * Spawns the server and waits until /readyz answers 200; fails at once if the process exits first. Answers the
   * ms it took (not counting a wait for another worker's first start, below).
   *
   * A first start on the embedded database (no DATABASE_URL, a DATA_DIR without a database yet) runs PGlite's
   * initdb, 0.7–0.8 GB at its peak (docs/performance.md, sessions 8–11). `npm test` runs the files that do one
   * after all others, in a Jest run of their own (scripts/test.mjs), so that it never meets the other files'
   * workers and databases (issue 15 item 5: the run under 2 GB); in the first run a first start is refused, so a
   * new such file is noticed. Two first starts never run at once: they take turns under a lock.
   */
  async start(): Promise<number> {
    if (!this.isEmbeddedFirstStart()) return this.startNow();
    if (process.env.GLOSSA_TEST_FIRST_STARTS === 'later') {
      throw new Error(
        'This test file does an embedded first start: list it in scripts/test.mjs FIRST_START_FILES, so that `npm test` runs it after the other files.',
      );
    }
    return withCheckoutLock('embedded-first-start', 'embedded first start', () => this.startNow());
  }

  private isEmbeddedFirstStart(): boolean {
    const env = { ...this.baseEnv, ...this.env };
    if (env.DATABASE_URL || !env.DATA_DIR) return false;
    return !existsSync(path.join(env.DATA_DIR, 'pglite', 'PG_VERSION'));
  }

  private async startNow(): Promise<number> {
    const started = Date.now();
    let exitCode: number | null | undefined;
    void this.spawn().then((code) => (exitCode = code));
    for (;;) {
      if (exitCode !== undefined) throw new Error(`The server on ${this.port} exited with ${exitCode} before it was ready:\n${this.output}`);
      const ready = await fetch(`${this.url}/readyz`).then(
        (response) => response.status === 200,
        () => false,
      );
      if (ready) return Date.now() - started;
      if (Date.now() - started > this.readyTimeoutMs) throw new Error(`The server on ${this.port} was not ready within ${this.readyTimeoutMs} ms:\n${this.output}`);
      await pause(200);
    }
  }

  /** SIGTERM (graceful shutdown) and wait for the exit code. */
  async stop(): Promise<number | null> {
    if (!this.running) return this.child?.exitCode ?? null;
    this.child!.kill('SIGTERM');
    return this.exited!;
  }

  /** SIGKILL: no shutdown hook, no pending work finished; resolves with the signal once the process is gone. */
  async kill(): Promise<NodeJS.Signals | null> {
    const child = this.child;
    if (!child || !this.running) return child?.signalCode ?? null;
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.once('exit', (_code, signal) => resolve(signal)));
    child.kill('SIGKILL');
    return exited;
  }

  fetch(pathname: string, init: RequestInit = {}): Promise<Response> {
    return fetch(`${this.url}${pathname}`, init);
  }
}
