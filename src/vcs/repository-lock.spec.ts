import { KeyedMutex, RepositoryLockTimeoutError, isRepositoryLocked, withLock } from './repository-lock';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

describe('KeyedMutex', () => {
  it('runs holders of one key one at a time, in arrival order', async () => {
    const mutex = new KeyedMutex();
    const events: string[] = [];
    let running = 0;
    let maxRunning = 0;
    const task = (name: string, ms: number) =>
      mutex.withLock('/repo', async () => {
        running++;
        maxRunning = Math.max(maxRunning, running);
        events.push(`start ${name}`);
        await sleep(ms);
        events.push(`end ${name}`);
        running--;
        return name;
      });
    // Later tasks are shorter, so any overlap or reordering would show up in the event log.
    const results = await Promise.all([task('a', 30), task('b', 20), task('c', 10), task('d', 0)]);
    expect(results).toEqual(['a', 'b', 'c', 'd']);
    expect(maxRunning).toBe(1);
    expect(events).toEqual(['start a', 'end a', 'start b', 'end b', 'start c', 'end c', 'start d', 'end d']);
  });

  it('lets different keys run concurrently', async () => {
    const mutex = new KeyedMutex();
    let running = 0;
    let maxRunning = 0;
    const task = (key: string) =>
      mutex.withLock(key, async () => {
        running++;
        maxRunning = Math.max(maxRunning, running);
        await sleep(20);
        running--;
      });
    await Promise.all([task('/a'), task('/b'), task('/c')]);
    expect(maxRunning).toBe(3);
  });

  it('releases the lock when the holder throws', async () => {
    const mutex = new KeyedMutex();
    await expect(mutex.withLock('/repo', async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(mutex.isLocked('/repo')).toBe(false);
    await expect(mutex.withLock('/repo', async () => 'next')).resolves.toBe('next');
  });

  it('gives up after the timeout and never hands the lock to the caller that gave up', async () => {
    const mutex = new KeyedMutex();
    const order: string[] = [];
    const holder = mutex.withLock('/repo', async () => {
      await sleep(60);
      order.push('holder');
    });
    const impatient = mutex.withLock('/repo', async () => order.push('impatient'), { timeoutMs: 10 });
    const patient = mutex.withLock('/repo', async () => order.push('patient'));
    await expect(impatient).rejects.toBeInstanceOf(RepositoryLockTimeoutError);
    await expect(impatient).rejects.toThrow('Could not obtain the repository lock');
    await Promise.all([holder, patient]);
    expect(order).toEqual(['holder', 'patient']);
    expect(mutex.isLocked('/repo')).toBe(false);
  });

  it('exposes a process-wide lock through withLock', async () => {
    const key = `/process-wide-${Date.now()}`;
    let seen = false;
    await withLock(key, async () => {
      seen = isRepositoryLocked(key);
    });
    expect(seen).toBe(true);
    expect(isRepositoryLocked(key)).toBe(false);
  });
});
