import { retryAfterMs, retryDelayMs } from './webhook-retry';

describe('webhook retry schedule', () => {
  const delays = [5, 300, 1800];
  const middle = (): number => 0.5;

  it('waits the schedule’s entry for the attempt, then gives up', () => {
    expect(retryDelayMs(1, delays, undefined, 0, middle)).toBe(5000);
    expect(retryDelayMs(2, delays, undefined, 0, middle)).toBe(300_000);
    expect(retryDelayMs(3, delays, undefined, 0, middle)).toBe(1_800_000);
    expect(retryDelayMs(4, delays, undefined, 0, middle)).toBeNull();
    expect(retryDelayMs(1, [], undefined, 0, middle)).toBeNull();
  });

  it('spreads waits by ±20 %', () => {
    expect(retryDelayMs(1, delays, undefined, 0, () => 0)).toBe(4000);
    expect(retryDelayMs(1, delays, undefined, 0, () => 0.999999)).toBe(6000);
  });

  it('honours a longer Retry-After, up to a day', () => {
    expect(retryDelayMs(1, delays, '120', 0, middle)).toBe(120_000);
    expect(retryDelayMs(2, delays, '120', 0, middle)).toBe(300_000);
    expect(retryDelayMs(1, delays, '9999999', 0, middle)).toBe(86_400_000);
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(retryAfterMs('Thu, 01 Jan 2026 00:01:00 GMT', now)).toBe(60_000);
    expect(retryAfterMs('Wed, 31 Dec 2025 00:00:00 GMT', now)).toBe(0);
    expect(retryAfterMs('soon', now)).toBeNull();
    expect(retryAfterMs(undefined, now)).toBeNull();
  });
});
