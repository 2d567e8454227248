import { mkdtemp, rm } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { BenchApi } from './bench-api';
import { BenchConfig, LANGUAGES } from './bench-config';
import { cpuSeconds, GlossaProcess, residentMemory, startFlags, startGlossa } from './glossa-process';
import { runLoad } from './load';
import { mb, median, TargetCheck } from './report';
import { createSyntheticRepo } from './synthetic-repo';

// `npm run bench -- --only=memory` (issue 15 item 3): the embedded default's memory as an operator meets it.
// `node <flags of package.json "start"> dist/main.js` without DATABASE_URL, so PGlite runs in the process:
// 1. first start on a fresh DATA_DIR (initdb, migrations, the demo import), peak and resident once settled;
// 2. a later start on the same DATA_DIR, the same figures;
// 3. on that process, the bench's 300,000-unit import through the API (peak, units/s, CPU seconds);
// 4. then the bench's units page under autocannon (peak, resident afterwards, req/s, CPU ms per request).
// Figures come from /proc/<pid>/status (VmHWM, VmRSS); VmHWM is reset before phases 3 and 4.

const MB = 1048576;
/** Issue 15 item 3's limits. */
const LIMITS = { start: 300 * MB, unitsPage: 400 * MB, import: 512 * MB };

export interface StartMemory {
  /** Seconds until /readyz answered 200. */
  readySeconds: number;
  /** Seconds after ready until the resident size settled. */
  settleSeconds: number;
  peakBytes: number | null;
  residentBytes: number | null;
  /** The largest peak of a child process during start-up (the first start's setup child), if any ran. */
  childPeakBytes: number | null;
}

export interface MemoryReport {
  nodeFlags: string[];
  mallocArenaMax: string | null;
  firstStart: StartMemory;
  laterStart: StartMemory;
  import: { units: number; seconds: number; unitsPerSecond: number; cpuSeconds: number | null; peakBytes: number | null; residentBytes: number | null };
  unitsPage: { requestsPerSecond: number; p99Ms: number; failed: number; cpuMsPerRequest: number | null; peakBytes: number | null; residentBytes: number | null };
  loadAverage: { start: number; end: number };
  checks: TargetCheck[];
}

/**
 * Waits until the resident size has moved by less than 2 MB over 10 s (the start-up's timers, the job queue's
 * first maintenance and lazy V8 work have run), at most 60 s: a condition on the process, not a fixed sleep.
 */
async function settle(pid: number): Promise<number> {
  const started = Date.now();
  const window: number[] = [];
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    window.push(residentMemory(pid).rss ?? 0);
    if (window.length > 20) window.shift();
    const elapsed = (Date.now() - started) / 1000;
    if ((window.length === 20 && Math.max(...window) - Math.min(...window) < 2 * MB) || elapsed >= 60) return elapsed;
  }
}

async function measureStart(env: Record<string, string>): Promise<{ glossa: GlossaProcess; memory: StartMemory }> {
  const started = process.hrtime.bigint();
  const glossa = await startGlossa(env, '/readyz');
  const readySeconds = Number(process.hrtime.bigint() - started) / 1e9;
  const settleSeconds = await settle(glossa.pid);
  const { rss, hwm } = residentMemory(glossa.pid);
  return { glossa, memory: { readySeconds, settleSeconds, peakBytes: hwm, residentBytes: rss, childPeakBytes: glossa.startupChildPeakBytes } };
}

function formatStart(name: string, memory: StartMemory): string {
  return `  ${name}: ready in ${memory.readySeconds.toFixed(1)} s, settled ${memory.settleSeconds.toFixed(1)} s later; peak ${mb(memory.peakBytes)}, resident ${mb(memory.residentBytes)}` +
    (memory.childPeakBytes !== null ? `; largest start-up child peak ${mb(memory.childPeakBytes)}` : '');
}

