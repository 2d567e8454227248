import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadSide, pairedRatio, warmedAlternatingRuns } from './alternating-runs';
import { BenchApi } from './bench-api';
import { BenchConfig, LANGUAGES, loadBenchConfig } from './bench-config';
import { GlossaProcess, startGlossa } from './glossa-process';
import { LoadResult, recordHeaders, RequestSpec, runLoad, startBaseline } from './load';
import { FloorReport, formatScenarioTable, formatTargets, ImportReport, mb, median, ScenarioReport, TargetCheck } from './report';
import { shapeDifference, startFloor } from './floor-process';
import { formatFormatsReport, FormatsReport, runFormatsScenario } from './format-scenario';
import { createScratchDatabase, ScratchDatabase, settleAfterImport } from './scratch-database';
import { formatSearchReport, importSearchComponents, runSearchScenario, SearchReport } from './search-scenario';
import { createPoRepo, PoRepo } from './po-repo';
import { formatPoReport, PoReport, poTargets, runPoScenario } from './po-scenario';
import { createSyntheticRepo, SyntheticRepo } from './synthetic-repo';
import { BulkReport, bulkTargets, formatBulkReport, runBulkScenario } from './bulk-scenario';
import { formatIndexedSearchReport, IndexedSearchReport, runIndexedSearchScenarios } from './indexed-search-scenario';
import { runMemoryScenario } from './memory-scenario';
import { measureTokenAgainstAnonymous, tokenPairCheck, type TokenPairReport } from './token-pair';

// `npm run bench` (issue 5, architecture.md "Performance principles"): a synthetic json-nested repository is
// imported through the API into a Glossa child process, then each scenario is loaded with autocannon and
// compared with a bare node:http process replaying Glossa's own response bytes, measured in the same run.

const PROJECT = 'bench';
const BIG = 'big';
const SMALL = 'small';

interface Scenario {
  name: string;
  spec: RequestSpec;
  notes?: string[];
  /** Sent without the token (the anonymous side of issue 15's "authenticated path ≤ 15 % over anonymous"). */
  anonymous?: boolean;
}

/** The floor process of the run (PostgreSQL only), measured beside Glossa for every GET scenario. */
interface Floor {
  url: string;
}

async function fetchSample(baseUrl: string, spec: RequestSpec, headers: Record<string, string>): Promise<{ status: number; headers: Headers; bytes: Buffer }> {
  const body = typeof spec.body === 'function' ? spec.body() : spec.body;
  const response = await fetch(`${baseUrl}${spec.nextPath?.() ?? spec.path}`, {
    method: spec.method,
    headers: { ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}), ...headers },
    body,
  });
  return { status: response.status, headers: response.headers, bytes: Buffer.from(await response.arrayBuffer()) };
}

const summarize = (runs: LoadResult[]) => ({
  runs,
  requestsPerSecond: median(runs.map((r) => r.requestsPerSecond)),
  p50Ms: median(runs.map((r) => r.p50Ms)),
  p99Ms: median(runs.map((r) => r.p99Ms)),
});

/** Warm-up, then `config.runs` measured runs against one process. */
async function loadRuns(config: BenchConfig, url: string, spec: RequestSpec): Promise<LoadResult[]> {
  await runLoad(url, spec, config.connections, config.warmup);
  const runs: LoadResult[] = [];
  for (let run = 0; run < config.runs; run += 1) runs.push(await runLoad(url, spec, config.connections, config.duration));
  return runs;
}

/** The floor's answer to the scenario's GET, beside Glossa's: its size and key set. */
async function checkFloorSample(floor: Floor, spec: RequestSpec, glossaBody: Buffer, name: string): Promise<Pick<FloorReport, 'responseBytes' | 'shapeDifference'>> {
  const sample = await fetchSample(floor.url, spec, spec.headers ?? {});
  if (sample.status !== 200) throw new Error(`${name}: the floor answered ${sample.status}: ${sample.bytes.toString().slice(0, 300)}`);
  const difference = shapeDifference(glossaBody, sample.bytes);
  console.log(`    floor body ${sample.bytes.length} bytes vs Glossa ${glossaBody.length}${difference.length ? `; key sets differ: ${difference.join(', ')}` : ', same keys'}`);
  return { responseBytes: sample.bytes.length, shapeDifference: difference };
}

