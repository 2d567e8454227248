import * as os from 'node:os';
import type { BenchApi } from './bench-api';
import type { BenchConfig } from './bench-config';
import type { GlossaProcess } from './glossa-process';
import { runLoad } from './load';
import { cpuMs, serverPids } from './server-cpu';
import { mb, median, type ImportReport, type TargetCheck } from './report';
import type { SyntheticRepo } from './synthetic-repo';

// Issue 13 "Done means": with the big component imported (300,000 units at the default 50,000 strings × 6
// languages), the indexed searches of `GET /api/units/?q=…` (`state:<translated`, `source:"<word>"`,
// `has:check`) and substring searches on source and target answer with p99 ≤ 100 ms, each measured with
// autocannon as the superuser and as an anonymous caller (whose visibility filter is SQL of its own). The
// synthetic strings (synthetic-repo.ts) make each query match a known share: `state:<translated` the fifth of
// each translation left out, `source:"lantern"` 1 string in 100, `has:check` the tenth of the translated units
// whose source ends with a full stop (`end_stop`) and their source units (`multiple_failures`), the substrings
// a few dozen units.

export interface IndexedSearchCase {
  name: string;
  q: string;
}

export const INDEXED_SEARCHES: readonly IndexedSearchCase[] = [
  { name: 'state:<translated', q: 'state:<translated' },
  { name: 'source:"word"', q: 'source:"lantern"' },
  { name: 'has:check', q: 'has:check' },
  { name: 'source substring', q: 'source:"number 1234"' },
  { name: 'target substring', q: 'target:1234' },
];

export interface IndexedSearchResult {
  name: string;
  caller: 'superuser' | 'anonymous';
  path: string;
  count: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  failed: number;
  loadAverage: number;
  /**
   * CPU time per request of Glossa and of its PostgreSQL backends together (null where /proc or the database
   * is not readable): it depends less than latency on what else the machine runs (contention still inflates it).
   */
  cpuMsPerRequest: number | null;
}

export interface IndexedSearchReport {
  units: number;
  connections: number;
  /** The import of the big component (measured here when the load part did not run before). */
  imported: ImportReport;
  results: IndexedSearchResult[];
  /** Peak RSS of Glossa during the search runs. */
  peakRssBytes: number | null;
  checks: TargetCheck[];
}

/**
 * Imports the big component through the API, timed (the same measure as the load part's import), with the
 * CPU time Glossa and its database backends spent on it: on a shared machine the wall time mostly measures
 * the other work, the CPU time what the import costs.
 */
export async function importBig(
  api: BenchApi,
  glossa: GlossaProcess,
  project: string,
  slug: string,
  repo: SyntheticRepo,
  units: number,
  databaseUrl: string | null,
): Promise<ImportReport & { glossaCpuSeconds: number | null; databaseCpuSeconds: number | null }> {
  console.log('Importing through the API…');
  glossa.rss.reset();
  const backends = async (): Promise<Map<number, number | null>> => {
    const pids = ((await serverPids(glossa, databaseUrl)) ?? []).filter((pid) => pid !== glossa.pid);
    return new Map(pids.map((pid) => [pid, cpuMs([pid])]));
  };
  const glossaBefore = cpuMs([glossa.pid]);
  const backendsBefore = await backends();
  const started = process.hrtime.bigint();
  await api.importComponent(project, slug, repo, 3600);
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const glossaAfter = cpuMs([glossa.pid]);
  const glossaCpuSeconds = glossaBefore !== null && glossaAfter !== null ? (glossaAfter - glossaBefore) / 1000 : null;
  // Backends still connected after the import; one that connected during it counts from its start. One that
  // disconnected before the end is not counted.
  let databaseCpuSeconds: number | null = databaseUrl ? 0 : null;
  for (const [pid, after] of await backends()) {
    const before = backendsBefore.get(pid) ?? 0;
    if (after === null || before === null || databaseCpuSeconds === null) databaseCpuSeconds = null;
    else databaseCpuSeconds += (after - before) / 1000;
  }
  const imported = { units, seconds, unitsPerSecond: units / seconds, peakRssBytes: glossa.rss.peak(), glossaCpuSeconds, databaseCpuSeconds };
  const cpu = (value: number | null) => (value === null ? 'n/a' : `${value.toFixed(1)} s`);
  console.log(
    `  ${units} units in ${seconds.toFixed(1)} s = ${imported.unitsPerSecond.toFixed(0)} units/s, peak RSS ${mb(imported.peakRssBytes)}; ` +
      `CPU: Glossa ${cpu(glossaCpuSeconds)}, its database backends ${cpu(databaseCpuSeconds)}`,
  );
  return imported;
}

