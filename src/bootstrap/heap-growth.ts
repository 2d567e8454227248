import { setFlagsFromString } from 'node:v8';

/**
 * How far V8 lets the old generation grow past what survived the last full collection before it runs the next
 * one, as `--heap-growing-percent` (factor 1 + percent / 100), when the server runs on PostgreSQL.
 *
 * `npm start` caps the old generation at 256 MB for the embedded database's memory budget (README "Memory").
 * V8 derives its growing factor from that cap: for a heap of at most 256 MB it allows at most 1.3 × the live
 * size, where a heap of 1 GB or more gets up to 4 ×. With about 50 MB live the server then ran a mark-compact
 * every 0.4 s under load, which was a quarter of Node's CPU per read and most of a search's tail latency
 * (docs/performance.md "Garbage collection on PostgreSQL"). On PostgreSQL no embedded database shares the
 * process and the memory budget is the container's, so the server gets the factor V8 gives a large heap;
 * the cap stays the hard limit. On the embedded database V8's own choice stands.
 */
export const POSTGRES_HEAP_GROWING_PERCENT = 300;

const HEAP_GROWING_FLAG = /(^|\s)--heap[-_]growing[-_]percent(=|\s|$)/;

/**
 * The flag to set for this process, or null: only on PostgreSQL, and never over an operator's own
 * `--heap-growing-percent` (on the command line or in NODE_OPTIONS).
 */
export function heapGrowthFlag(onPostgres: boolean, execArgv: readonly string[], nodeOptions: string | undefined): string | null {
  if (!onPostgres) return null;
  if (execArgv.some((argument) => HEAP_GROWING_FLAG.test(argument)) || HEAP_GROWING_FLAG.test(nodeOptions ?? '')) return null;
  return `--heap-growing-percent=${POSTGRES_HEAP_GROWING_PERCENT}`;
}

/**
 * Applies heapGrowthFlag to the running process. V8 reads this flag at every full collection, so setting it
 * at start takes effect from the next one.
 */
export function applyHeapGrowth(onPostgres: boolean): void {
  const flag = heapGrowthFlag(onPostgres, process.execArgv, process.env.NODE_OPTIONS);
  if (flag !== null) setFlagsFromString(flag);
}
