import type { BenchConfig } from './bench-config';
import type { LoadResult, RequestSpec, runLoad } from './load';

/**
 * `runs` rounds of two measurements taken side by side, alternating which goes first (A B, B A, A B, …), so that
 * a drift of the machine's speed during the rounds falls on both alike. Returns each one's results in round order.
 */
export async function alternatingRuns<T>(runs: number, first: () => Promise<T>, second: () => Promise<T>): Promise<[T[], T[]]> {
  const firsts: T[] = [];
  const seconds: T[] = [];
  for (let round = 0; round < runs; round += 1) {
    if (round % 2 === 0) {
      firsts.push(await first());
      seconds.push(await second());
    } else {
      seconds.push(await second());
      firsts.push(await first());
    }
  }
  return [firsts, seconds];
}

/**
 * The ratio of two measurements taken by alternatingRuns: the median over rounds of first ÷ second within each
 * round. The two of one round met the same machine within seconds; the medians of each side's rounds taken apart
 * do not pair them, so a round in which the machine slowed for both (seen: one 5-second round of the floor at 4,101
 * req/s beside 6,942 and 7,003; docs/performance.md "This machine, session 22") moves that estimate but not this one.
 */
export function pairedRatio(firsts: readonly number[], seconds: readonly number[]): number {
  if (firsts.length === 0 || firsts.length !== seconds.length) throw new Error(`pairedRatio needs rounds of both, got ${firsts.length} and ${seconds.length}`);
  const ratios = firsts.map((value, round) => value / seconds[round]).sort((a, b) => a - b);
  const middle = Math.floor(ratios.length / 2);
  return ratios.length % 2 === 1 ? ratios[middle] : (ratios[middle - 1] + ratios[middle]) / 2;
}

/** One side of warmedAlternatingRuns: a warm-up, then what one round measures. */
export interface MeasuredSide<T> {
  warmUp(): Promise<unknown>;
  measure(): Promise<T>;
}

/** Each side warmed up once, then `runs` rounds of alternatingRuns. */
export async function warmedAlternatingRuns<T>(runs: number, first: MeasuredSide<T>, second: MeasuredSide<T>): Promise<[T[], T[]]> {
  await first.warmUp();
  await second.warmUp();
  return alternatingRuns(runs, () => first.measure(), () => second.measure());
}

/**
 * `spec` against `url` as a side: warmed up for `config.warmup` seconds, each round `config.duration` seconds at
 * `config.connections`. `load` is load.ts runLoad (passed in: this file loads without autocannon in unit tests).
 */
export function loadSide(load: typeof runLoad, config: Pick<BenchConfig, 'connections' | 'warmup' | 'duration'>, url: string, spec: RequestSpec): MeasuredSide<LoadResult> {
  return {
    warmUp: () => load(url, spec, config.connections, config.warmup),
    measure: () => load(url, spec, config.connections, config.duration),
  };
}
