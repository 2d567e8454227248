import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { INTERRUPTED_RESULT, TaskRecoveryService } from '../../src/modules/tasks/task-recovery.service';
import { createComponent, createProject } from '../support/factories';
import { createTestApp, TestApp } from '../support/test-app';

// Issue 3, item 8: a task interrupted by a crash or a restart is reported as failed, never "running" forever.
// Running tasks keep a heartbeat; a running task whose heartbeat stopped is what a dead process leaves behind.

describe('task recovery', () => {
  let app: TestApp;
  let db: DataSource;

  beforeAll(async () => {
    app = await createTestApp();
    db = app.glossa.app.get(DataSource);
  });

  afterAll(async () => {
    await app?.close();
  });

  it('fails running tasks whose heartbeat stopped and unlinks them from their component; live ones are left alone', async () => {
    const project = await createProject(db);
    const component = await createComponent(db, project);
    const [stale, live, queued] = [randomUUID(), randomUUID(), randomUUID()];
    await db.query(
      `INSERT INTO tasks (id, kind, component_id, status, progress, log, updated_at) VALUES
         ($1, 'component-import', $4, 'running', 40, 'Cloned main into the working copy', now() - interval '10 minutes'),
         ($2, 'component-import', NULL, 'running', 10, '', now()),
         ($3, 'component-import', NULL, 'queued', 0, '', now() - interval '10 minutes')`,
      [stale, live, queued, component.id],
    );
    await db.query('UPDATE components SET task_id = $1 WHERE id = $2', [stale, component.id]);
    const before = await app.http().get(`/api/tasks/${stale}/`).expect(200);
    expect(before.body).toMatchObject({ completed: false, progress: 40, result: null });

    // What start-up (and the periodic job) runs.
    expect(await app.glossa.app.get(TaskRecoveryService).recover()).toEqual([stale]);

    const after = await app.http().get(`/api/tasks/${stale}/`).expect(200);
    expect(after.body).toEqual({
      completed: true,
      progress: 40,
      result: INTERRUPTED_RESULT,
      log: `Cloned main into the working copy\nError: ${INTERRUPTED_RESULT}`,
    });
    expect((await app.http().get(`/api/tasks/${live}/`).expect(200)).body.completed).toBe(false);
    expect((await app.http().get(`/api/tasks/${queued}/`).expect(200)).body.completed).toBe(false);
    const detail = await app.http().get(`/api/components/${project.slug}/${component.slug}/`).expect(200);
    expect(detail.body.task_url).toBeNull();
    // Nothing left to recover.
    expect(await app.glossa.app.get(TaskRecoveryService).recover()).toEqual([]);
  });
});