/**
 * Glossa's runs and, when given, the floor's: each warmed up, then `config.runs` rounds that alternate which of the
 * two goes first (alternating-runs.ts). Measured one after the other, with the bare replay between them, the
 * two met a different machine: on a shared 2-core machine the speed drifts by a fifth within a minute, and the ratio
 * of `/api/` with a token, whose code did not change, read 0.97, 0.68, 0.55 and 0.41 in four runs of one session
 * (docs/performance.md, "Load, session 15").
 */
async function glossaAndFloorRuns(config: BenchConfig, glossaUrl: string, floorUrl: string | null, spec: RequestSpec): Promise<{ glossa: LoadResult[]; floor: LoadResult[] | null }> {
  if (floorUrl === null) return { glossa: await loadRuns(config, glossaUrl, spec), floor: null };
  const [glossa, floor] = await warmedAlternatingRuns(config.runs, loadSide(runLoad, config, glossaUrl, spec), loadSide(runLoad, config, floorUrl, spec));
  return { glossa, floor };
}

/** One scenario against Glossa and (GET, PostgreSQL) the floor in alternating rounds, then the bare node:http replay of Glossa's bytes. */
async function measure(config: BenchConfig, glossa: GlossaProcess, api: BenchApi, scenario: Scenario, floor: Floor | null): Promise<ScenarioReport> {
  const spec: RequestSpec = { ...scenario.spec, headers: { ...(scenario.anonymous ? {} : { Authorization: api.authorization }), ...scenario.spec.headers } };
  const sample = await fetchSample(glossa.url, spec, spec.headers!);
  if (sample.status !== 200) throw new Error(`${scenario.name}: ${spec.method} ${spec.path} answered ${sample.status}: ${sample.bytes.toString().slice(0, 300)}`);
  const floorSample = floor && spec.method === 'GET' ? await checkFloorSample(floor, spec, sample.bytes, scenario.name) : null;

  const loadAverage = os.loadavg()[0];
  glossa.rss.reset();
  const runs = await glossaAndFloorRuns(config, glossa.url, floorSample ? floor!.url : null, spec);
  const glossaRuns = runs.glossa;
  const peakRssBytes = glossa.rss.peak();

  const baseline = await startBaseline({ status: sample.status, headers: recordHeaders(sample.headers), body: sample.bytes });
  let baselineRuns: LoadResult[];
  try {
    baselineRuns = await loadRuns(config, baseline.url, spec);
  } finally {
    await baseline.stop();
  }
  const floorReport: FloorReport | null =
    floorSample && runs.floor ? { ...summarize(runs.floor), failed: runs.floor.reduce((sum, r) => sum + r.failed, 0), ...floorSample } : null;
  const glossaSummary = { ...summarize(glossaRuns), failed: glossaRuns.reduce((sum, r) => sum + r.failed, 0) };
  const baselineSummary = summarize(baselineRuns);
  const report: ScenarioReport = {
    name: scenario.name,
    method: spec.method,
    path: spec.path,
    responseBytes: sample.bytes.length,
    glossa: glossaSummary,
    baseline: baselineSummary,
    ratio: glossaSummary.requestsPerSecond / baselineSummary.requestsPerSecond,
    floor: floorReport,
    floorRatio: floorReport ? pairedRatio(glossaRuns.map((r) => r.requestsPerSecond), runs.floor!.map((r) => r.requestsPerSecond)) : null,
    peakRssBytes,
    loadAverage,
    notes: scenario.notes ?? [],
  };
  const floorText = floorReport ? `, floor ${floorReport.requestsPerSecond.toFixed(0)} req/s (÷ floor ${report.floorRatio!.toFixed(2)})` : '';
  console.log(
    `  ${scenario.name}: ${report.glossa.requestsPerSecond.toFixed(0)} req/s, p50 ${report.glossa.p50Ms} ms, p99 ${report.glossa.p99Ms} ms ` +
      `(bare ${report.baseline.requestsPerSecond.toFixed(0)} req/s${floorText}), failed ${report.glossa.failed}`,
  );
  return report;
}

