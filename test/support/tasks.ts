import type { DataSource } from 'typeorm';
import type { TestApp } from './test-app';

/**
 * Polls `/api/tasks/<id>/` (a component's `task_url`) until the task completes and answers its body; fails
 * with the last body after `timeoutMs`. Background imports, pulls and removals run as such tasks.
 */
export async function waitForTask(app: TestApp, taskUrl: string, headers: [string, string] | null = null, timeoutMs = 60_000): Promise<Record<string, unknown>> {
  const taskPath = new URL(taskUrl, 'http://localhost').pathname;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const request = app.http().get(taskPath);
    const response = await (headers ? request.set(...headers) : request).expect(200);
    if (response.body.completed) return response.body as Record<string, unknown>;
    if (Date.now() > deadline) throw new Error(`Task ${taskPath} did not complete: ${JSON.stringify(response.body)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
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
