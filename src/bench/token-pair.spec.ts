import type { LoadResult } from './load';
import type { ScenarioReport } from './report';
import { tokenPairCheck, type TokenPairReport } from './token-pair';

const run = (requestsPerSecond: number): LoadResult => ({ requestsPerSecond, p50Ms: 1, p99Ms: 2, requests: requestsPerSecond, ok: requestsPerSecond, failed: 0 });

/** A pair whose anonymous rounds answered `anonymous` and whose token rounds answered `token` req/s. */
function pair(token: number[], anonymous: number[], extraTimePerRequest: number): TokenPairReport {
  return { token: token.map(run), anonymous: anonymous.map(run), extraTimePerRequest };
}

const scenario = (name: string, floorRatio: number): [string, ScenarioReport] => [name, { name, floorRatio } as ScenarioReport];

describe('tokenPairCheck', () => {
  it('is met up to 15 % more time per request with the token, and shows the medians of the paired rounds', () => {
    const check = tokenPairCheck(pair([900, 1000, 950], [1000, 1100, 1050], 0.1), new Map());
    expect(check.met).toBe(true);
    expect(check.target).toBe('authenticated /api/ costs ≤ 15 % over anonymous');
    expect(check.measured).toBe('10.0 % more time per request, token and anonymous in alternating rounds (medians 950 vs 1050 req/s)');
    expect(tokenPairCheck(pair([900], [1000], 0.15), new Map()).met).toBe(true);
    expect(tokenPairCheck(pair([800], [1000], 0.16), new Map()).met).toBe(false);
  });

  it('shows the API-root scenarios against their floors beside it, without judging by them', () => {
    const scenarios = new Map([scenario('api root (token)', 0.8), scenario('api root (anonymous)', 1.2)]);
    const check = tokenPairCheck(pair([1000], [1050], 0.05), scenarios);
    expect(check.met).toBe(true);
    expect(check.measured).toContain('; each scenario against the floor of its own minute: 50.0 % (÷ floor 0.80 with the token, 1.20 without)');
  });
});
