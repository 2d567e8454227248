import * as os from 'node:os';
import { BenchApi } from './bench-api';
import { median, type TargetCheck } from './report';
import type { GlossaProcess } from './glossa-process';
import { cpuSnapshot, cpuSpent } from './server-cpu';
import type { SyntheticRepo } from './synthetic-repo';

// The bulk translate scenario (issue 14 item 5): one POST …/units/bulk/ of `items` edits against a real
// Glossa process, timed from the first byte sent to the last byte of the answer, a few rounds with new
// targets each time (medians). The reference measured in the same run is the same kind of edit sent as
// single PATCH /api/units/<id>/ requests one after another. Afterwards the translation's stored statistics
// must equal a recount of its units through the search (translated, needs editing, total), and the history
// must hold exactly one change per edited string.

export interface BulkReport {
  items: number;
  rounds: number;
  secondsPerRound: number[];
  unitsPerSecond: number;
  /**
   * CPU per round of Glossa and of its PostgreSQL backends (null where /proc or the database cannot be read):
   * on a shared machine the wall time mostly measures the other work, the CPU time what a request costs.
   */
  cpuPerRound: Array<{ glossaMs: number | null; databaseMs: number | null }>;
  /** Single PATCHes one after another, for comparison. */
  patchUnits: number;
  patchUnitsPerSecond: number;
  statistics: { translated: number; unitsTranslated: number; fuzzy: number; unitsFuzzy: number; total: number; unitsTotal: number };
  changes: { expected: number; recorded: number };
  exact: boolean;
}

interface BulkAnswer {
  updated: number;
  failed: number;
  results: Array<{ status: number; errors?: unknown }>;
}

/** Every unit id of a translation, in position order (the list is paginated by at most 1000). */
async function unitIds(api: BenchApi, base: string, count: number): Promise<number[]> {
  const ids: number[] = [];
  for (let page = 1; ids.length < count; page += 1) {
    const list = await api.json<{ results: Array<{ id: number }> }>('GET', `${base}/units/?page_size=1000&page=${page}`);
    if (list.results.length === 0) break;
    ids.push(...list.results.map((unit) => unit.id));
  }
  return ids;
}

/** Round r's edit of the i-th unit: a new text each round; every fifth one marked needs editing. */
function item(id: number, round: number, index: number): { id: number; target: string[]; state: number } {
  return { id, target: [`bulk round ${round} string ${index}`], state: index % 5 === 0 ? 10 : 20 };
}

async function timedBulk(api: BenchApi, path: string, body: unknown): Promise<{ seconds: number; answer: BulkAnswer }> {
  const started = process.hrtime.bigint();
  const response = await api.request('POST', path, body);
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (response.status !== 200) throw new Error(`POST ${path} answered ${response.status}: ${JSON.stringify(response.body).slice(0, 500)}`);
  return { seconds, answer: response.body as BulkAnswer };
}

