import { BenchApi } from './bench-api';
import { median } from './report';
import type { SyntheticRepo } from './synthetic-repo';

// The anonymous search scenario (issue 10 item 5): `GET /api/units/?q=…` over many components, timed for an
// anonymous caller (whose visibility filter is SQL) against the superuser (no filter), and the same search
// sent by many anonymous callers at once while /readyz and a trivial API request are timed. Search requests
// are slow by nature (substring matching over every unit), so they are timed one at a time, not under
// autocannon's 50 connections.

export interface LatencySummary {
  requests: number;
  medianMs: number;
  maxMs: number;
  statuses: Record<string, number>;
}

export interface SaturationReport {
  concurrency: number;
  /** Wall time until every concurrent search had answered. */
  searchesMs: number;
  searches: LatencySummary;
  /** /readyz and `/api/` sent one after another while the searches were in flight. */
  readyz: LatencySummary;
  trivial: LatencySummary;
}

export interface SearchReport {
  components: number;
  units: number;
  path: string;
  count: number;
  anonymous: LatencySummary;
  superuser: LatencySummary;
  saturation: SaturationReport;
}

async function timed(url: string, headers: Record<string, string>): Promise<{ ms: number; status: number }> {
  const started = process.hrtime.bigint();
  const response = await fetch(url, { headers });
  await response.arrayBuffer();
  return { ms: Number(process.hrtime.bigint() - started) / 1e6, status: response.status };
}

function summarize(samples: ReadonlyArray<{ ms: number; status: number }>): LatencySummary {
  const statuses: Record<string, number> = {};
  for (const sample of samples) statuses[sample.status] = (statuses[sample.status] ?? 0) + 1;
  return {
    requests: samples.length,
    medianMs: samples.length ? median(samples.map((s) => s.ms)) : 0,
    maxMs: samples.length ? Math.max(...samples.map((s) => s.ms)) : 0,
    statuses,
  };
}

async function sequential(url: string, headers: Record<string, string>, requests: number): Promise<LatencySummary> {
  await timed(url, headers);
  const samples = [];
  for (let i = 0; i < requests; i += 1) samples.push(await timed(url, headers));
  return summarize(samples);
}

/** `concurrency` anonymous searches at once; probes run back to back until the last search answered. */
async function saturate(baseUrl: string, path: string, concurrency: number): Promise<SaturationReport> {
  const started = process.hrtime.bigint();
  let done = false;
  const searches = Promise.all(Array.from({ length: concurrency }, () => timed(`${baseUrl}${path}`, {})));
  void searches.finally(() => (done = true));
  const readyz = [];
  const trivial = [];
  while (!done) {
    readyz.push(await timed(`${baseUrl}/readyz`, {}));
    trivial.push(await timed(`${baseUrl}/api/`, {}));
  }
  const results = await searches;
  return {
    concurrency,
    searchesMs: Number(process.hrtime.bigint() - started) / 1e6,
    searches: summarize(results),
    readyz: summarize(readyz),
    trivial: summarize(trivial),
  };
}

/** Imports `components` copies of `repo` into `project` (en + cs each), through the API. */
export async function importSearchComponents(api: BenchApi, project: string, repo: SyntheticRepo, components: number): Promise<void> {
  for (let i = 1; i <= components; i += 1) await api.importComponent(project, `search-${i}`, repo, 600);
}

export async function runSearchScenario(api: BenchApi, components: number, requests: number, concurrency: number): Promise<SearchReport> {
  // Every source string of the synthetic repository holds "number": the search matches every unit, so the
  // count and the first page are the whole work of a real substring search.
  const path = '/api/units/?q=number';
  const superuserHeaders = { Authorization: api.authorization };
  const sample = await fetch(`${api.baseUrl}${path}`);
  const body = (await sample.json()) as { count?: number };
  if (sample.status !== 200 || typeof body.count !== 'number') throw new Error(`anonymous search answered ${sample.status}: ${JSON.stringify(body).slice(0, 300)}`);
  const units = await api.count('/api/units/?page_size=1');
  const anonymous = await sequential(`${api.baseUrl}${path}`, {}, requests);
  const superuser = await sequential(`${api.baseUrl}${path}`, superuserHeaders, requests);
  const saturation = await saturate(api.baseUrl, path, concurrency);
  return { components, units, path, count: body.count, anonymous, superuser, saturation };
}

const ms = (value: number): string => `${value.toFixed(0)} ms`;
const statuses = (summary: LatencySummary): string =>
  Object.entries(summary.statuses)
    .map(([status, n]) => `${n}×${status}`)
    .join(' ');

export function formatSearchReport(report: SearchReport): string {
  const { saturation: s } = report;
  return [
    `GET ${report.path} over ${report.units} units in ${report.components} search components (count ${report.count}), ${report.anonymous.requests} requests each:`,
    `  anonymous: median ${ms(report.anonymous.medianMs)}, max ${ms(report.anonymous.maxMs)} (${statuses(report.anonymous)})`,
    `  superuser: median ${ms(report.superuser.medianMs)}, max ${ms(report.superuser.maxMs)} (${statuses(report.superuser)})`,
    `  ratio anonymous / superuser (median): ${(report.anonymous.medianMs / Math.max(report.superuser.medianMs, 0.001)).toFixed(2)}×`,
    `${s.concurrency} concurrent anonymous searches: all answered after ${ms(s.searchesMs)} (median ${ms(s.searches.medianMs)}, ${statuses(s.searches)})`,
    `  meanwhile /readyz: ${s.readyz.requests} requests, median ${ms(s.readyz.medianMs)}, max ${ms(s.readyz.maxMs)} (${statuses(s.readyz)})`,
    `  meanwhile /api/:   ${s.trivial.requests} requests, median ${ms(s.trivial.medianMs)}, max ${ms(s.trivial.maxMs)} (${statuses(s.trivial)})`,
  ].join('\n');
}
