import type { LoadResult, RequestSpec } from './load';
import { alternatingRuns, loadSide, pairedRatio, warmedAlternatingRuns } from './alternating-runs';

describe('alternatingRuns', () => {
  /** Runs `rounds` rounds of two recording measurements; returns the order they ran in and the results. */
  async function record(rounds: number): Promise<{ order: string[]; results: [string[], string[]] }> {
    const order: string[] = [];
    let count = 0;
    const measure = (name: string) => async () => {
      count += 1;
      order.push(name);
      return `${name}${count}`;
    };
    const results = await alternatingRuns(rounds, measure('a'), measure('b'));
    return { order, results };
  }

  it('alternates which measurement goes first, round by round', async () => {
    expect((await record(4)).order).toEqual(['a', 'b', 'b', 'a', 'a', 'b', 'b', 'a']);
  });

  it("returns each measurement's results in round order", async () => {
    expect((await record(3)).results).toEqual([
      ['a1', 'a4', 'a5'],
      ['b2', 'b3', 'b6'],
    ]);
  });

  it('with one round, takes the two side by side', async () => {
    expect(await record(1)).toEqual({ order: ['a', 'b'], results: [['a1'], ['b2']] });
  });
});

describe('pairedRatio', () => {
  it('is the median of the rounds\' ratios, not the ratio of the medians', () => {
    // Round 2 slowed both sides: the medians apart give 900 ÷ 1000 = 0.9, the rounds themselves 0.8 each time.
    expect(pairedRatio([800, 400, 900], [1000, 500, 1125])).toBeCloseTo(0.8, 10);
  });

  it('averages the middle two ratios of an even number of rounds', () => {
    expect(pairedRatio([1, 2, 3, 4], [1, 2, 2, 1])).toBeCloseTo((1 + 1.5) / 2, 10);
  });

  it('refuses rounds that do not pair', () => {
    expect(() => pairedRatio([1, 2], [1])).toThrow('pairedRatio needs rounds of both');
    expect(() => pairedRatio([], [])).toThrow('pairedRatio needs rounds of both');
  });
});

describe('warmedAlternatingRuns and loadSide', () => {
  it('warms each side up once for the warm-up, then alternates rounds of the measured duration', async () => {
    const calls: string[] = [];
    const load = async (url: string, spec: RequestSpec, connections: number, seconds: number): Promise<LoadResult> => {
      calls.push(`${url}${spec.path} ${connections}×${seconds}s`);
      return { requestsPerSecond: calls.length, p50Ms: 1, p99Ms: 1, requests: 1, ok: 1, failed: 0 };
    };
    const config = { connections: 7, warmup: 1, duration: 5 };
    const spec: RequestSpec = { method: 'GET', path: '/api/' };
    const [a, b] = await warmedAlternatingRuns(2, loadSide(load, config, 'http://a', spec), loadSide(load, config, 'http://b', spec));
    expect(calls).toEqual(['http://a/api/ 7×1s', 'http://b/api/ 7×1s', 'http://a/api/ 7×5s', 'http://b/api/ 7×5s', 'http://b/api/ 7×5s', 'http://a/api/ 7×5s']);
    expect([a.map((run) => run.requestsPerSecond), b.map((run) => run.requestsPerSecond)]).toEqual([[3, 6], [4, 5]]);
  });
});