export async function runMemoryScenario(config: BenchConfig, token: string): Promise<MemoryReport> {
  const nodeFlags = startFlags({});
  const loadAtStart = os.loadavg()[0];
  console.log(`Memory of the embedded default: node ${nodeFlags.join(' ')} dist/main.js${process.env.MALLOC_ARENA_MAX ? `, MALLOC_ARENA_MAX=${process.env.MALLOC_ARENA_MAX}` : ''}`);
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'glossa-bench-memory-'));
  const languages = LANGUAGES.slice(0, config.languages);
  const repo = await createSyntheticRepo('memory', config.strings, languages);
  // Default settings except what the bench needs to drive it: a token, the local repository, no 429s.
  const env = {
    DATABASE_URL: '',
    DATA_DIR: dataDir,
    ADMIN_TOKEN: token,
    ALLOW_LOCAL_REPOSITORIES: 'true',
    RATE_LIMIT_USER: '1000000000/second',
    RATE_LIMIT_ANON: '1000000000/second',
  };
  let glossa: GlossaProcess | null = null;
  try {
    const first = await measureStart(env);
    glossa = first.glossa;
    console.log(formatStart('first start (fresh DATA_DIR, demo imported)', first.memory));
    await glossa.stop();
    glossa = null;
    const later = await measureStart(env);
    glossa = later.glossa;
    console.log(formatStart('later start (same DATA_DIR)', later.memory));

    const api = new BenchApi(glossa.url, token);
    await api.json('POST', '/api/projects/', { name: 'Benchmark', slug: 'bench', web: 'https://example.com/' });
    const units = config.strings * languages.length;
    glossa.rss.reset();
    const cpuBefore = cpuSeconds(glossa.pid);
    const importStarted = process.hrtime.bigint();
    await api.importComponent('bench', 'big', repo, 3600);
    const seconds = Number(process.hrtime.bigint() - importStarted) / 1e9;
    const cpuAfter = cpuSeconds(glossa.pid);
    const imported = {
      units,
      seconds,
      unitsPerSecond: units / seconds,
      cpuSeconds: cpuBefore !== null && cpuAfter !== null ? cpuAfter - cpuBefore : null,
      peakBytes: glossa.rss.peak(),
      residentBytes: residentMemory(glossa.pid).rss,
    };
    console.log(
      `  import of ${units} units: ${seconds.toFixed(1)} s (${imported.unitsPerSecond.toFixed(0)} units/s, ${imported.cpuSeconds?.toFixed(1) ?? '-'} CPU s); ` +
        `peak ${mb(imported.peakBytes)}, resident afterwards ${mb(imported.residentBytes)}`,
    );

    const spec = { method: 'GET' as const, path: `/api/translations/bench/big/cs/units/?page_size=${config.pageSize}`, headers: { Authorization: api.authorization } };
    await runLoad(glossa.url, spec, config.connections, config.warmup);
    glossa.rss.reset();
    const pageCpuBefore = cpuSeconds(glossa.pid);
    const runs = [];
    for (let run = 0; run < config.runs; run += 1) runs.push(await runLoad(glossa.url, spec, config.connections, config.duration));
    const pageCpuAfter = cpuSeconds(glossa.pid);
    const requests = runs.reduce((sum, r) => sum + r.requests, 0);
    const unitsPage = {
      requestsPerSecond: median(runs.map((r) => r.requestsPerSecond)),
      p99Ms: median(runs.map((r) => r.p99Ms)),
      failed: runs.reduce((sum, r) => sum + r.failed, 0),
      cpuMsPerRequest: pageCpuBefore !== null && pageCpuAfter !== null && requests > 0 ? ((pageCpuAfter - pageCpuBefore) * 1000) / requests : null,
      peakBytes: glossa.rss.peak(),
      residentBytes: residentMemory(glossa.pid).rss,
    };
    console.log(
      `  units page (${config.connections} connections, ${config.runs} × ${config.duration} s): ${unitsPage.requestsPerSecond.toFixed(0)} req/s, ` +
        `p99 ${unitsPage.p99Ms} ms, ${unitsPage.cpuMsPerRequest?.toFixed(2) ?? '-'} CPU ms/request, failed ${unitsPage.failed}; ` +
        `peak ${mb(unitsPage.peakBytes)}, resident afterwards ${mb(unitsPage.residentBytes)}`,
    );
    const within = (bytes: number | null, limit: number) => bytes !== null && bytes < limit;
    const checks: TargetCheck[] = [
      { target: 'first start: resident < 300 MB', measured: `peak ${mb(first.memory.peakBytes)}, resident ${mb(first.memory.residentBytes)}, setup child peak ${mb(first.memory.childPeakBytes)}`, met: within(first.memory.residentBytes, LIMITS.start) },
      { target: 'later start: resident < 300 MB', measured: `peak ${mb(later.memory.peakBytes)}, resident ${mb(later.memory.residentBytes)}`, met: within(later.memory.residentBytes, LIMITS.start) },
      { target: 'units page under load: peak < 400 MB', measured: `peak ${mb(unitsPage.peakBytes)}`, met: within(unitsPage.peakBytes, LIMITS.unitsPage) },
      { target: `import of ${units} units: peak < 512 MB`, measured: `peak ${mb(imported.peakBytes)}`, met: within(imported.peakBytes, LIMITS.import) },
    ];
    return {
      nodeFlags,
      mallocArenaMax: process.env.MALLOC_ARENA_MAX ?? null,
      firstStart: first.memory,
      laterStart: later.memory,
      import: imported,
      unitsPage,
      loadAverage: { start: loadAtStart, end: os.loadavg()[0] },
      checks,
    };
  } finally {
    await glossa?.stop();
    await repo.cleanup();
    await rm(dataDir, { recursive: true, force: true });
  }
}
