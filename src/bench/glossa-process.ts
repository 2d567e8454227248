import { ChildProcess, spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import * as path from 'node:path';

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

export interface GlossaProcess {
  url: string;
  pid: number;
  rss: PeakRss;
  stop(): Promise<void>;
}

/**
 * Glossa as `npm start` runs it (dist/main.js), in its own process so its memory is measured alone and the
 * load generator does not share its event loop.
 */
export async function startGlossa(env: Record<string, string>): Promise<GlossaProcess> {
  const port = await freePort();
  const main = path.join(__dirname, '..', 'main.js');
  // BENCH_GLOSSA_NODE_ARGS: extra node options for the server only, e.g. `--cpu-prof --cpu-prof-dir=/tmp/p`
  // (which NODE_OPTIONS refuses) to profile what a scenario makes the server do.
  const extra = (process.env.BENCH_GLOSSA_NODE_ARGS ?? '').split(/\s+/).filter(Boolean);
  const child: ChildProcess = spawn(process.execPath, ['--no-concurrent-recompilation', ...extra, main], {
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'error' },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`Glossa exited with code ${child.exitCode} during start-up`);
    try {
      if ((await fetch(`${url}/api/`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error('Glossa did not answer /api/ within 120 s');
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const rss = new PeakRss(child.pid!);
  return {
    url,
    pid: child.pid!,
    rss,
    stop: async () => {
      rss.stop();
      if (child.exitCode === null) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
