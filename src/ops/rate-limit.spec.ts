import type { DataSource } from 'typeorm';
import { leaseSize, PostgresRateLimitStore } from './rate-limit';

/**
 * A stand-in for the shared `rate_limit_counters` table: the reservation statement adds its lease ($5) to the
 * caller's counter (anonymous callers only here) and answers the new count, as the real upsert does.
 */
class SharedCounter {
  hits = 0;
  statements = 0;

  dataSource(): DataSource {
    return {
      query: async (_sql: string, params: unknown[]) => {
        this.statements += 1;
        await Promise.resolve();
        this.hits += Number(params[4]);
        return [{ hits: this.hits, is_user: false, reset: '60' }];
      },
    } as unknown as DataSource;
  }
}

const rates = (requests: number) => ({ rateLimitAnon: { requests, windowSeconds: 60 }, rateLimitUser: { requests, windowSeconds: 3600 } });

describe('leaseSize', () => {
  it('reserves a sixteenth of what is left, between 1 and 1,000', () => {
    expect(leaseSize(3)).toBe(1);
    expect(leaseSize(160)).toBe(10);
    expect(leaseSize(5000)).toBe(312);
    expect(leaseSize(16_000)).toBe(1000);
    expect(leaseSize(1_000_000)).toBe(1000);
    expect(leaseSize(0)).toBe(1);
  });
});

describe('PostgresRateLimitStore leases', () => {
  it('counts exactly with small limits: every request asks the shared counter', async () => {
    const counter = new SharedCounter();
    const store = new PostgresRateLimitStore(counter.dataSource());
    const answers = [];
    for (let i = 0; i < 4; i += 1) answers.push(await store.hit(null, '10.0.0.1', rates(3)));
    expect(answers.map((a) => [a.allowed, a.remaining])).toEqual([
      [true, 2],
      [true, 1],
      [true, 0],
      [false, 0],
    ]);
    expect(counter.statements).toBe(4);
  });

  it('serves most requests of a large limit from memory and reports the remaining count exactly', async () => {
    const counter = new SharedCounter();
    const store = new PostgresRateLimitStore(counter.dataSource());
    const remaining: number[] = [];
    for (let i = 0; i < 200; i += 1) remaining.push((await store.hit(null, '10.0.0.2', rates(5000))).remaining);
    expect(remaining).toEqual(Array.from({ length: 200 }, (_, i) => 5000 - (i + 1)));
    expect(counter.statements).toBeLessThan(10);
  });

  it('never lets two processes sharing the counter exceed the limit together', async () => {
    const counter = new SharedCounter();
    const a = new PostgresRateLimitStore(counter.dataSource());
    const b = new PostgresRateLimitStore(counter.dataSource());
    let allowed = 0;
    for (let i = 0; i < 1000; i += 1) {
      const store = i % 3 === 0 ? b : a;
      if ((await store.hit(null, '10.0.0.3', rates(500))).allowed) allowed += 1;
    }
    expect(allowed).toBeLessThanOrEqual(500);
    // Reservations that the other process did not use are lost, at most a few requests.
    expect(allowed).toBeGreaterThanOrEqual(490);
  });

  it('makes one reservation for concurrent requests of one caller', async () => {
    const counter = new SharedCounter();
    const store = new PostgresRateLimitStore(counter.dataSource());
    const answers = await Promise.all(Array.from({ length: 20 }, () => store.hit(null, '10.0.0.4', rates(1600))));
    expect(answers.every((a) => a.allowed)).toBe(true);
    expect(counter.statements).toBeLessThanOrEqual(2);
    expect(counter.hits).toBeLessThanOrEqual(200);
  });
});
