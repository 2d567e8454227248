import { jest } from '@jest/globals';
import { Injectable, Module, type INestApplicationContext, type OnModuleInit } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { randomBytes } from 'node:crypto';
import PgBoss from 'pg-boss';
import { DataSource } from 'typeorm';
import { loadConfig } from '../../src/config/app-config';
import { ConfigModule } from '../../src/config/config.module';
import { DatabaseModule } from '../../src/database/database.module';
import { JOBS_CHANNEL, poolNotifications } from '../../src/database/pool-notifications';
import { JobQueue, type JobsOptions } from '../../src/jobs/job-queue';
import { JobsModule } from '../../src/jobs/jobs.module';
import { dropJobSchema } from '../support/tasks';
import { createTestDatabase, type TestDatabase } from '../support/test-database';

// A queued job wakes its workers when the sender's transaction commits (job-queue.ts announce()), in this
// process and, on PostgreSQL, in every other: the workers here poll once a minute, so a job that waited for
// the poll would start a minute late, and the tests check the wake-up itself, not the time it took. A worker
// that finished a job fetches the next at once, and a job sent to start later wakes its sender's worker when
// it is due (due-wakeups.ts): those tests' worker polls once an hour, so a job it found only by polling would
// not start before Jest's timeout.

const realPostgres = Boolean(process.env.GLOSSA_TEST_SERVER_URL);
const QUEUE = 'wake-test';
/** The longest poll JOB_POLLING_SECONDS allows: no job here is found by polling within the test. */
const RARE_POLLING_SECONDS = 60;

