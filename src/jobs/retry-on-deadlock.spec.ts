import { retryOnDeadlock } from './job-queue';

describe('retryOnDeadlock', () => {
  const deadlock = Object.assign(new Error('deadlock detected'), { code: '40P01' });

  it('runs the call again after a deadlock and answers its result', async () => {
    let calls = 0;
    const result = await retryOnDeadlock(async () => {
      calls += 1;
      if (calls < 3) throw deadlock;
      return 'created';
    });
    expect([result, calls]).toEqual(['created', 3]);
  });

  it('gives up after the last attempt, and never retries other errors', async () => {
    let calls = 0;
    await expect(retryOnDeadlock(async () => {
      calls += 1;
      throw deadlock;
    }, 2)).rejects.toBe(deadlock);
    expect(calls).toBe(2);
    const other = Object.assign(new Error('permission denied'), { code: '42501' });
    calls = 0;
    await expect(retryOnDeadlock(async () => {
      calls += 1;
      throw other;
    })).rejects.toBe(other);
    expect(calls).toBe(1);
  });
});
