// Wake-ups of this process's workers for jobs sent to start later (pg-boss `startAfter`: a webhook's retry).
// Nobody announces such a job when it becomes due, so without a wake-up it waited for its worker's next poll:
// up to JOB_POLLING_SECONDS (2 s) late, against a retry delay that can be a fraction of that. The sending
// process sets a timer for the due time and wakes its own worker then; other processes find the job by
// polling, as before. A due job a wake-up does not find (the sender's transaction rolled back, another worker
// took it first, the database's clock behind Node's) costs one fetch; the poll stays the fallback.

/** Later than this, a job is left to the poll: timers stay few and short-lived. */
export const WAKEUP_HORIZON_MS = 60 * 60 * 1000;
/** Timers per queue at most; more due times than that are left to the poll. */
export const WAKEUPS_PER_QUEUE = 32;
/**
 * After the due time: pg-boss fetches jobs whose `start_after < now()`, read on the database's clock, so a
 * wake-up exactly on time could come a hair early.
 */
const DUE_MARGIN_MS = 20;

export interface WakeupTimers {
  set(callback: () => void, delayMs: number): unknown;
  clear(timer: unknown): void;
}

const nodeTimers: WakeupTimers = {
  set: (callback, delayMs) => setTimeout(callback, delayMs).unref(),
  clear: (timer) => clearTimeout(timer as NodeJS.Timeout),
};

export class DueWakeups {
  /** Queue → due time (ms) → its timer. */
  private readonly pending = new Map<string, Map<number, unknown>>();

  constructor(
    private readonly wake: (queue: string) => void,
    private readonly now: () => number = Date.now,
    private readonly timers: WakeupTimers = nodeTimers,
  ) {}

  /** Wakes the worker on `queue` once `due` has passed (one timer per queue and due time). */
  at(queue: string, due: Date): void {
    const dueMs = due.getTime();
    const delayMs = dueMs - this.now();
    if (!Number.isFinite(delayMs) || delayMs > WAKEUP_HORIZON_MS) return;
    const timers = this.pending.get(queue) ?? new Map<number, unknown>();
    this.pending.set(queue, timers);
    if (timers.has(dueMs) || timers.size >= WAKEUPS_PER_QUEUE) return;
    const wakeUp = (): void => {
      timers.delete(dueMs);
      this.wake(queue);
    };
    timers.set(dueMs, this.timers.set(wakeUp, Math.max(0, delayMs) + DUE_MARGIN_MS));
  }

  /** Wake-ups waiting, over all queues. */
  get size(): number {
    let size = 0;
    for (const timers of this.pending.values()) size += timers.size;
    return size;
  }

  /** Drops every waiting wake-up (the queue stops). */
  clear(): void {
    for (const timers of this.pending.values()) for (const timer of timers.values()) this.timers.clear(timer);
    this.pending.clear();
  }
}
