import { DueWakeups, WAKEUP_HORIZON_MS, WAKEUPS_PER_QUEUE, type WakeupTimers } from './due-wakeups';

/** Timers run by hand: `fire(i)` runs the i-th timer set (if it was not cleared). */
function manualTimers(): WakeupTimers & { delays: number[]; fire(index: number): void; cleared: Set<number> } {
  const callbacks: Array<() => void> = [];
  const delays: number[] = [];
  const cleared = new Set<number>();
  return {
    delays,
    cleared,
    set: (callback, delayMs) => {
      callbacks.push(callback);
      delays.push(delayMs);
      return callbacks.length - 1;
    },
    clear: (timer) => void cleared.add(timer as number),
    fire: (index) => {
      if (!cleared.has(index)) callbacks[index]();
    },
  };
}

describe('DueWakeups', () => {
  const NOW = 1_800_000_000_000;

  it('wakes the queue once its job is due, a little after the due time', () => {
    const woken: string[] = [];
    const timers = manualTimers();
    const wakeups = new DueWakeups((queue) => woken.push(queue), () => NOW, timers);
    wakeups.at('webhook', new Date(NOW + 300));
    expect(timers.delays).toHaveLength(1);
    expect(timers.delays[0]).toBeGreaterThanOrEqual(300);
    expect(timers.delays[0]).toBeLessThan(400);
    expect(woken).toEqual([]);
    timers.fire(0);
    expect(woken).toEqual(['webhook']);
    expect(wakeups.size).toBe(0);
  });

  it('sets one timer per queue and due time, and wakes a past due time at once', () => {
    const timers = manualTimers();
    const wakeups = new DueWakeups(() => undefined, () => NOW, timers);
    wakeups.at('webhook', new Date(NOW + 1000));
    wakeups.at('webhook', new Date(NOW + 1000));
    wakeups.at('other', new Date(NOW + 1000));
    wakeups.at('webhook', new Date(NOW - 5000));
    expect(wakeups.size).toBe(3);
    expect(timers.delays[2]).toBeLessThan(100);
  });

  it('leaves jobs beyond the horizon, past the per-queue bound, or with an invalid time to the poll', () => {
    const timers = manualTimers();
    const wakeups = new DueWakeups(() => undefined, () => NOW, timers);
    wakeups.at('webhook', new Date(NOW + WAKEUP_HORIZON_MS + 1));
    wakeups.at('webhook', new Date(Number.NaN));
    expect(wakeups.size).toBe(0);
    for (let i = 0; i < WAKEUPS_PER_QUEUE + 5; i++) wakeups.at('webhook', new Date(NOW + 1000 + i));
    expect(wakeups.size).toBe(WAKEUPS_PER_QUEUE);
    // A timer that fired makes room again.
    timers.fire(0);
    wakeups.at('webhook', new Date(NOW + 5000));
    expect(wakeups.size).toBe(WAKEUPS_PER_QUEUE);
  });

  it('clears every waiting timer when the queue stops', () => {
    const woken: string[] = [];
    const timers = manualTimers();
    const wakeups = new DueWakeups((queue) => woken.push(queue), () => NOW, timers);
    wakeups.at('a', new Date(NOW + 10));
    wakeups.at('b', new Date(NOW + 20));
    wakeups.clear();
    expect(wakeups.size).toBe(0);
    expect(timers.cleared).toEqual(new Set([0, 1]));
    timers.fire(0);
    timers.fire(1);
    expect(woken).toEqual([]);
  });
});
