import { hasOptions } from './job-queue';

describe('hasOptions (a queue created on an earlier start is left as it is)', () => {
  const row = { policy: 'standard' as const, retryLimit: 2, retryDelay: 30, expireInSeconds: 900 };

  it('holds when every option the queue sets is in its row, whatever it leaves unset', () => {
    expect(hasOptions(row, { name: 'q' })).toBe(true);
    expect(hasOptions(row, { name: 'q', retryLimit: 2, retryDelay: 30, expireInSeconds: 900 })).toBe(true);
    expect(hasOptions({ ...row, policy: 'short' as const }, { name: 'q', policy: 'short', retryLimit: 2 })).toBe(true);
  });

  it('fails when an option or the policy changed, so the start updates the queue', () => {
    expect(hasOptions(row, { name: 'q', retryLimit: 3 })).toBe(false);
    expect(hasOptions(row, { name: 'q', retryDelay: 60 })).toBe(false);
    expect(hasOptions(row, { name: 'q', expireInSeconds: 60 })).toBe(false);
    expect(hasOptions(row, { name: 'q', policy: 'short' })).toBe(false);
    expect(hasOptions({ ...row, policy: 'short' as const }, { name: 'q' })).toBe(false);
  });
});
