import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import PgBoss from 'pg-boss';
import { DataSource, type EntityManager } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { JOBS_CHANNEL, poolNotifications } from '../database/pool-notifications';
import { runAsBackgroundWork } from '../database/statement-timeout';
import { DueWakeups } from './due-wakeups';
import { dataSourceDb, transactionDb, type PgBossDb } from './pg-boss-db';

// A thin layer over pg-boss (architecture.md "Runtime shape": background work is spread over processes by
// an existing Postgres-backed queue, never by a home-made scheduler). Jobs persist in the database, so a
// restart does not lose queued work.
//
// pg-boss creates and migrates its own schema (`pgboss` by default) when it starts. That schema is not part
// of Glossa's TypeORM migrations, which cover only Glossa's entities; pg-boss owns it.

export const JOBS_OPTIONS = Symbol('JOBS_OPTIONS');

/** pg-boss's documented minimum polling interval. */
const MIN_POLLING_SECONDS = 0.5;

export interface JobsOptions {
  /** pg-boss schema; tests use a private one so leftovers of one test file never reach another. */
  schema?: string;
  /** Overrides `config.jobPollingSeconds`. */
  pollingIntervalSeconds?: number;
  /** How long shutdown waits for running handlers before pg-boss marks them failed (retried later). */
  shutdownTimeoutMs?: number;
  /** Start workers on application bootstrap (default true). Off: jobs are only stored, never run here. */
  work?: boolean;
}

export interface JobContext {
  /** pg-boss job id (a UUID). */
  id: string;
  name: string;
}

export type JobHandler<T> = (data: T, job: JobContext) => Promise<unknown>;

export interface QueueOptions {
  /** Extra attempts after a failed handler or a crash (pg-boss retries a job whose worker died). */
  retryLimit?: number;
  retryDelaySeconds?: number;
  /** A job still active after this long is considered dead and retried or failed. */
  expireInSeconds?: number;
  /**
   * pg-boss's `short` policy: at most one waiting (not yet started) job per singleton key, so a burst of
   * wake-ups queues one job; see sendUnlessWaiting. Set when the queue is first created.
   */
  oneWaitingPerKey?: boolean;
}

export interface SendOptions {
  /** Job id to use (a UUID), e.g. the id of the row that describes the work. */
  id?: string;
  /**
   * The EntityManager of an open transaction: the job is inserted in that transaction. Mandatory when
   * sending from inside a transaction (see transactionDb).
   */
  manager?: EntityManager;
}

/** Which run of a job comes next, out of how many allowed. */
export interface RetryAttempt {
  attempt: number;
  of: number;
}

/** Told about every finished job run (src/ops metrics): queue name, seconds, and whether it failed. */
export type JobRunListener = (name: string, seconds: number, failed: boolean) => void;

interface Registration {
  name: string;
  handler: JobHandler<never>;
  options: QueueOptions;
}

