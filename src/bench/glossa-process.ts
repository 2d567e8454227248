import { ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import * as path from 'node:path';
import { heapFlagsFor, withHeapFlags } from '../bootstrap/heap-flags';

/** A free loopback port (taken and released; the child binds it right after). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

function statusField(pid: number, field: 'VmRSS' | 'VmHWM'): number | null {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : null;
  } catch {
    return null;
  }
}

/**
 * Peak resident memory of a child process per phase. On Linux the kernel's own high-water mark (VmHWM) is
 * reset by writing 5 to /proc/<pid>/clear_refs, so nothing between two samples is missed; where that
 * is not allowed the RSS is sampled every 50 ms.
 */
export class PeakRss {
  private sampled = 0;
  private readonly timer: NodeJS.Timeout;
  private kernelPeak: boolean;

  constructor(private readonly pid: number) {
    this.kernelPeak = statusField(pid, 'VmHWM') !== null;
    this.timer = setInterval(() => this.sample(), 50);
    this.timer.unref();
  }

  /** Starts a new phase. */
  reset(): void {
    this.sampled = 0;
    if (this.kernelPeak) {
      try {
        writeFileSync(`/proc/${this.pid}/clear_refs`, '5');
      } catch {
        this.kernelPeak = false;
      }
    }
    this.sample();
  }

  /** Peak RSS in bytes since the last reset; null where it cannot be read. */
  peak(): number | null {
    this.sample();
    const kernel = this.kernelPeak ? statusField(this.pid, 'VmHWM') : null;
    const peak = Math.max(kernel ?? 0, this.sampled);
    return peak > 0 ? peak : null;
  }

  stop(): void {
    clearInterval(this.timer);
  }

  private sample(): void {
    // Without /proc (not Linux) there is nothing to read and the report shows no RSS.
    const rss = statusField(this.pid, 'VmRSS');
    if (rss !== null && rss > this.sampled) this.sampled = rss;
  }
}

/** The live direct children of a process: every thread's /proc/<pid>/task/<tid>/children (empty where unreadable). */
export function childrenOf(pid: number): number[] {
  let threads: string[];
  try {
    threads = readdirSync(`/proc/${pid}/task`);
  } catch {
    return [];
  }
  const children: number[] = [];
  for (const tid of threads) {
    try {
      children.push(...readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').split(' ').filter(Boolean).map(Number));
    } catch {
      // The thread ended meanwhile.
    }
  }
  return children;
}

/**
 * The largest peak (VmHWM) of any process below a root process, sampled every 100 ms: the embedded first start
 * runs its setup in a short-lived child (src/bootstrap/first-start.ts), whose memory the server's own VmHWM
 * does not include. VmHWM only grows, so the last sample before a child exits misses at most its final 100 ms.
 */
export class DescendantPeak {
  private peakBytes = 0;
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly rootPid: number) {
    this.timer = setInterval(() => this.sample(), 100);
    this.timer.unref();
  }

  /** Stops sampling and answers the largest single-process peak seen, or null when no descendant was seen. */
  stop(): number | null {
    this.sample();
    clearInterval(this.timer);
    return this.peakBytes > 0 ? this.peakBytes : null;
  }

  private sample(): void {
    const pending = childrenOf(this.rootPid);
    while (pending.length > 0) {
      const pid = pending.pop()!;
      const hwm = statusField(pid, 'VmHWM');
      if (hwm !== null && hwm > this.peakBytes) this.peakBytes = hwm;
      pending.push(...childrenOf(pid));
    }
  }
}

/** Resident memory now (VmRSS) and the peak since start or the last clear_refs (VmHWM), in bytes. */
export function residentMemory(pid: number): { rss: number | null; hwm: number | null } {
  return { rss: statusField(pid, 'VmRSS'), hwm: statusField(pid, 'VmHWM') };
}

/**
 * CPU seconds (user + system) of a process and all its threads so far, from /proc/<pid>/stat. With the
 * embedded database PostgreSQL runs inside Glossa's process, so this is the whole server's work, which is
 * steadier than wall-clock time on a shared machine. Null where /proc is not available.
 */
export function cpuSeconds(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may contain spaces) start after the last ')': utime is field 14.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return null;
  }
}

