import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { authHeader, expectApiHeaders } from '../support/contract';
import { createComponent, createProject } from '../support/factories';
import { holdTaskClaim } from '../support/tasks';
import { createTestApp, TEST_ADMIN_TOKEN, TestApp } from '../support/test-app';
import { createUserWithToken } from '../support/users-factories';

const TASK_KEYS = ['completed', 'progress', 'result', 'log'];
const ALLOW = 'GET, DELETE, HEAD, OPTIONS';

describe('tasks', () => {
  let app: TestApp;
  let dataSource: DataSource;
  let userToken: string;
  /** Claims held on running task rows, as their process would hold them (the task-recovery cron skips them). */
  const claims: Array<() => Promise<void>> = [];

  beforeAll(async () => {
    app = await createTestApp();
    dataSource = app.glossa.app.get(DataSource);
    userToken = (await createUserWithToken(dataSource, 'translator')).token;
  });
  afterAll(async () => {
    for (const release of claims) await release();
    await app.close();
  });

  const admin = authHeader(TEST_ADMIN_TOKEN);

  /** A task row as the job runner writes it; `result` is JSON (or null). */
  async function insertTask(fields: { status: string; progress?: number; result?: unknown; log?: string; componentId?: number }): Promise<string> {
    const id = randomUUID();
    // Claimed before the row exists: the task-recovery cron never sees it running and unclaimed.
    if (fields.status === 'running') claims.push(await holdTaskClaim(app, id));
    await dataSource.query(
      'INSERT INTO tasks (id, kind, component_id, status, progress, result, log) VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7)',
      [
        id,
        'component-import',
        fields.componentId ?? null,
        fields.status,
        fields.progress ?? 0,
        fields.result === undefined ? null : JSON.stringify(fields.result),
        fields.log ?? '',
      ],
    );
    return id;
  }

  it('reports queued, running, completed and failed tasks in the shape of weblate-api.md §6.12', async () => {
    const queued = await insertTask({ status: 'queued' });
    const response = await app.http().get(`/api/tasks/${queued}/`).expect(200);
    expectApiHeaders(response, ALLOW);
    expect(Object.keys(response.body)).toEqual(TASK_KEYS);
    expect(response.body).toEqual({ completed: false, progress: 0, result: null, log: '' });

    const running = await insertTask({ status: 'running', progress: 40, log: 'Cloning\nParsing' });
    expect((await app.http().get(`/api/tasks/${running}/`).expect(200)).body).toEqual({
      completed: false,
      progress: 40,
      result: null,
      log: 'Cloning\nParsing',
    });

    const completed = await insertTask({ status: 'completed', progress: 100, result: { result: true, translations: 3, units: 12 }, log: 'Done' });
    expect((await app.http().get(`/api/tasks/${completed}/`).expect(200)).body).toEqual({
      completed: true,
      progress: 100,
      result: { result: true, translations: 3, units: 12 },
      log: 'Done',
    });

    const failed = await insertTask({ status: 'failed', progress: 30, result: 'git clone failed', log: 'Error: git clone failed' });
    const failure = await app.http().get(`/api/tasks/${failed.toUpperCase()}/`).expect(200);
    expect(failure.body).toEqual({ completed: true, progress: 30, result: 'git clone failed', log: 'Error: git clone failed' });

    const head = await app.http().head(`/api/tasks/${queued}/`).expect(200);
    expectApiHeaders(head, ALLOW);
  });

  it('answers 404 for unknown and malformed ids and for the missing list route', async () => {
    const unknown = await app.http().get(`/api/tasks/${randomUUID()}/`).expect(404);
    expectApiHeaders(unknown, ALLOW);
    expect(unknown.body).toEqual({ detail: 'Not found.' });
    const malformed = await app.http().get('/api/tasks/not-a-uuid/').expect(404);
    expectApiHeaders(malformed, ALLOW);
    expect(malformed.body).toEqual({ detail: 'Not found.' });
    await app.http().delete('/api/tasks/not-a-uuid/').set(...admin).expect(404);
    const list = await app.http().get('/api/tasks/').expect(404);
    expect(list.headers['content-type']).toBe('application/json');
    expect(list.body).toEqual({ detail: 'Not found.' });
  });

  it('cancels unfinished tasks as superuser (204): failed with result "Cancelled", unlinked from the component', async () => {
    const component = await createComponent(dataSource, await createProject(dataSource));
    const queued = await insertTask({ status: 'queued', componentId: component.id });
    await dataSource.query('UPDATE components SET task_id = $1 WHERE id = $2', [queued, component.id]);

    const anonymous = await app.http().delete(`/api/tasks/${queued}/`).expect(401);
    expectApiHeaders(anonymous, ALLOW);
    const denied = await app.http().delete(`/api/tasks/${queued}/`).set(...authHeader(userToken)).expect(403);
    expect(denied.body).toEqual({ detail: 'You do not have permission to perform this action.' });

    const cancelled = await app.http().delete(`/api/tasks/${queued}/`).set(...admin).expect(204);
    expect(cancelled.text).toBe('');
    expect((await app.http().get(`/api/tasks/${queued}/`).expect(200)).body).toEqual({
      completed: true,
      progress: 0,
      result: 'Cancelled',
      log: '',
    });
    const [row] = await dataSource.query('SELECT task_id FROM components WHERE id = $1', [component.id]);
    expect(row.task_id).toBeNull();

    const running = await insertTask({ status: 'running', progress: 55 });
    await app.http().delete(`/api/tasks/${running}/`).set(...admin).expect(204);
    expect((await app.http().get(`/api/tasks/${running}/`).expect(200)).body).toMatchObject({ completed: true, result: 'Cancelled', progress: 55 });

    // A finished task stays as it was.
    const completed = await insertTask({ status: 'completed', progress: 100, result: { result: true } });
    await app.http().delete(`/api/tasks/${completed}/`).set(...admin).expect(204);
    expect((await app.http().get(`/api/tasks/${completed}/`).expect(200)).body).toMatchObject({ completed: true, result: { result: true } });
  });

  it('answers 405 with Allow for unsupported methods', async () => {
    const id = await insertTask({ status: 'queued' });
    for (const method of ['post', 'put', 'patch'] as const) {
      const response = await app.http()[method](`/api/tasks/${id}/`).set(...admin).send({}).expect(405);
      expectApiHeaders(response, ALLOW);
      expect(response.body).toEqual({ detail: `Method "${method.toUpperCase()}" not allowed.` });
    }
    const options = await app.http().options(`/api/tasks/${id}/`).expect(200);
    expectApiHeaders(options, ALLOW);
  });
});
