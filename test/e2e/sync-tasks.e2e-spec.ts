import { Module, type INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { DataSource } from 'typeorm';
import { loadConfig, type AppConfig } from '../../src/config/app-config';
import { ConfigModule } from '../../src/config/config.module';
import { DatabaseModule } from '../../src/database/database.module';
import type { JobsOptions } from '../../src/jobs/job-queue';
import { JobsModule } from '../../src/jobs/jobs.module';
import { ComponentTaskScheduler } from '../../src/sync/component-task.scheduler';
import { SyncModule } from '../../src/sync/sync.module';
import { createGitSandbox, type GitSandbox } from '../../src/vcs/testing/git-sandbox';
import { createComponent, createLanguages, createProject } from '../support/factories';
import { dropJobSchema } from '../support/tasks';
import { createTestDatabase, type TestDatabase } from '../support/test-database';
import { PATIENCE_MS } from '../support/wait';

// Background imports: the task row and its pg-boss job survive a restart, and a failed import ends as a
// failed task whose result is the error text (weblate-api.md §6.12).

describe('sync: import tasks', () => {
  let database: TestDatabase;
  let dataDir: string;
  let config: AppConfig;
  let sandbox: GitSandbox;
  const jobSchema = `pgboss_test_${randomBytes(4).toString('hex')}`;
  const running: INestApplicationContext[] = [];

  async function start(jobs: JobsOptions = {}): Promise<INestApplicationContext> {
    @Module({ imports: [ConfigModule.forRoot(config), DatabaseModule.forRoot(database.url, 1), JobsModule.forRoot({ schema: jobSchema, ...jobs }), SyncModule] })
    class TestRootModule {}
    const app = await NestFactory.createApplicationContext(TestRootModule, { logger: false });
    await app.init();
    running.push(app);
    return app;
  }

  async function waitForTask(db: DataSource, taskId: string): Promise<Record<string, unknown>> {
    const deadline = Date.now() + PATIENCE_MS;
    for (;;) {
      const [task] = await db.query('SELECT status, progress, result, log FROM tasks WHERE id = $1', [taskId]);
      if (task.status === 'completed' || task.status === 'failed') return task;
      if (Date.now() > deadline) throw new Error(`Task ${taskId} still ${task.status}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  beforeAll(async () => {
    database = await createTestDatabase();
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'glossa-tasks-'));
    config = loadConfig({ DATABASE_URL: database.url, DATA_DIR: dataDir, DEMO: 'false', ALLOW_LOCAL_REPOSITORIES: 'true', JOB_POLLING_SECONDS: '0.5' });
    sandbox = await createGitSandbox({
      'sources/app.json': '{"hello": "Hello"}\n',
      'translations/cs/app.json': '{"hello": "Ahoj"}\n',
    });
  });

  afterAll(async () => {
    for (const app of running) await app.close();
    await dropJobSchema(database.url, jobSchema);
    await database?.drop();
    await sandbox?.cleanup();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('keeps a queued import across a restart and runs it on the next start', async () => {
    // An instance that only queues (no workers), as if it stopped before getting to the job.
    const first = await start({ work: false });
    const db1 = first.get(DataSource);
    await createLanguages(db1, ['en', 'cs']);
    const component = await createComponent(db1, await createProject(db1), {
      repo: sandbox.upstream,
      filemask: 'translations/*/app.json',
      template: 'sources/app.json',
    });
    const taskId = await first.get(ComponentTaskScheduler).scheduleImport(component.id);
    await first.close();
    running.splice(running.indexOf(first), 1);

    const second = await start();
    const db2 = second.get(DataSource);
    const [queued] = await db2.query('SELECT status FROM tasks WHERE id = $1', [taskId]);
    expect(['queued', 'running', 'completed']).toContain(queued.status);
    const task = await waitForTask(db2, taskId);
    expect(task).toMatchObject({ status: 'completed', progress: 100, result: { result: true, translations: 2, units: 2 } });
    const [row] = await db2.query('SELECT task_id FROM components WHERE id = $1', [component.id]);
    expect(row.task_id).toBeNull();
  });

  it('ends a failed import as a failed task with the error text as result and clears task_id', async () => {
    const app = running[running.length - 1];
    const db = app.get(DataSource);
    const component = await createComponent(db, await createProject(db), {
      repo: sandbox.upstream,
      filemask: 'translations/*/app.json',
      template: 'sources/missing.json',
    });
    const taskId = await app.get(ComponentTaskScheduler).scheduleImport(component.id);
    const [marked] = await db.query('SELECT task_id FROM components WHERE id = $1', [component.id]);
    expect(marked.task_id).toBe(taskId);

    const task = await waitForTask(db, taskId);
    expect(task).toMatchObject({ status: 'failed', progress: 100, result: 'Template file not found: sources/missing.json' });
    expect(task.log).toContain('Error: Template file not found: sources/missing.json');
    const [row] = await db.query('SELECT task_id FROM components WHERE id = $1', [component.id]);
    expect(row.task_id).toBeNull();
  });

  it('refuses to queue an import for a component that does not exist, leaving no task behind', async () => {
    const app = running[running.length - 1];
    const db = app.get(DataSource);
    const [{ before }] = await db.query('SELECT count(*)::int AS before FROM tasks');
    await expect(app.get(ComponentTaskScheduler).scheduleImport(999_999)).rejects.toThrow('does not exist');
    const [{ after }] = await db.query('SELECT count(*)::int AS after FROM tasks');
    expect(after).toBe(before);
  });
});