@Injectable()
export class JobQueue implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(JobQueue.name);
  private readonly registrations = new Map<string, Registration>();
  /** Queue name → cron expression (UTC) of periodic jobs; see schedule(). */
  private readonly schedules = new Map<string, string>();
  private readonly inFlight = new Set<Promise<unknown>>();
  /** Handlers running in this process, with their job (see stop()). */
  private readonly handlers = new Map<Promise<unknown>, { name: string; id: string }>();
  private readonly runListeners: JobRunListener[] = [];
  /** Queue name → the id of this process's pg-boss worker on it (see wake()). */
  private readonly workers = new Map<string, string>();
  /** Wakes this process's workers when a job it sent to start later is due (due-wakeups.ts). */
  private readonly dueWakeups = new DueWakeups((name) => this.wake(name));
  private boss: PgBoss | undefined;
  private starting: Promise<void> | undefined;

  constructor(
    private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(JOBS_OPTIONS) private readonly options: JobsOptions,
  ) {}

  /** Declares the handler of queue `name`. Before start it is remembered; after start it begins working at once. */
  register<T>(name: string, handler: JobHandler<T>, options: QueueOptions = {}): void {
    if (this.registrations.has(name)) throw new Error(`A handler for job "${name}" is already registered.`);
    const registration: Registration = { name, handler: handler as JobHandler<never>, options };
    this.registrations.set(name, registration);
    if (this.boss) void this.activate(this.boss, registration).catch((error: unknown) => this.logger.error(error));
  }

  /**
   * Sends a job to queue `name` on a cron schedule (pg-boss's timekeeper: one job per slot however many
   * processes run). Declare it before the application starts, next to the queue's register().
   */
  schedule(name: string, cron: string): void {
    if (this.boss) throw new Error('Schedules must be declared before the job queue starts.');
    this.schedules.set(name, cron);
  }

  /** Queues a job and resolves with its id. Needs the queue to be started (application bootstrap). */
  async send<T extends object>(name: string, data: T, options: SendOptions = {}): Promise<string> {
    const boss = await this.running();
    const sendOptions: PgBoss.SendOptions & { db?: PgBossDb } = {};
    if (options.id) sendOptions.id = options.id;
    if (options.manager) sendOptions.db = transactionDb(options.manager);
    const id = await boss.send(name, data, sendOptions);
    if (id === null) throw new Error(`Job "${name}" was not queued (unknown queue or duplicate id).`);
    await this.announce(name, options.manager);
    return id;
  }

  /**
   * Queues a job on a queue registered with `oneWaitingPerKey`, unless a job with the same key is already
   * waiting to start; `startAfter` delays it. Resolves true when this call queued one.
   */
  async sendUnlessWaiting<T extends object>(name: string, data: T, options: { key: string; startAfter?: Date; manager?: EntityManager }): Promise<boolean> {
    const boss = await this.running();
    const sendOptions: PgBoss.SendOptions & { db?: PgBossDb } = { singletonKey: options.key };
    if (options.startAfter) sendOptions.startAfter = options.startAfter;
    if (options.manager) sendOptions.db = transactionDb(options.manager);
    const queued = (await boss.send(name, data, sendOptions)) !== null;
    // A job that starts later is not announced: this process wakes its worker when it is due, other
    // processes' workers find it by their poll.
    if (queued && options.startAfter) this.dueWakeups.at(name, options.startAfter);
    else if (queued) await this.announce(name, options.manager);
    return queued;
  }

  /**
   * Tells the queue's workers, in this process and every other, that a job is waiting: a NOTIFY in the
   * sender's transaction, delivered when it commits (never before the job is visible), to the pool
   * connections of every process (pool-notifications.ts), which wake their worker (wake()). Without it a job
   * waited up to JOB_POLLING_SECONDS for a worker's next poll; with it the poll is only the fallback for jobs
   * nobody announced (handler retries, scheduled jobs, jobs another process sent to start later, a
   * notification lost with its connection).
   */
  private async announce(name: string, manager: EntityManager | undefined): Promise<void> {
    await (manager ?? this.dataSource).query('SELECT pg_notify($1, $2)', [JOBS_CHANNEL, name]);
  }

  /** A job was announced on queue `name` (any process): this process's idle worker on it fetches now. */
  private readonly wake = (name: string): void => {
    const worker = this.workers.get(name);
    if (worker !== undefined) this.boss?.notifyWorker(worker);
  };

  /**
   * Hands a job whose worker died with its process (ProcessClaims: nobody works on it any more) back to the
   * queue, as pg-boss does for a failed handler, while its retry limit allows: issue 10, item 10, an
   * interrupted import is retried instead of waiting for its expiry. Resolves with the attempt it will run
   * as, or null when it will not run again (limit reached, already finished, unknown).
   */
  async retryAbandoned(name: string, id: string): Promise<RetryAttempt | null> {
    await this.start();
    const boss = await this.running();
    let job = await boss.getJobById(name, id);
    if (job?.state === 'active') {
      await boss.fail(name, id, { message: 'The process running the job stopped.' });
      job = await boss.getJobById(name, id);
    }
    if (job?.state !== 'created' && job?.state !== 'retry') return null;
    await this.announce(name, undefined);
    // A retried job counts its attempt when it is fetched again.
    return job.state === 'created' ? { attempt: job.retryCount + 1, of: job.retryLimit + 1 } : { attempt: job.retryCount + 2, of: job.retryLimit + 1 };
  }

  /** Subscribes to finished job runs (used for metrics). */
  onJobRun(listener: JobRunListener): void {
    this.runListeners.push(listener);
  }

  /**
   * Readiness: the queue is started and its schema answers (throws otherwise). `query` runs the probe;
   * /readyz passes its own connection, so the check never waits for a slot of the application's pool.
   */
  async ping(query: (sql: string) => Promise<unknown> = (sql) => this.dataSource.query(sql)): Promise<void> {
    if (!this.boss) throw new Error('The job queue is not running.');
    const schema = this.options.schema ?? 'pgboss';
    await query(`SELECT 1 FROM "${schema}".version LIMIT 1`);
  }

  /** Jobs waiting per declared queue (Weblate's metrics report its Celery queue lengths, §6.13). */
  async queueSizes(): Promise<Record<string, number>> {
    const boss = await this.running();
    const sizes: Record<string, number> = {};
    for (const name of [...this.registrations.keys()].sort()) sizes[name] = await boss.getQueueSize(name);
    return sizes;
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.stop();
  }

  /** Starts pg-boss (creating its schema on first use) and the workers of registered queues. */
  start(): Promise<void> {
    this.starting ??= this.startBoss().catch((error: unknown) => {
      this.starting = undefined;
      throw error;
    });
    return this.starting;
  }

  /**
   * Stops fetching, waits for running handlers (up to shutdownTimeoutMs) and for pg-boss's last
   * bookkeeping queries, so nothing touches the pool once the database module closes it.
   */
  async stop(): Promise<void> {
    const boss = this.boss;
    if (!boss) return;
    this.boss = undefined;
    this.starting = undefined;
    poolNotifications.off(JOBS_CHANNEL, this.wake);
    this.workers.clear();
    this.dueWakeups.clear();
    const timeoutMs = this.options.shutdownTimeoutMs ?? 30_000;
    const deadline = Date.now() + timeoutMs;
    await boss.stop({ graceful: true, wait: true, close: false, timeout: timeoutMs });
    // pg-boss waits only for handlers it saw running when it stopped: a fetch already on its way still hands
    // its job to a handler afterwards. Left alone, that handler ran into the closing database and left the job
    // "active" (until its expiry, hours later) and its task queued. So wait, within the shutdown timeout, until
    // no query and no handler is left, letting fetches that come back start their handler first (setImmediate
    // runs after the promise callbacks that would start one); then fail what still runs, so it is retried.
    for (;;) {
      const pending = [...this.inFlight, ...this.handlers.keys()];
      if (pending.length === 0) {
        await new Promise((resolve) => setImmediate(resolve));
        if (this.inFlight.size === 0 && this.handlers.size === 0) break;
        continue;
      }
      const remaining = deadline - Date.now();
      if (remaining <= 0) break;
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([Promise.allSettled(pending), new Promise((resolve) => (timer = setTimeout(resolve, remaining)))]);
      clearTimeout(timer);
    }
    for (const { name, id } of this.handlers.values()) {
      this.logger.warn(`Job ${name} ${id} was still running at shutdown; it is handed back to the queue.`);
      await boss.fail(name, id, { message: 'The process stopped while the job was running.' }).catch((error: unknown) => this.logger.error(error));
    }
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  private async startBoss(): Promise<void> {
    const polling = Math.max(MIN_POLLING_SECONDS, this.options.pollingIntervalSeconds ?? this.config.jobPollingSeconds);
    const boss = new PgBoss({
      db: this.trackedDb(dataSourceDb(this.dataSource)),
      schema: this.options.schema ?? 'pgboss',
      // The timekeeper (cron) runs only when a periodic job was declared; otherwise it would only add polling queries.
      schedule: this.schedules.size > 0,
      supervise: true,
      pollingIntervalSeconds: polling,
    } as PgBoss.ConstructorOptions);
    boss.on('error', (error: unknown) => this.logger.error(error));
    await boss.start();
    this.boss = boss;
    poolNotifications.on(JOBS_CHANNEL, this.wake);
    // Queues are created even when this instance does not work on them: pg-boss 10 drops jobs sent to a
    // queue that does not exist.
    // One read of the queues instead of two writes per queue on every start (create_queue takes pg-boss's
    // advisory lock: ~25 ms each on the embedded database, nine queues, every replica start and test app).
    const existing = new Map((await boss.getQueues()).map((queue) => [queue.name, queue]));
    for (const registration of this.registrations.values()) await this.activate(boss, registration, existing.get(registration.name));
    for (const [name, cron] of this.schedules) await retryOnDeadlock(() => boss.schedule(name, cron, {}, { tz: 'UTC' }));
  }

  /** `existing`: the queue's row as this start found it, when it was there. */
  private async activate(boss: PgBoss, registration: Registration, existing?: PgBoss.QueueResult): Promise<void> {
    const { name, options } = registration;
    const queue: PgBoss.Queue = { name };
    if (options.retryLimit !== undefined) queue.retryLimit = options.retryLimit;
    if (options.retryDelaySeconds !== undefined) queue.retryDelay = options.retryDelaySeconds;
    if (options.expireInSeconds !== undefined) queue.expireInSeconds = options.expireInSeconds;
    if (options.oneWaitingPerKey) queue.policy = 'short';
    if (!existing || !hasOptions(existing, queue)) {
      // create_queue ignores an existing queue; updateQueue then applies the current options to it.
      await retryOnDeadlock(() => boss.createQueue(name, queue));
      await retryOnDeadlock(() => boss.updateQueue(name, queue));
    }
    if (this.options.work === false) return;
    const worker = await boss.work(name, { batchSize: 1 }, async (jobs: PgBoss.Job<unknown>[]) => {
      for (const job of jobs) {
        const run = this.runObserved(registration, job);
        this.handlers.set(run, { name: job.name, id: job.id });
        try {
          await run;
        } finally {
          this.handlers.delete(run);
        }
      }
      // The batch was full, so more jobs may be waiting: fetch again now. pg-boss's worker otherwise waits
      // out the rest of its polling interval after every job (pg-boss 10 worker.js), and a burst of jobs
      // announced together (one NOTIFY per transaction and queue) ran one per JOB_POLLING_SECONDS.
      this.wake(name);
    });
    this.workers.set(name, worker);
  }

  private async runObserved(registration: Registration, job: PgBoss.Job<unknown>): Promise<void> {
    const started = process.hrtime.bigint();
    let failed = true;
    try {
      // Background work: its transactions get JOB_STATEMENT_TIMEOUT_MS instead of the API's limit.
      await runAsBackgroundWork(() => registration.handler(job.data as never, { id: job.id, name: job.name }));
      failed = false;
    } finally {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      for (const listener of this.runListeners) listener(registration.name, seconds, failed);
    }
  }

  private async running(): Promise<PgBoss> {
    if (this.starting) await this.starting;
    if (!this.boss) throw new Error('The job queue is not running.');
    return this.boss;
  }

  // pg-boss fires its completion queries without awaiting them; tracking lets stop() wait for them.
  private trackedDb(db: PgBossDb): PgBossDb {
    return {
      executeSql: (text, values) => {
        const promise = db.executeSql(text, values);
        this.inFlight.add(promise);
        const forget = (): void => {
          this.inFlight.delete(promise);
        };
        promise.then(forget, forget);
        return promise;
      },
    };
  }
}