async function measureSearch(
  config: BenchConfig,
  glossa: GlossaProcess,
  api: BenchApi,
  search: IndexedSearchCase,
  caller: 'superuser' | 'anonymous',
  databaseUrl: string | null,
): Promise<IndexedSearchResult> {
  const path = `/api/units/?q=${encodeURIComponent(search.q)}`;
  const headers: Record<string, string> = caller === 'superuser' ? { Authorization: api.authorization } : {};
  const sample = await fetch(`${api.baseUrl}${path}`, { headers });
  const body = (await sample.json()) as { count?: number };
  if (sample.status !== 200 || typeof body.count !== 'number') throw new Error(`${search.name} (${caller}) answered ${sample.status}: ${JSON.stringify(body).slice(0, 300)}`);
  const loadAverage = os.loadavg()[0];
  const spec = { method: 'GET' as const, path, headers };
  await runLoad(glossa.url, spec, config.searchConnections, config.warmup);
  // After the warm-up the pool holds its connections; their backends are what the runs keep busy.
  const pids = await serverPids(glossa, databaseUrl);
  const cpuBefore = pids ? cpuMs(pids) : null;
  const runs = [];
  for (let run = 0; run < config.runs; run += 1) runs.push(await runLoad(glossa.url, spec, config.searchConnections, config.duration));
  const cpuAfter = pids ? cpuMs(pids) : null;
  const requests = runs.reduce((sum, r) => sum + r.requests, 0);
  const result: IndexedSearchResult = {
    name: search.name,
    caller,
    path,
    count: body.count,
    requestsPerSecond: median(runs.map((r) => r.requestsPerSecond)),
    p50Ms: median(runs.map((r) => r.p50Ms)),
    p99Ms: median(runs.map((r) => r.p99Ms)),
    failed: runs.reduce((sum, r) => sum + r.failed, 0),
    loadAverage,
    cpuMsPerRequest: cpuBefore !== null && cpuAfter !== null && requests > 0 ? (cpuAfter - cpuBefore) / requests : null,
  };
  console.log(
    `  ${search.name} (${caller}, count ${result.count}): ${result.requestsPerSecond.toFixed(0)} req/s, p50 ${result.p50Ms} ms, p99 ${result.p99Ms} ms, ` +
      `CPU ${result.cpuMsPerRequest?.toFixed(1) ?? 'n/a'} ms/request, failed ${result.failed}, load ${loadAverage.toFixed(2)}`,
  );
  return result;
}

/**
 * The indexed-search part: imports the big component unless the load part already did (`imported`), settles
 * the database, then loads every search as superuser and anonymously with `searchConnections` connections.
 */
export async function runIndexedSearchScenarios(
  config: BenchConfig,
  glossa: GlossaProcess,
  api: BenchApi,
  big: { project: string; slug: string; repo: SyntheticRepo; units: number },
  imported: ImportReport | null,
  settle: () => Promise<void>,
  databaseUrl: string | null,
): Promise<IndexedSearchReport> {
  const importReport = imported ?? (await importBig(api, glossa, big.project, big.slug, big.repo, big.units, databaseUrl));
  if (!imported) await settle();
  const units = await api.count('/api/units/?page_size=1');
  console.log(`Indexed searches over ${units} units, ${config.searchConnections} connections, ${config.runs} × ${config.duration} s (+${config.warmup} s warm-up)…`);
  glossa.rss.reset();
  const results: IndexedSearchResult[] = [];
  for (const search of INDEXED_SEARCHES) {
    for (const caller of ['superuser', 'anonymous'] as const) results.push(await measureSearch(config, glossa, api, search, caller, databaseUrl));
  }
  const peakRssBytes = glossa.rss.peak();
  const worst = results.reduce((a, b) => (b.p99Ms > a.p99Ms ? b : a));
  const checks: TargetCheck[] = [
    {
      target: 'import with checks ≥ 10,000 units/s',
      measured: `${importReport.unitsPerSecond.toFixed(0)} units/s (${importReport.units} units in ${importReport.seconds.toFixed(1)} s), peak RSS ${mb(importReport.peakRssBytes)}`,
      met: importReport.unitsPerSecond >= 10_000,
    },
    {
      target: `every indexed and substring search p99 ≤ 100 ms (${config.searchConnections} connections)`,
      measured: `worst ${worst.name} (${worst.caller}) p99 ${worst.p99Ms} ms; failed ${results.reduce((sum, r) => sum + r.failed, 0)}`,
      met: results.every((r) => r.p99Ms <= 100 && r.failed === 0),
    },
  ];
  return { units, connections: config.searchConnections, imported: importReport, results, peakRssBytes, checks };
}

export function formatIndexedSearchReport(report: IndexedSearchReport): string {
  const header = ['search', 'caller', 'count', 'req/s', 'p50 ms', 'p99 ms', 'p99 ≤ 100 ms', 'CPU ms/req', 'failed', 'load'];
  const rows = report.results.map((r) => [
    r.name,
    r.caller,
    String(r.count),
    r.requestsPerSecond.toFixed(0),
    r.p50Ms.toFixed(1),
    r.p99Ms.toFixed(1),
    r.p99Ms <= 100 ? 'met' : 'NOT met',
    r.cpuMsPerRequest?.toFixed(1) ?? 'n/a',
    String(r.failed),
    r.loadAverage.toFixed(2),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (cells: string[]) => cells.map((cell, i) => (i < 2 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  ');
  return [
    `GET /api/units/?q=… over ${report.units} units, ${report.connections} connections; peak RSS during the searches ${mb(report.peakRssBytes)}; ` +
      'CPU ms/req = Glossa + its PostgreSQL backends, per request',
    line(header),
    widths.map((w) => '-'.repeat(w)).join('  '),
    ...rows.map(line),
  ].join('\n');
}
