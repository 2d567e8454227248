import type { LoadResult } from './load';

export interface ScenarioReport {
  name: string;
  method: string;
  path: string;
  responseBytes: number;
  glossa: { runs: LoadResult[]; requestsPerSecond: number; p50Ms: number; p99Ms: number; failed: number };
  baseline: { runs: LoadResult[]; requestsPerSecond: number; p50Ms: number; p99Ms: number };
  /** Glossa's median req/s over the baseline's. */
  ratio: number;
  /**
   * The floor (floor-server.ts: NestJS/Express + pg, one prepared statement, no auth) under the same load in
   * the same minute, for GET scenarios on PostgreSQL; null otherwise (the embedded database is not reachable
   * from another process).
   */
  floor: FloorReport | null;
  /**
   * Glossa's req/s over the floor's, the median over rounds of the two side by side (alternating-runs.ts
   * pairedRatio) (issue 15: every read ≥ 0.8).
   */
  floorRatio: number | null;
  peakRssBytes: number | null;
  /** 1-minute load average of the machine when the scenario started (other work on the box shows here). */
  loadAverage: number;
  notes: string[];
}

export interface FloorReport {
  runs: LoadResult[];
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  failed: number;
  /** Size of the floor's body for the same request, next to Glossa's `responseBytes`. */
  responseBytes: number;
  /** Keys Glossa's body has and the floor's lacks or the other way round (floor-process.ts); empty when they agree. */
  shapeDifference: string[];
}

export interface ImportReport {
  units: number;
  seconds: number;
  unitsPerSecond: number;
  peakRssBytes: number | null;
}

export interface TargetCheck {
  target: string;
  measured: string;
  met: boolean;
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

export const mb = (bytes: number | null): string => (bytes === null ? 'n/a' : `${(bytes / 1048576).toFixed(0)} MB`);

function pad(cells: string[], widths: number[]): string {
  return cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  ');
}

export function formatScenarioTable(scenarios: readonly ScenarioReport[]): string {
  const header = ['scenario', 'bytes', 'req/s', 'p50 ms', 'p99 ms', 'bare req/s', 'bare p99', 'ratio', 'floor bytes', 'floor req/s', 'floor p50', 'floor p99', '÷ floor', 'peak RSS', 'failed', 'load'];
  const floor = (s: ScenarioReport, cell: (f: FloorReport) => string) => (s.floor ? cell(s.floor) : '-');
  const rows = scenarios.map((s) => [
    s.name,
    String(s.responseBytes),
    s.glossa.requestsPerSecond.toFixed(0),
    s.glossa.p50Ms.toFixed(1),
    s.glossa.p99Ms.toFixed(1),
    s.baseline.requestsPerSecond.toFixed(0),
    s.baseline.p99Ms.toFixed(1),
    `${(s.ratio * 100).toFixed(1)}%`,
    floor(s, (f) => String(f.responseBytes)),
    floor(s, (f) => f.requestsPerSecond.toFixed(0)),
    floor(s, (f) => f.p50Ms.toFixed(1)),
    floor(s, (f) => f.p99Ms.toFixed(1)),
    s.floorRatio === null ? '-' : s.floorRatio.toFixed(2),
    mb(s.peakRssBytes),
    String(s.glossa.failed),
    s.loadAverage.toFixed(1),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  return [pad(header, widths), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map((r) => pad(r, widths))].join('\n');
}

export function formatTargets(checks: readonly TargetCheck[]): string {
  return checks.map((c) => `  [${c.met ? 'met' : 'NOT met'}] ${c.target}: ${c.measured}`).join('\n');
}