/** Whether the queue's row already has every option `queue` sets (pg-boss's policy defaults to standard). */
export function hasOptions(existing: Pick<PgBoss.QueueResult, 'policy' | 'retryLimit' | 'retryDelay' | 'expireInSeconds'>, queue: PgBoss.Queue): boolean {
  return (
    existing.policy === (queue.policy ?? 'standard') &&
    (queue.retryLimit === undefined || existing.retryLimit === queue.retryLimit) &&
    (queue.retryDelay === undefined || existing.retryDelay === queue.retryDelay) &&
    (queue.expireInSeconds === undefined || existing.expireInSeconds === queue.expireInSeconds)
  );
}

/** PostgreSQL's deadlock_detected: the statement was rolled back and may simply be run again. */
const DEADLOCK_DETECTED = '40P01';

/**
 * Runs an idempotent pg-boss set-up call again when PostgreSQL picked it as a deadlock victim. Replicas
 * starting together on a new database create the same queues at once, and pg-boss 10's create_queue (a row
 * in pgboss.queue plus a partition table) can deadlock against itself: seen as a replica exiting with
 * "deadlock detected" on start. The calls are idempotent (create_queue ignores an existing queue).
 */
export async function retryOnDeadlock<T>(call: () => Promise<T>, attempts = 5): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await call();
    } catch (error) {
      if ((error as { code?: string }).code !== DEADLOCK_DETECTED || attempt >= attempts) throw error;
      // A short random pause, so the processes that collided do not collide again in step.
      await new Promise((resolve) => setTimeout(resolve, 20 + Math.random() * 80 * attempt));
    }
  }
}
