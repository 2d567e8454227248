import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';

// A real server process (`node dist/main.js`, as the container runs it), for tests that stop, kill or restart
// the server. Same approach as test/e2e/multi-process.e2e-spec.ts, plus a SIGKILL without graceful shutdown.

// Jest runs from the repository root (jest.config.cjs); ESM test modules have no __dirname.
const ROOT = process.cwd();

/** Compiles the current sources into dist/ (`npm run build`), so the processes run what the tests read. */
export async function compileServer(): Promise<void> {
  try {
    await promisify(execFile)(process.execPath, [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'], {
      cwd: ROOT,
      maxBuffer: 16 * 1024 * 1024,
    });
  } catch (error) {
    const { stdout, stderr, message } = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(`tsc -p tsconfig.build.json failed: ${message}\n${stdout ?? ''}${stderr ?? ''}`, { cause: error });
  }
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

/** Polls `probe` until it answers something other than undefined (errors count as undefined). */
export async function eventually<T>(probe: () => Promise<T | undefined>, timeoutMs: number, what: string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not reached within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

export class ServerProcess {
  private child: ChildProcess | undefined;
  output = '';

  constructor(
    readonly port: number,
    private readonly env: Record<string, string>,
  ) {}

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get running(): boolean {
    return this.child !== undefined && this.child.exitCode === null && this.child.signalCode === null;
  }

  async start(): Promise<void> {
    const child = spawn(process.execPath, ['dist/main.js'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? os.tmpdir(), ...this.env, PORT: String(this.port), HOST: '127.0.0.1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    child.stdout!.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    await eventually(
      async () => {
        if (child.exitCode !== null || child.signalCode !== null) throw new Error('exited');
        return (await fetch(`${this.url}/readyz`)).status === 200 ? true : undefined;
      },
      90_000,
      `process on ${this.port} ready`,
    ).catch((error: Error) => {
      throw new Error(`${error.message}\n${this.output}`);
    });
  }

  /** SIGTERM (graceful shutdown) and wait for the exit code. */
  async stop(): Promise<number | null> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return child?.exitCode ?? null;
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    return exited;
  }

  /** SIGKILL: no shutdown hook, no pending work finished; resolves with the signal once the process is gone. */
  async kill(): Promise<NodeJS.Signals | null> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return child?.signalCode ?? null;
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.once('exit', (_code, signal) => resolve(signal)));
    child.kill('SIGKILL');
    return exited;
  }

  fetch(pathname: string, init: RequestInit = {}): Promise<Response> {
    return fetch(`${this.url}${pathname}`, init);
  }
}
