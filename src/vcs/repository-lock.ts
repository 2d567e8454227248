// One lock per repository (architecture.md): git itself refuses concurrent writers with `index.lock`
// errors, and even read commands (`status`) refresh the index. Serialising in-process keeps API requests and
// background jobs of one process from tripping over each other. Processes sharing a DATA_DIR are not kept
// apart by this lock; they only tell each other which repositories they work in (ProcessClaims, src/jobs),
// so that git lock files are removed only when no live process can own them (GitRepository.gitLocked).

/** Waiting for a repository lock took longer than allowed (Weblate answers 423 in this case). */
export class RepositoryLockTimeoutError extends Error {
  override readonly name = 'RepositoryLockTimeoutError';

  constructor(readonly key: string, readonly timeoutMs: number) {
    super('Could not obtain the repository lock; another operation is in progress. Please try again later.');
  }
}

export interface LockOptions {
  /** Give up waiting after this many milliseconds; the default waits as long as it takes. */
  timeoutMs?: number;
}

interface Queue {
  held: boolean;
  /** Callbacks of waiters in arrival order; each grants the lock to its waiter. */
  waiters: Array<() => void>;
}

/** An async mutex per key, granted strictly in arrival order (FIFO). */
export class KeyedMutex {
  private readonly queues = new Map<string, Queue>();

  /** Runs `fn` while holding the lock for `key`; the lock is released however `fn` ends. */
  async withLock<T>(key: string, fn: () => Promise<T>, options: LockOptions = {}): Promise<T> {
    await this.acquire(key, options.timeoutMs);
    try {
      return await fn();
    } finally {
      this.release(key);
    }
  }

  /** Whether someone currently holds the lock for `key`. */
  isLocked(key: string): boolean {
    return this.queues.get(key)?.held ?? false;
  }

  private acquire(key: string, timeoutMs: number | undefined): Promise<void> {
    let queue = this.queues.get(key);
    if (!queue) {
      queue = { held: false, waiters: [] };
      this.queues.set(key, queue);
    }
    if (!queue.held) {
      queue.held = true;
      return Promise.resolve();
    }
    const waiting = queue;
    return new Promise<void>((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const grant = (): void => {
        if (timer) clearTimeout(timer);
        resolve();
      };
      waiting.waiters.push(grant);
      if (timeoutMs !== undefined) {
        timer = setTimeout(() => {
          // Leave the queue so the lock is never handed to a caller that already gave up.
          const index = waiting.waiters.indexOf(grant);
          if (index >= 0) waiting.waiters.splice(index, 1);
          reject(new RepositoryLockTimeoutError(key, timeoutMs));
        }, timeoutMs);
      }
    });
  }

  private release(key: string): void {
    const queue = this.queues.get(key);
    if (!queue) return;
    const next = queue.waiters.shift();
    if (next) {
      // Hand over directly (held stays true) so no newcomer can jump the queue in between.
      next();
      return;
    }
    queue.held = false;
    this.queues.delete(key);
  }
}

const processWideLocks = new KeyedMutex();

/** Runs `fn` under the process-wide lock for `key` (a repository path). */
export function withLock<T>(key: string, fn: () => Promise<T>, options: LockOptions = {}): Promise<T> {
  return processWideLocks.withLock(key, fn, options);
}

/** Whether the process-wide lock for `key` is held right now. */
export function isRepositoryLocked(key: string): boolean {
  return processWideLocks.isLocked(key);
}
