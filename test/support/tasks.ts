import { DataSource } from 'typeorm';
import { ProcessClaims, type ReleaseClaim } from '../../src/jobs/process-claims';
import { taskClaimName } from '../../src/sync/task-run';
import type { TestApp } from './test-app';
import { PATIENCE_MS, pollUntil } from './wait';

/**
 * Polls `/api/tasks/<id>/` (a component's `task_url`) until the task completes and answers its body; fails
 * with the last body after `timeoutMs` (a safety net, test/support/wait.ts). Background imports, pulls and
 * removals run as such tasks.
 */
export async function waitForTask(app: TestApp, taskUrl: string, headers: [string, string] | null = null, timeoutMs = PATIENCE_MS): Promise<Record<string, unknown>> {
  const taskPath = new URL(taskUrl, 'http://localhost').pathname;
  let last: unknown;
  return pollUntil(
    async () => {
      const request = app.http().get(taskPath);
      const response = await (headers ? request.set(...headers) : request).expect(200);
      last = response.body;
      return response.body.completed ? (response.body as Record<string, unknown>) : undefined;
    },
    `Task ${taskPath} completed`,
    { timeoutMs, lastSeen: () => last },
  );
}

/** The id of the unit with `context` in the translation of `language` (the only such unit in a test database). */
export async function unitIdByContext(db: DataSource, language: string, context: string): Promise<string> {
  const [row]: Array<{ id: string }> = await db.query(
    `SELECT u.id FROM units u JOIN translations t ON t.id = u.translation_id JOIN languages l ON l.id = t.language_id
      WHERE l.code = $1 AND u.context = $2`,
    [language, context],
  );
  return row.id;
}

/**
 * Holds the claim a live process holds on a task it runs (src/jobs/process-claims.ts). A test that inserts a
 * `running` task row must take it before the INSERT: otherwise the task-recovery cron (every minute, TaskRecoveryService) finds
 * the task unclaimed and reports it interrupted, which on a slow machine happens in the middle of the test.
 */
export function holdTaskClaim(app: TestApp, taskId: string): Promise<ReleaseClaim> {
  return app.glossa.app.get(ProcessClaims, { strict: false }).claim(taskClaimName(taskId));
}

/** Drops the private pg-boss schema a test file's job queues used (JobsOptions.schema), on its own connection. */
export async function dropJobSchema(databaseUrl: string, schema: string): Promise<void> {
  const connection = new DataSource({ type: 'postgres', url: databaseUrl });
  await connection.initialize();
  try {
    await connection.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  } finally {
    await connection.destroy();
  }
}