/** The id of the newest change (the last one of the ascending list). */
async function newestChangeId(api: BenchApi): Promise<number> {
  const count = await api.count('/api/changes/?page_size=1');
  return (await api.json<{ results: Array<{ id: number }> }>('GET', `/api/changes/?page=${count}&page_size=1`)).results[0].id;
}

/** PATCHes that always change something: a new target each time, over `ids` round robin. */
function patchScenario(ids: readonly number[]): { scenario: Scenario; sent: () => number } {
  let sequence = 0;
  let nextId = 0;
  return {
    sent: () => sequence,
    scenario: {
      name: 'unit PATCH',
      spec: {
        method: 'PATCH',
        path: `/api/units/${ids[0]}/`,
        nextPath: () => `/api/units/${ids[nextId++ % ids.length]}/`,
        body: () => JSON.stringify({ target: [`bench edit ${(sequence += 1)}`], state: 20 }),
      },
    },
  };
}

interface ConsistencyCheck {
  translated: number;
  unitsTranslated: number;
  total: number;
  unitsTotal: number;
  consistent: boolean;
}

/** After the PATCH load: the stored statistics must equal what the units say (no lost counter update). */
async function checkConsistency(api: BenchApi, language: string): Promise<ConsistencyCheck> {
  const base = `/api/translations/${PROJECT}/${BIG}/${language}`;
  const detail = await api.json<{ translated: number; total: number }>('GET', `${base}/`);
  const unitsTranslated = await api.count(`${base}/units/?page_size=1&q=${encodeURIComponent('state:>=translated')}`);
  const unitsTotal = await api.count(`${base}/units/?page_size=1`);
  return {
    translated: detail.translated,
    unitsTranslated,
    total: detail.total,
    unitsTotal,
    consistent: detail.translated === unitsTranslated && detail.total === unitsTotal,
  };
}

/** Issue 15 item 2, reported per read scenario: Glossa ≥ 0.8 × its floor (the token's cost: token-pair.ts). */
function floorTargets(scenarios: Map<string, ScenarioReport>): TargetCheck[] {
  return [...scenarios.values()]
    .filter((s) => s.floor !== null)
    .map((s) => ({
      target: `${s.name} ≥ 0.8 × floor`,
      measured: `${s.floorRatio!.toFixed(2)}× by round (medians ${s.glossa.requestsPerSecond.toFixed(0)} vs ${s.floor!.requestsPerSecond.toFixed(0)} req/s, ${(s.glossa.requestsPerSecond / s.floor!.requestsPerSecond).toFixed(2)}×)`,
      met: s.floorRatio! >= 0.8,
    }));
}

function targets(database: string, imported: ImportReport, scenarios: Map<string, ScenarioReport>, consistency: ConsistencyCheck, tokenPair: TokenPairReport): TargetCheck[] {
  const get = (name: string) => scenarios.get(name)!;
  const first = get('units list page');
  const deep = get('units deep page');
  const detail = get('translation detail');
  const small = get('translation detail (small)');
  const patch = get('unit PATCH');
  const checks: TargetCheck[] = [
    {
      target: 'import ≥ 10,000 units/s with peak RSS ≤ 512 MB',
      measured: `${imported.unitsPerSecond.toFixed(0)} units/s (${imported.units} units in ${imported.seconds.toFixed(1)} s), peak RSS ${mb(imported.peakRssBytes)}`,
      met: imported.unitsPerSecond >= 10_000 && (imported.peakRssBytes ?? 0) <= 512 * 1048576,
    },
    {
      target: 'units list page ≥ 1,500 req/s and p99 ≤ 100 ms',
      measured: `${first.glossa.requestsPerSecond.toFixed(0)} req/s, p99 ${first.glossa.p99Ms} ms`,
      met: first.glossa.requestsPerSecond >= 1500 && first.glossa.p99Ms <= 100,
    },
    {
      target: 'deep page within 1.5× of the first page (p50)',
      measured: `${deep.glossa.p50Ms} ms vs ${first.glossa.p50Ms} ms (${(deep.glossa.p50Ms / first.glossa.p50Ms).toFixed(2)}×)`,
      met: deep.glossa.p50Ms <= 1.5 * first.glossa.p50Ms,
    },
    {
      target: 'translation detail: same latency on the large and the small component (p50 within 1.5×)',
      measured: `${detail.glossa.p50Ms} ms vs ${small.glossa.p50Ms} ms`,
      met: detail.glossa.p50Ms <= 1.5 * Math.max(small.glossa.p50Ms, 1),
    },
    {
      target: 'unit PATCH ≥ 500 req/s, no lost update',
      measured:
        `${patch.glossa.requestsPerSecond.toFixed(0)} req/s, failed ${patch.glossa.failed}; statistics translated ${consistency.translated} ` +
        `= units ${consistency.unitsTranslated}, total ${consistency.total} = ${consistency.unitsTotal}`,
      met: patch.glossa.requestsPerSecond >= 500 && patch.glossa.failed === 0 && consistency.consistent,
    },
    ...floorTargets(scenarios),
    tokenPairCheck(tokenPair, scenarios),
  ];
  // Embedded mode is reported, not judged (issue 5).
  return database === 'PostgreSQL' ? checks : checks.map((c) => ({ ...c, target: `${c.target} (report only)` }));
}

