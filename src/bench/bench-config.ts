// Settings of `npm run bench`, from the environment or `--name=value` arguments (arguments win), so a quick
// smoke run (`npm run bench -- --strings=2000 --duration=2 --runs=1`) and the full default run use one script.

export interface BenchConfig {
  /** Strings in the synthetic component (units per language). */
  strings: number;
  /** Languages including the source language (at most LANGUAGES.length). */
  languages: number;
  /** Strings of the small component used to show that translation detail does not depend on size. */
  smallStrings: number;
  connections: number;
  /** Seconds per measured run. */
  duration: number;
  /** Seconds of warm-up before the runs of each scenario. */
  warmup: number;
  /** Runs per scenario; the report shows medians. */
  runs: number;
  /** Units list page size (the deep page is page 0.9 × pages). */
  pageSize: number;
  resultsDir: string;
  keepDatabase: boolean;
  /**
   * Which parts run: everything, only the load scenarios, only the anonymous search scenario, only the PO
   * scenario, only the bulk translate scenario, only the indexed searches over the big component (issue 13), or
   * only the in-process file-format part (no server, no database), or only the embedded default's memory
   * (issue 15 item 3; never part of "all": it starts its own servers without DATABASE_URL).
   */
  only: 'all' | 'load' | 'search' | 'po' | 'bulk' | 'indexed-search' | 'formats' | 'memory';
  /** Indexed-search part (issue 13): autocannon connections per search (searches are costlier than page reads). */
  searchConnections: number;
  /** Bulk translate scenario (issue 14 item 5): items in one request, rounds (medians), single PATCHes for reference. */
  bulkItems: number;
  bulkRounds: number;
  bulkPatches: number;
  /** gettext PO scenario (issue 11): strings of the PO component (one PO file per non-source language). */
  poStrings: number;
  /** Anonymous search scenario (issue 10 item 5): components of `searchStrings` strings in en + cs each. */
  searchComponents: number;
  searchStrings: number;
  /** Sequential searches per caller (anonymous, superuser); the report shows median and maximum. */
  searchRequests: number;
  /** Concurrent anonymous searches while /readyz and a trivial request are timed. */
  searchConcurrency: number;
  /** File-format part: units of each synthetic file, measured runs per format (medians), and the format ids to run (empty: all). */
  formatUnits: number;
  formatRuns: number;
  formats: string[];
}

/** Source first; every other code exists in the language catalog synced at start-up. */
export const LANGUAGES = ['en', 'cs', 'de', 'fr', 'es', 'it', 'pl', 'pt', 'nl', 'sv', 'ja', 'ko'];

function readArgs(argv: readonly string[]): Record<string, string> {
  const args: Record<string, string> = {};
  for (const arg of argv) {
    const match = /^--([a-z-]+)=(.*)$/.exec(arg);
    if (!match) throw new Error(`Unknown argument "${arg}"; use --name=value (see README "Benchmark").`);
    args[match[1]] = match[2];
  }
  return args;
}

function positive(name: string, raw: string | undefined, fallback: number, max: number): number {
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0 || value > max) throw new Error(`${name}: expected a number from 1 to ${max}, got "${raw}"`);
  return value;
}

export function loadBenchConfig(env: NodeJS.ProcessEnv, argv: readonly string[]): BenchConfig {
  const args = readArgs(argv);
  const pick = (arg: string, variable: string): string | undefined => args[arg] ?? env[variable];
  const known = new Set([
    'strings',
    'languages',
    'small-strings',
    'connections',
    'duration',
    'warmup',
    'runs',
    'page-size',
    'results-dir',
    'keep-database',
    'only',
    'search-components',
    'search-strings',
    'search-requests',
    'search-concurrency',
    'search-connections',
    'po-strings',
    'bulk-items',
    'bulk-rounds',
    'bulk-patches',
    'format-units',
    'format-runs',
    'formats',
  ]);
  for (const name of Object.keys(args)) if (!known.has(name)) throw new Error(`Unknown argument --${name}`);
  const parts = ['all', 'load', 'search', 'po', 'bulk', 'indexed-search', 'formats', 'memory'] as const;
  const only = (pick('only', 'BENCH_ONLY') ?? 'all') as BenchConfig['only'];
  if (!parts.includes(only)) {
    throw new Error(`only: expected ${parts.slice(0, -1).join(', ')} or memory, got "${only}"`);
  }
  return {
    strings: Math.floor(positive('strings', pick('strings', 'BENCH_STRINGS'), 50_000, 1_000_000)),
    languages: Math.floor(positive('languages', pick('languages', 'BENCH_LANGUAGES'), 6, LANGUAGES.length)),
    smallStrings: Math.floor(positive('small-strings', pick('small-strings', 'BENCH_SMALL_STRINGS'), 50, 100_000)),
    connections: Math.floor(positive('connections', pick('connections', 'BENCH_CONNECTIONS'), 50, 1000)),
    duration: positive('duration', pick('duration', 'BENCH_DURATION'), 5, 600),
    warmup: positive('warmup', pick('warmup', 'BENCH_WARMUP'), 1, 60),
    runs: Math.floor(positive('runs', pick('runs', 'BENCH_RUNS'), 3, 20)),
    pageSize: Math.floor(positive('page-size', pick('page-size', 'BENCH_PAGE_SIZE'), 50, 1000)),
    resultsDir: pick('results-dir', 'BENCH_RESULTS_DIR') ?? 'bench-results',
    keepDatabase: ['1', 'true', 'yes'].includes((pick('keep-database', 'BENCH_KEEP_DATABASE') ?? '').toLowerCase()),
    only,
    searchComponents: Math.floor(positive('search-components', pick('search-components', 'BENCH_SEARCH_COMPONENTS'), 20, 200)),
    searchStrings: Math.floor(positive('search-strings', pick('search-strings', 'BENCH_SEARCH_STRINGS'), 2000, 100_000)),
    searchRequests: Math.floor(positive('search-requests', pick('search-requests', 'BENCH_SEARCH_REQUESTS'), 10, 1000)),
    searchConcurrency: Math.floor(positive('search-concurrency', pick('search-concurrency', 'BENCH_SEARCH_CONCURRENCY'), 12, 200)),
    searchConnections: Math.floor(positive('search-connections', pick('search-connections', 'BENCH_SEARCH_CONNECTIONS'), 10, 1000)),
    bulkItems: Math.floor(positive('bulk-items', pick('bulk-items', 'BENCH_BULK_ITEMS'), 10_000, 1_000_000)),
    bulkRounds: Math.floor(positive('bulk-rounds', pick('bulk-rounds', 'BENCH_BULK_ROUNDS'), 3, 50)),
    bulkPatches: Math.floor(positive('bulk-patches', pick('bulk-patches', 'BENCH_BULK_PATCHES'), 1000, 100_000)),
    poStrings: Math.floor(positive('po-strings', pick('po-strings', 'BENCH_PO_STRINGS'), 50_000, 1_000_000)),
    formatUnits: Math.floor(positive('format-units', pick('format-units', 'BENCH_FORMAT_UNITS'), 50_000, 1_000_000)),
    formatRuns: Math.floor(positive('format-runs', pick('format-runs', 'BENCH_FORMAT_RUNS'), 5, 50)),
    formats: (pick('formats', 'BENCH_FORMATS') ?? '').split(',').map((id) => id.trim()).filter((id) => id !== ''),
  };
}
