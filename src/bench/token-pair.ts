import { loadSide, pairedRatio, warmedAlternatingRuns } from './alternating-runs';
import type { BenchConfig } from './bench-config';
import type { LoadResult, RequestSpec, runLoad } from './load';
import { median, type ScenarioReport, type TargetCheck } from './report';

// Issue 15 item 2: the authenticated request path costs at most 15 % over the anonymous one. The two API-root
// scenarios each run beside the floor in their own minute, and comparing their two ratios compared two minutes
// of the floor as well: in session 26's first run the floor's `/api/`, which does the same work with or without a
// token, answered 6,547 req/s in the token's minute and 5,177 in the anonymous one's, and the check read 24 % for
// a raw 8.8 %. Here Glossa's `/api/` with the token and without it run in alternating rounds of the same minute,
// so the machine's drift falls on both alike (alternating-runs.ts).

export interface TokenPairReport {
  token: LoadResult[];
  anonymous: LoadResult[];
  /** The median over rounds of anonymous req/s ÷ token req/s, less one: the token's extra time per request. */
  extraTimePerRequest: number;
}

/** `load`: load.ts runLoad (passed in, so that this file's checks load without autocannon in a unit test). */
export async function measureTokenAgainstAnonymous(config: BenchConfig, glossaUrl: string, authorization: string, load: typeof runLoad): Promise<TokenPairReport> {
  const withToken: RequestSpec = { method: 'GET', path: '/api/', headers: { Authorization: authorization } };
  const anonymous: RequestSpec = { method: 'GET', path: '/api/', headers: {} };
  const [tokenRuns, anonymousRuns] = await warmedAlternatingRuns(config.runs, loadSide(load, config, glossaUrl, withToken), loadSide(load, config, glossaUrl, anonymous));
  const report = { token: tokenRuns, anonymous: anonymousRuns, extraTimePerRequest: pairedRatio(rates(anonymousRuns), rates(tokenRuns)) - 1 };
  console.log(
    `  api root, token against anonymous in alternating rounds: ${median(rates(tokenRuns)).toFixed(0)} vs ${median(rates(anonymousRuns)).toFixed(0)} req/s, ` +
      `${percent(report.extraTimePerRequest)} more time per request with the token`,
  );
  return report;
}

/** The check of issue 15 item 2 on the paired rounds, with the two scenarios' ratios to their floors beside it. */
export function tokenPairCheck(pair: TokenPairReport, scenarios: Map<string, ScenarioReport>): TargetCheck {
  const token = scenarios.get('api root (token)')?.floorRatio;
  const anonymous = scenarios.get('api root (anonymous)')?.floorRatio;
  const floors = token != null && anonymous != null ? `; each scenario against the floor of its own minute: ${percent(anonymous / token - 1)} (÷ floor ${token.toFixed(2)} with the token, ${anonymous.toFixed(2)} without)` : '';
  return {
    target: 'authenticated /api/ costs ≤ 15 % over anonymous',
    measured:
      `${percent(pair.extraTimePerRequest)} more time per request, token and anonymous in alternating rounds ` +
      `(medians ${median(rates(pair.token)).toFixed(0)} vs ${median(rates(pair.anonymous)).toFixed(0)} req/s)${floors}`,
    met: pair.extraTimePerRequest <= 0.15,
  };
}

const percent = (fraction: number): string => `${(fraction * 100).toFixed(1)} %`;
const rates = (runs: readonly LoadResult[]): number[] => runs.map((run) => run.requestsPerSecond);