/** The flags of a `node <flags> dist/start.js` script line; throws for any other shape of script. */
export function nodeFlagsOf(script: string): string[] {
  const words = script.trim().split(/\s+/);
  if (words[0] !== 'node' || words[words.length - 1] !== 'dist/start.js' || words.slice(1, -1).some((word) => !word.startsWith('--'))) {
    throw new Error(`package.json "start" is not "node <flags> dist/start.js": ${script}`);
  }
  return words.slice(1, -1);
}

/**
 * The Node.js flags `npm start` gives the server process for `serverEnv`: those of package.json "start", with
 * PostgreSQL's heap limits when `serverEnv` has a DATABASE_URL (src/start.ts, bootstrap/heap-flags.ts), so the
 * benchmark runs the server as an operator does. `BENCH_NODE_FLAGS` in `env` replaces them (e.g. to compare heap
 * settings A/B).
 */
export function startFlags(serverEnv: NodeJS.ProcessEnv, env: NodeJS.ProcessEnv = process.env, manifestPath?: string): string[] {
  if (env.BENCH_NODE_FLAGS !== undefined) return env.BENCH_NODE_FLAGS.split(/\s+/).filter((flag) => flag !== '');
  // dist/bench/ (or src/bench/) → the package root.
  const file = manifestPath ?? path.join(__dirname, '..', '..', 'package.json');
  const manifest = JSON.parse(readFileSync(file, 'utf8')) as { scripts: { start: string } };
  return withHeapFlags(nodeFlagsOf(manifest.scripts.start), heapFlagsFor(serverEnv));
}

export interface GlossaProcess {
  url: string;
  pid: number;
  rss: PeakRss;
  /** The largest peak (VmHWM) of any child process seen until the server was ready, in bytes; null if none. */
  startupChildPeakBytes: number | null;
  stop(): Promise<void>;
}

/**
 * Glossa as `npm start` runs it (dist/main.js with the flags src/start.ts gives it), in its own process so its
 * memory is measured alone and the load generator does not share its event loop.
 */
export async function startGlossa(env: Record<string, string>, readyPath = '/api/'): Promise<GlossaProcess> {
  const port = await freePort();
  // BENCH_GLOSSA_MAIN: another build's dist/main.js, so two builds are compared under the same benchmark code.
  const main = process.env.BENCH_GLOSSA_MAIN ?? path.join(__dirname, '..', 'main.js');
  // BENCH_GLOSSA_NODE_ARGS: extra node options for the server only, e.g. `--cpu-prof --cpu-prof-dir=/tmp/p`
  // (which NODE_OPTIONS refuses) to profile what a scenario makes the server do.
  const extra = (process.env.BENCH_GLOSSA_NODE_ARGS ?? '').split(/\s+/).filter(Boolean);
  const serverEnv = { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'error' };
  const child: ChildProcess = spawn(process.execPath, [...startFlags(serverEnv), ...extra, main], {
    env: serverEnv,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const startupChildren = new DescendantPeak(child.pid!);
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) {
      startupChildren.stop();
      throw new Error(`Glossa exited with code ${child.exitCode} during start-up`);
    }
    try {
      if ((await fetch(`${url}${readyPath}`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      startupChildren.stop();
      child.kill('SIGKILL');
      throw new Error(`Glossa did not answer ${readyPath} within 120 s`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const startupChildPeakBytes = startupChildren.stop();
  const rss = new PeakRss(child.pid!);
  return {
    url,
    pid: child.pid!,
    rss,
    startupChildPeakBytes,
    stop: async () => {
      rss.stop();
      if (child.exitCode === null) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