export async function runBulkScenario(
  api: BenchApi,
  project: string,
  component: string,
  repo: SyntheticRepo,
  sizes: { items: number; rounds: number; patchUnits: number },
  settle: () => Promise<void>,
  server: { glossa: GlossaProcess; databaseUrl: string | null },
): Promise<BulkReport> {
  const { items, rounds, patchUnits } = sizes;
  await api.importComponent(project, component, repo, 3600);
  // As after the other scenarios' imports: autovacuum working through the new rows must not compete.
  await settle();
  const base = `/api/translations/${project}/${component}/cs`;
  const ids = (await unitIds(api, base, items)).slice(0, items);
  if (ids.length < items) throw new Error(`The bulk component has ${ids.length} units in cs, expected at least ${items}`);
  const changesBefore = await api.count(`${base}/changes/?page_size=1`);
  const path = `${base}/units/bulk/`;
  const secondsPerRound: number[] = [];
  const cpuPerRound: BulkReport['cpuPerRound'] = [];
  for (let round = 1; round <= rounds; round += 1) {
    const body = { items: ids.map((id, index) => item(id, round, index)) };
    const cpuBefore = await cpuSnapshot(server.glossa, server.databaseUrl);
    const { seconds, answer } = await timedBulk(api, path, body);
    const cpu = cpuSpent(cpuBefore, await cpuSnapshot(server.glossa, server.databaseUrl));
    if (answer.updated !== items || answer.failed !== 0) throw new Error(`Bulk round ${round}: ${answer.updated} updated, ${answer.failed} failed: ${JSON.stringify(answer.results.find((r) => r.status !== 200))}`);
    secondsPerRound.push(seconds);
    cpuPerRound.push(cpu);
    console.log(
      `  bulk round ${round}: ${items} items in ${(seconds * 1000).toFixed(0)} ms = ${(items / seconds).toFixed(0)} units/s; ` +
        `CPU Glossa ${cpu.glossaMs ?? 'n/a'} ms, database ${cpu.databaseMs ?? 'n/a'} ms; load ${os.loadavg()[0].toFixed(2)}`,
    );
  }
  // The reference: the same kind of edit as single PATCHes, one after another.
  const patchIds = ids.slice(0, patchUnits);
  const patchStarted = process.hrtime.bigint();
  for (const [index, id] of patchIds.entries()) {
    const edit = item(id, rounds + 1, index);
    await api.json('PATCH', `/api/units/${id}/`, { target: edit.target, state: edit.state }, [200]);
  }
  const patchSeconds = Number(process.hrtime.bigint() - patchStarted) / 1e9;

  const detail = await api.json<{ translated: number; fuzzy: number; total: number }>('GET', `${base}/`);
  const statistics = {
    translated: detail.translated,
    unitsTranslated: await api.count(`${base}/units/?page_size=1&q=${encodeURIComponent('state:>=translated')}`),
    fuzzy: detail.fuzzy,
    unitsFuzzy: await api.count(`${base}/units/?page_size=1&q=${encodeURIComponent('state:needs-editing')}`),
    total: detail.total,
    unitsTotal: await api.count(`${base}/units/?page_size=1`),
  };
  // Each round changes every item's text: one change each; the first edit of the translation by the caller
  // also records 45 "New contributor".
  const recorded = (await api.count(`${base}/changes/?page_size=1`)) - changesBefore;
  const expected = rounds * items + patchIds.length + 1;
  const exact =
    statistics.translated === statistics.unitsTranslated && statistics.fuzzy === statistics.unitsFuzzy && statistics.total === statistics.unitsTotal && recorded === expected;
  const seconds = median(secondsPerRound);
  return {
    items,
    rounds,
    secondsPerRound,
    unitsPerSecond: items / seconds,
    cpuPerRound,
    patchUnits: patchIds.length,
    patchUnitsPerSecond: patchIds.length / patchSeconds,
    statistics,
    changes: { expected, recorded },
    exact,
  };
}

/** Median CPU milliseconds per 1,000 units of the rounds after the first (which warms caches and plans). */
function cpuPerThousand(report: BulkReport, part: 'glossaMs' | 'databaseMs'): string {
  const values = report.cpuPerRound.slice(report.cpuPerRound.length > 1 ? 1 : 0).map((cpu) => cpu[part]);
  if (values.some((value) => value === null)) return 'n/a';
  return ((median(values as number[]) * 1000) / report.items).toFixed(0);
}

export function formatBulkReport(report: BulkReport): string {
  const s = report.statistics;
  return [
    `  bulk translate: ${report.items} items per request, median of ${report.rounds} rounds ${(median(report.secondsPerRound) * 1000).toFixed(0)} ms = ${report.unitsPerSecond.toFixed(0)} units/s`,
    `  CPU per 1,000 units (median of the rounds after the first): Glossa ${cpuPerThousand(report, 'glossaMs')} ms, database ${cpuPerThousand(report, 'databaseMs')} ms`,
    `  single PATCHes one after another: ${report.patchUnitsPerSecond.toFixed(0)} units/s (${report.patchUnits} requests); bulk is ${(report.unitsPerSecond / report.patchUnitsPerSecond).toFixed(0)}× that`,
    `  statistics: translated ${s.translated} = units ${s.unitsTranslated}, needs editing ${s.fuzzy} = units ${s.unitsFuzzy}, total ${s.total} = units ${s.unitsTotal}; ` +
      `changes recorded ${report.changes.recorded} (expected ${report.changes.expected})`,
  ].join('\n');
}

export function bulkTargets(report: BulkReport): TargetCheck[] {
  return [
    {
      target: 'bulk translate ≥ 20,000 units/s with statistics and history exact',
      measured: `${report.unitsPerSecond.toFixed(0)} units/s (${report.items} items per request); statistics and history ${report.exact ? 'exact' : 'NOT exact'}`,
      met: report.unitsPerSecond >= 20_000 && report.exact,
    },
  ];
}