interface LoadScenariosReport {
  imported: ImportReport;
  reports: Map<string, ScenarioReport>;
  consistency: ConsistencyCheck;
  tokenPair: TokenPairReport;
  checks: TargetCheck[];
}

/** The big and small components imported through the API, then the autocannon scenarios and their targets. */
async function runLoadScenarios(
  config: BenchConfig,
  glossa: GlossaProcess,
  api: BenchApi,
  big: SyntheticRepo,
  small: SyntheticRepo,
  languages: readonly string[],
  database: string,
  scratch: ScratchDatabase | null,
): Promise<LoadScenariosReport> {
  const project = PROJECT;
  console.log('Importing through the API…');
  const units = config.strings * languages.length;
  glossa.rss.reset();
  const started = process.hrtime.bigint();
  await api.importComponent(project, BIG, big, 3600);
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const imported: ImportReport = { units, seconds, unitsPerSecond: units / seconds, peakRssBytes: glossa.rss.peak() };
  const translations = await api.count(`/api/components/${project}/${BIG}/translations/`);
  if (translations !== languages.length) throw new Error(`The import created ${translations} translations, expected ${languages.length}`);
  console.log(`  ${units} units in ${seconds.toFixed(1)} s = ${imported.unitsPerSecond.toFixed(0)} units/s, peak RSS ${mb(imported.peakRssBytes)}`);
  await api.importComponent(project, SMALL, small, 600);
  if (scratch) console.log(`  ${await settleAfterImport(scratch.url)}`);

  const unitsPath = `/api/translations/${project}/${BIG}/cs/units/`;
  const pages = Math.max(1, Math.ceil(config.strings / config.pageSize));
  const deepPage = Math.max(1, Math.floor(pages * 0.9));
  const editable = await api.json<{ results: Array<{ id: number }> }>('GET', `/api/translations/${project}/${BIG}/de/units/?page_size=1000`);
  const patch = patchScenario(editable.results.map((unit) => unit.id));
  const [unit] = (await api.json<{ results: Array<{ id: number }> }>('GET', `${unitsPath}?page_size=1`)).results;
  const translationPath = `/api/translations/${project}/${BIG}/cs/`;
  const scenarios: Scenario[] = [
    { name: 'units list page', spec: { method: 'GET', path: `${unitsPath}?page_size=${config.pageSize}` } },
    { name: 'units deep page', spec: { method: 'GET', path: `${unitsPath}?page=${deepPage}&page_size=${config.pageSize}` }, notes: [`page ${deepPage} of ${pages}`] },
    { name: 'translation detail', spec: { method: 'GET', path: translationPath }, notes: [`${config.strings} units`] },
    { name: 'translation detail (small)', spec: { method: 'GET', path: `/api/translations/${project}/${SMALL}/cs/` }, notes: [`${config.smallStrings} units`] },
    { name: 'component translations', spec: { method: 'GET', path: `/api/components/${project}/${BIG}/translations/` } },
    patch.scenario,
    { name: 'changes list', spec: { method: 'GET', path: '/api/changes/' } },
    // Issue 15 item 1: the details, the API root with and without a token, and a translation's statistics.
    { name: 'project detail', spec: { method: 'GET', path: `/api/projects/${project}/` } },
    { name: 'component detail', spec: { method: 'GET', path: `/api/components/${project}/${BIG}/` } },
    { name: 'unit detail', spec: { method: 'GET', path: `/api/units/${unit.id}/` } },
    // The newest change, read after the PATCH load: one with a unit, a translation, a user and an author.
    { name: 'change detail', spec: { method: 'GET', path: '/api/changes/' }, notes: ['the newest change after the PATCH load'] },
    { name: 'api root (token)', spec: { method: 'GET', path: '/api/' } },
    { name: 'api root (anonymous)', spec: { method: 'GET', path: '/api/' }, anonymous: true },
    { name: 'translation statistics', spec: { method: 'GET', path: `${translationPath}statistics/` } },
  ];
  const floor = scratch ? (await startFloor(scratch.url, Number(process.env.DATABASE_POOL_SIZE ?? 10))) : null;
  console.log(
    `Load runs (Glossa${floor ? ' and the floor (NestJS/Express + pg, one prepared statement) in alternating rounds' : ''}, then the bare node:http replay of the same bytes)…`,
  );
  const reports = new Map<string, ScenarioReport>();
  let consistency: ConsistencyCheck | null = null;
  try {
    for (const scenario of scenarios) {
      if (scenario.name === 'change detail') scenario.spec.path = `/api/changes/${await newestChangeId(api)}/`;
      reports.set(scenario.name, await measure(config, glossa, api, scenario, floor));
      if (scenario === patch.scenario) {
        consistency = await checkConsistency(api, 'de');
        reports.get(scenario.name)!.notes.push(`${patch.sent()} PATCH bodies sent (incl. warm-up and the sample)`);
      }
    }
  } finally {
    await floor?.stop();
  }
  if (!consistency) throw new Error('The PATCH scenario did not run');
  const tokenPair = await measureTokenAgainstAnonymous(config, glossa.url, api.authorization, runLoad);
  const checks = targets(database, imported, reports, consistency, tokenPair);

  console.log(
    `\nResults (medians of ${config.runs} runs; ratio = Glossa req/s ÷ bare node:http req/s with the same bytes; ` +
      `÷ floor = Glossa req/s ÷ floor req/s (NestJS/Express + pg, one prepared statement, no auth; PostgreSQL only); ` +
      `load = the machine's 1-minute load average when the scenario started)\n`,
  );
  console.log(formatScenarioTable([...reports.values()]));
  console.log(`\nImport: ${units} units in ${seconds.toFixed(1)} s (${imported.unitsPerSecond.toFixed(0)} units/s), peak RSS ${mb(imported.peakRssBytes)}`);
  console.log(`\nTargets (${database}):\n${formatTargets(checks)}`);
  return { imported, reports, consistency, tokenPair, checks };
}