describe('job queue wake-ups', () => {
  let database: TestDatabase;
  const jobSchema = `pgboss_test_${randomBytes(4).toString('hex')}`;
  const otherSchemas: string[] = [];
  const running: INestApplicationContext[] = [];
  const handled: Array<{ n: number }> = [];
  let onHandled: (() => void) | undefined;
  const announced: string[] = [];
  const recordAnnouncement = (queue: string): void => void announced.push(queue);

  /** Registers the test queue's handler before the job queue starts, as resource modules do. */
  @Injectable()
  class WakeTestHandler implements OnModuleInit {
    constructor(private readonly queue: JobQueue) {}

    onModuleInit(): void {
      this.queue.register<{ n: number }>(
        QUEUE,
        async (data) => {
          handled.push(data);
          onHandled?.();
        },
        // As the webhook queue: sendUnlessWaiting, which can delay a job, needs the one-waiting-per-key policy.
        { oneWaitingPerKey: true },
      );
    }
  }

  async function start(jobs: JobsOptions): Promise<INestApplicationContext> {
    const config = loadConfig({ DATABASE_URL: database.url, DEMO: 'false' });
    @Module({
      imports: [ConfigModule.forRoot(config), DatabaseModule.forRoot(database.url, 2), JobsModule.forRoot({ schema: jobSchema, pollingIntervalSeconds: RARE_POLLING_SECONDS, ...jobs })],
      providers: [WakeTestHandler],
    })
    class TestRootModule {}
    const app = await NestFactory.createApplicationContext(TestRootModule, { logger: false });
    await app.init();
    running.push(app);
    return app;
  }

  /** The app's pg-boss instance, whose notifyWorker (a bound function of the instance) wakes a worker. */
  const bossOf = (app: INestApplicationContext): PgBoss => (app.get(JobQueue) as unknown as { boss: PgBoss }).boss;

  /** Resolves when the handler has run `count` times in all. */
  const handledCount = (count: number): Promise<void> =>
    new Promise((resolve) => {
      onHandled = () => {
        if (handled.length >= count) resolve();
      };
      onHandled();
    });

  beforeAll(async () => {
    database = await createTestDatabase();
    poolNotifications.on(JOBS_CHANNEL, recordAnnouncement);
  });

  afterAll(async () => {
    poolNotifications.off(JOBS_CHANNEL, recordAnnouncement);
    for (const app of running) await app.close();
    for (const schema of [jobSchema, ...otherSchemas]) await dropJobSchema(database.url, schema);
    await database?.drop();
  });

  it('announces a job sent in a transaction at its commit, not before, and the worker starts on it then', async () => {
    const app = await start({});
    const notifyWorker = jest.spyOn(bossOf(app), 'notifyWorker');
    try {
      const done = handledCount(1);
      await app.get(DataSource).transaction(async (manager) => {
        await app.get(JobQueue).send(QUEUE, { n: 1 }, { manager });
        // PostgreSQL delivers NOTIFY at commit: the job is not visible yet, and nobody has been told about it.
        await manager.query('SELECT 1');
        expect(announced).toEqual([]);
        expect(notifyWorker).not.toHaveBeenCalled();
      });
      await done;
      // Every listening connection of the pool hears it (here two): each wakes the worker, which fetches once more.
      expect(announced.length).toBeGreaterThanOrEqual(1);
      expect(new Set(announced)).toEqual(new Set([QUEUE]));
      expect(notifyWorker).toHaveBeenCalled();
      expect(handled).toEqual([{ n: 1 }]);
    } finally {
      notifyWorker.mockRestore();
    }
  });

  it('announces nothing for a job that starts later, and nothing when the transaction rolls back', async () => {
    const app = running[0];
    const queue = app.get(JobQueue);
    // The first test's commit was heard by both pool connections; the idle one's copy may still be on its way.
    // A statement on each connection at once takes its reply after any notification that connection had.
    await Promise.all([app.get(DataSource).query('SELECT 1'), app.get(DataSource).query('SELECT 1')]);
    announced.length = 0;
    expect(await queue.sendUnlessWaiting(QUEUE, { n: 2 }, { key: 'later', startAfter: new Date(Date.now() + 3_600_000) })).toBe(true);
    await expect(
      app.get(DataSource).transaction(async (manager) => {
        await queue.send(QUEUE, { n: 3 }, { manager });
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    // A statement after both: any notification they had sent would have arrived before its reply.
    await app.get(DataSource).query('SELECT 1');
    expect(announced).toEqual([]);
    const [{ count }] = await app.get(DataSource).query(`SELECT count(*)::int AS count FROM ${jobSchema}.job WHERE name = $1`, [QUEUE]);
    expect(count).toBe(2);
  });

  // Both apps run in this Jest process and share pool-notifications.ts's emitter, so this shows a second app's
  // send waking the first app's worker over the database, not that the receiver's own connection heard it.
  (realPostgres ? it : it.skip)('wakes the worker of another app on the same database, which sends none itself', async () => {
    const receiver = running[0];
    const sender = await start({ work: false });
    const notifyWorker = jest.spyOn(bossOf(receiver), 'notifyWorker');
    try {
      const done = handledCount(2);
      // The receiver's pool holds an idle connection (its workers' polls keep one open; here they poll rarely).
      await receiver.get(DataSource).query('SELECT 1');
      await sender.get(DataSource).transaction((manager) => sender.get(JobQueue).send(QUEUE, { n: 4 }, { manager }));
      await done;
      expect(handled).toEqual([{ n: 1 }, { n: 4 }]);
      expect(notifyWorker).toHaveBeenCalled();
    } finally {
      notifyWorker.mockRestore();
    }
  });

  describe('a worker that polls once an hour', () => {
    let app: INestApplicationContext;

    beforeAll(async () => {
      const schema = `pgboss_test_${randomBytes(4).toString('hex')}`;
      otherSchemas.push(schema);
      app = await start({ schema, pollingIntervalSeconds: 3600 });
    });

    it('runs jobs queued together one after another, each as soon as the one before has ended', async () => {
      const before = handled.length;
      const done = handledCount(before + 5);
      // One commit: PostgreSQL delivers the five identical notifications as one per listening connection, so at
      // most two wake-ups come from the database; the worker fetches one job at a time.
      await app.get(DataSource).transaction(async (manager) => {
        // Keys of their own: the queue keeps one waiting job per key (its policy), and a job without one has the empty key.
        for (const n of [11, 12, 13, 14, 15]) expect(await app.get(JobQueue).sendUnlessWaiting(QUEUE, { n }, { key: `burst-${n}`, manager })).toBe(true);
      });
      await done;
      expect(handled.slice(before).map((data) => data.n).sort()).toEqual([11, 12, 13, 14, 15]);
    });

    it('starts a job sent to start later once it is due, without an announcement', async () => {
      const before = handled.length;
      const done = handledCount(before + 1);
      await app.get(DataSource).query('SELECT 1');
      announced.length = 0;
      expect(await app.get(JobQueue).sendUnlessWaiting(QUEUE, { n: 21 }, { key: 'soon', startAfter: new Date(Date.now() + 300) })).toBe(true);
      await done;
      expect(handled.slice(before)).toEqual([{ n: 21 }]);
      expect(announced).toEqual([]);
    });
  });
});
