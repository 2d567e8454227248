import { DataSource } from 'typeorm';
import { authHeader } from '../support/contract';
import { createTestApp, TEST_ADMIN_TOKEN, type TestApp } from '../support/test-app';
import { createUserWithToken } from '../support/users-factories';

function limitHeaders(response: { headers: Record<string, string> }): [number, number, number] {
  return [Number(response.headers['x-ratelimit-limit']), Number(response.headers['x-ratelimit-remaining']), Number(response.headers['x-ratelimit-reset'])];
}

describe('rate limiting (weblate-api.md §2.4)', () => {
  let app: TestApp;
  let userToken: string;

  beforeAll(async () => {
    app = await createTestApp({ RATE_LIMIT_ANON: '3/minute', RATE_LIMIT_USER: '5/hour' });
    userToken = (await createUserWithToken(app.glossa.app.get(DataSource), 'limited')).token;
  });
  afterAll(async () => {
    await app.close();
  });

  it('counts anonymous callers by address, on every API answer, and answers 429 with Retry-After past the limit', async () => {
    const first = await app.http().get('/api/').expect(200);
    const [limit, remaining, reset] = limitHeaders(first);
    expect(limit).toBe(3);
    expect(remaining).toBe(2);
    expect(reset).toBeGreaterThanOrEqual(59);
    expect(reset).toBeLessThanOrEqual(60);

    // Errors from the HTTP contract (unknown path, wrong method) carry the headers and count too.
    const notFound = await app.http().get('/api/no-such-thing/').expect(404);
    expect(limitHeaders(notFound).slice(0, 2)).toEqual([3, 1]);
    const notAllowed = await app.http().delete('/api/').expect(405);
    expect(limitHeaders(notAllowed).slice(0, 2)).toEqual([3, 0]);

    const throttled = await app.http().get('/api/projects/').expect(429);
    expect(throttled.headers['content-type']).toBe('application/json');
    const retryAfter = Number(throttled.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(limitHeaders(throttled)).toEqual([3, 0, retryAfter]);
    expect(throttled.body).toEqual({ detail: `Request was throttled. Expected available in ${retryAfter} seconds.` });

    // Outside /api/ nothing is limited.
    const health = await app.http().get('/healthz').expect(200);
    expect(health.headers['x-ratelimit-limit']).toBeUndefined();
  });

  it('counts authenticated callers per user with the user rate, separately from the anonymous count', async () => {
    const first = await app.http().get('/api/projects/').set(...authHeader(userToken)).expect(200);
    const second = await app.http().get('/api/projects/').set(...authHeader(userToken)).expect(200);
    expect(limitHeaders(first).slice(0, 2)).toEqual([5, 4]);
    // Two consecutive authenticated requests decrease the remaining count by exactly 1 (§2.4).
    expect(limitHeaders(second).slice(0, 2)).toEqual([5, 3]);
    expect(limitHeaders(second)[2]).toBeGreaterThan(3500);

    const admin = await app.http().get('/api/projects/').set(...authHeader(TEST_ADMIN_TOKEN)).expect(200);
    expect(limitHeaders(admin).slice(0, 2)).toEqual([5, 4]);

    await app.http().get('/api/').set(...authHeader(userToken)).expect(200);
    await app.http().get('/api/').set(...authHeader(userToken)).expect(200);
    await app.http().get('/api/').set(...authHeader(userToken)).expect(200);
    const throttled = await app.http().get('/api/').set(...authHeader(userToken)).expect(429);
    expect(throttled.body.detail).toMatch(/^Request was throttled\. Expected available in \d+ seconds\.$/);
  });

  it('starts a new window once the old one is over', async () => {
    // Age the anonymous window instead of waiting a minute.
    await app.glossa.app.get(DataSource).query(`UPDATE rate_limit_counters SET window_start = now() - interval '61 seconds' WHERE key LIKE 'anon:%'`);
    const response = await app.http().get('/api/').expect(200);
    expect(limitHeaders(response).slice(0, 2)).toEqual([3, 2]);
  });
});