/** Issue 13: the indexed searches over the big component (imported here when the load part did not run). */
async function runIndexedSearchPart(
  config: BenchConfig,
  glossa: GlossaProcess,
  api: BenchApi,
  big: SyntheticRepo,
  languages: readonly string[],
  database: string,
  imported: ImportReport | null,
  scratch: ScratchDatabase | null,
): Promise<IndexedSearchReport> {
  const settle = async () => {
    if (scratch) console.log(`  ${await settleAfterImport(scratch.url)}`);
  };
  const report = await runIndexedSearchScenarios(config, glossa, api, { project: PROJECT, slug: BIG, repo: big, units: config.strings * languages.length }, imported, settle, scratch?.url ?? null);
  if (database !== 'PostgreSQL') report.checks = report.checks.map((c) => ({ ...c, target: `${c.target} (report only)` }));
  console.log(`\nIndexed searches (${database}):\n${formatIndexedSearchReport(report)}\n\nSearch targets (${database}):\n${formatTargets(report.checks)}`);
  return report;
}

async function writeResults(config: BenchConfig, databaseUrl: string | undefined, results: Record<string, unknown>): Promise<void> {
  await mkdir(config.resultsDir, { recursive: true });
  const kind = config.only === 'formats' ? 'formats' : config.only === 'memory' ? 'memory' : databaseUrl ? 'postgres' : 'pglite';
  const file = path.join(config.resultsDir, `bench-${kind}-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  const machine = { cpus: os.cpus().length, cpuModel: os.cpus()[0]?.model, memoryBytes: os.totalmem(), node: process.version };
  await writeFile(file, `${JSON.stringify({ date: new Date().toISOString(), machine, config, ...results }, null, 2)}\n`);
  console.log(`\nWritten to ${file}`);
}

/** The in-process file-format part: before any server starts, so nothing else of the bench competes for the CPU. */
function runFormats(config: BenchConfig): FormatsReport {
  console.log(`File formats in process: ${config.formatUnits} units per file, ${config.formatRuns} runs each…`);
  const report = runFormatsScenario(config.formatUnits, config.formatRuns, config.formats);
  console.log(`\nFile formats (${config.formatUnits} units per file):\n${formatFormatsReport(report)}\n`);
  return report;
}

async function main(): Promise<void> {
  const config = loadBenchConfig(process.env, process.argv.slice(2));
  const languages = LANGUAGES.slice(0, config.languages);
  const databaseUrl = process.env.DATABASE_URL?.trim() || undefined;
  const database = databaseUrl ? 'PostgreSQL' : 'embedded PGlite';
  if (config.only === 'formats') {
    console.log(`Glossa benchmark (file formats only): ${os.cpus().length} CPUs, load average ${os.loadavg().map((value) => value.toFixed(2)).join(' ')}`);
    await writeResults(config, databaseUrl, { formats: runFormats(config) });
    return;
  }
  console.log(
    config.only === 'bulk'
      ? `Glossa benchmark (bulk translate only): ${database}, ${config.bulkItems} items per request, ${os.cpus().length} CPUs, ` +
          `load average ${os.loadavg().map((value) => value.toFixed(2)).join(' ')}`
      : config.only === 'po'
      ? `Glossa benchmark (PO scenario only): ${database}, ${config.poStrings} strings × ${languages.length} languages, ${os.cpus().length} CPUs, ` +
          `load average ${os.loadavg().map((value) => value.toFixed(2)).join(' ')}`
      : `Glossa benchmark: ${database}, ${config.strings} strings × ${languages.length} languages, ${config.connections} connections, ` +
          `${config.runs} × ${config.duration} s per scenario (+${config.warmup} s warm-up), ${os.cpus().length} CPUs`,
  );
  const token = `wlu_bench${randomBytes(16).toString('hex')}`;
  if (config.only === 'memory') {
    // Always the embedded database: what `npm start` runs on a fresh machine (DATABASE_URL is not passed on).
    console.log(`${os.cpus().length} CPUs, load average ${os.loadavg().map((value) => value.toFixed(2)).join(' ')}`);
    const memory = await runMemoryScenario(config, token);
    console.log(`\nMemory targets (embedded PGlite, load average ${memory.loadAverage.start.toFixed(1)} → ${memory.loadAverage.end.toFixed(1)}):\n${formatTargets(memory.checks)}`);
    await writeResults(config, undefined, { memory });
    return;
  }
  const formats = config.only === 'all' ? runFormats(config) : undefined;
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'glossa-bench-data-'));
  let scratch: ScratchDatabase | null = null;
  let glossa: GlossaProcess | null = null;
  const repos = [];
  try {
    if (databaseUrl) scratch = await createScratchDatabase(databaseUrl);
    console.log('Generating the repositories…');
    const runs = (part: 'load' | 'search' | 'po' | 'bulk' | 'indexed-search') => config.only === 'all' || config.only === part;
    const big = runs('load') || runs('indexed-search') ? await createSyntheticRepo(BIG, config.strings, languages) : null;
    const small = runs('load') ? await createSyntheticRepo(SMALL, config.smallStrings, languages) : null;
    const searchRepo = runs('search') ? await createSyntheticRepo('search', config.searchStrings, LANGUAGES.slice(0, 2)) : null;
    const poRepo: PoRepo | null = runs('po') ? await createPoRepo(config.poStrings, languages) : null;
    const bulkRepo = runs('bulk') ? await createSyntheticRepo('bulk', config.bulkItems, LANGUAGES.slice(0, 2)) : null;
    for (const repo of [big, small, searchRepo, poRepo, bulkRepo]) if (repo) repos.push(repo);
    glossa = await startGlossa({
      ...(scratch ? { DATABASE_URL: scratch.url } : {}),
      DATA_DIR: dataDir,
      DEMO: 'false',
      ADMIN_TOKEN: token,
      ALLOW_LOCAL_REPOSITORIES: 'true',
      // The load must not be throttled (429); the per-request counting itself still runs and is measured.
      RATE_LIMIT_USER: '1000000000/second',
      RATE_LIMIT_ANON: '1000000000/second',
      // `--strings` may go past the default MAX_UNITS_PER_FILE (100,000); the file limit is not what is measured.
      MAX_UNITS_PER_FILE: String(Math.max(100_000, config.strings, config.poStrings, config.bulkItems)),
      // `--bulk-items` may go past the default limit of one bulk request, and its body past the default body size.
      BULK_MAX_ITEMS: String(Math.max(10_000, config.bulkItems)),
      MAX_REQUEST_BODY_BYTES: String(Math.max(2_621_440, config.bulkItems * 100)),
    });
    const api = new BenchApi(glossa.url, token);
    const project = `${PROJECT}`;
    await api.json('POST', '/api/projects/', { name: 'Benchmark', slug: project, web: 'https://example.com/' });

    const load = runs('load') ? await runLoadScenarios(config, glossa, api, big!, small!, languages, database, scratch) : null;
    const indexedSearch = runs('indexed-search') ? await runIndexedSearchPart(config, glossa, api, big!, languages, database, load?.imported ?? null, scratch) : null;
    let search: SearchReport | null = null;
    if (runs('search')) {
      console.log(`Importing ${config.searchComponents} components of ${config.searchStrings} strings (en + cs) for the search scenario…`);
      await importSearchComponents(api, project, searchRepo!, config.searchComponents);
      if (scratch) console.log(`  ${await settleAfterImport(scratch.url)}`);
      search = await runSearchScenario(api, config.searchComponents, config.searchRequests, config.searchConcurrency);
      console.log(`\nAnonymous search (${database}):\n${formatSearchReport(search)}`);
    }
    let po: PoReport | null = null;
    let poChecks: TargetCheck[] = [];
    if (poRepo) {
      const settle = async () => {
        if (scratch) console.log(`  ${await settleAfterImport(scratch.url)}`);
      };
      po = await runPoScenario(api, glossa, project, poRepo, config.poStrings, languages, settle);
      poChecks = poTargets(po);
      if (database !== 'PostgreSQL') poChecks = poChecks.map((c) => ({ ...c, target: `${c.target} (report only)` }));
      console.log(`\ngettext PO (${database}):\n${formatPoReport(po)}\n\nPO targets (${database}):\n${formatTargets(poChecks)}`);
    }

    let bulk: BulkReport | null = null;
    let bulkChecks: TargetCheck[] = [];
    if (bulkRepo) {
      console.log(`Bulk translate: importing ${config.bulkItems} strings (en + cs), then ${config.bulkRounds} requests of ${config.bulkItems} items…`);
      const settle = async () => {
        if (scratch) console.log(`  ${await settleAfterImport(scratch.url)}`);
      };
      const sizes = { items: config.bulkItems, rounds: config.bulkRounds, patchUnits: Math.min(config.bulkPatches, config.bulkItems) };
      bulk = await runBulkScenario(api, project, 'bulk', bulkRepo, sizes, settle, { glossa, databaseUrl: scratch?.url ?? null });
      bulkChecks = bulkTargets(bulk);
      if (database !== 'PostgreSQL') bulkChecks = bulkChecks.map((c) => ({ ...c, target: `${c.target} (report only)` }));
      console.log(`\nBulk translate (${database}):\n${formatBulkReport(bulk)}\n\nBulk targets (${database}):\n${formatTargets(bulkChecks)}`);
    }

    await writeResults(config, databaseUrl, {
      database,
      import: load?.imported,
      scenarios: load ? [...load.reports.values()] : [],
      consistency: load?.consistency,
      apiRootTokenPair: load?.tokenPair,
      targets: load?.checks,
      search,
      indexedSearch,
      po: po ? { ...po, targets: poChecks } : undefined,
      bulk: bulk ? { ...bulk, targets: bulkChecks } : undefined,
      formats,
    });
  } finally {
    await glossa?.stop();
    for (const repo of repos) await repo.cleanup();
    await rm(dataDir, { recursive: true, force: true });
    if (scratch && !config.keepDatabase) await scratch.drop();
    else if (scratch) console.log(`Kept the database ${scratch.url}`);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
