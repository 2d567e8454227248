import type { DataSource } from 'typeorm';
import type { ProcessClaims, ReleaseClaim } from '../jobs/process-claims';

// The process running a task holds a claim on it (ProcessClaims) for as long as it works on it. A task left
// "running" by a process that died is claimed by nobody (its database session ended): TaskRecoveryService
// (src/modules/tasks) hands it back to the job queue for another attempt, or reports it failed when none is
// left, so no task stays "running" forever after a crash or a restart (issue 3 item 8, issue 10 item 10).

export const INTERRUPTED_RESULT = 'Interrupted: the server stopped while the task was running.';

/** The claim held by the process running a task. */
export function taskClaimName(taskId: string): string {
  return `task:${taskId}`;
}

/** SQL appending the text parameter as new log lines (an empty parameter leaves the log unchanged). */
export function appendLog(parameter: string): string {
  return `CASE WHEN ${parameter} = '' THEN log WHEN log = '' THEN ${parameter} ELSE log || E'\\n' || ${parameter} END`;
}

export interface TaskRun {
  release: ReleaseClaim;
}

/**
 * Starts a run of a task for the job delivering it: claims the task, then marks it running when it is
 * queued — or when it is marked running but no live process has it claimed (its process died and the queue
 * delivered the job again: this run takes over, and the log says so). Resolves with null when the task is
 * not to be run here (running in a live process, finished, cancelled, removed): a duplicate delivery.
 */
export async function startTaskRun(dataSource: DataSource, claims: ProcessClaims, taskId: string): Promise<TaskRun | null> {
  // Claimed before it is marked running: a running task nobody claims is one whose process died.
  let abandoned = false;
  const release = await claims.claim(taskClaimName(taskId), async () => {
    abandoned = true;
  });
  try {
    // TypeORM answers an UPDATE with [rows, affected count].
    const [started]: [Array<{ id: string }>, number] = await dataSource.query(
      `UPDATE tasks SET status = 'running', progress = 0, updated_at = now(),
              log = CASE WHEN status = 'running' THEN ${appendLog('$2')} ELSE log END
        WHERE id = $1 AND (status = 'queued' OR (status = 'running' AND $3::boolean))
        RETURNING id`,
      [taskId, `${INTERRUPTED_RESULT.slice(0, -1)}; retrying.`, abandoned],
    );
    if (started.length > 0) return { release };
  } catch (error) {
    await release();
    throw error;
  }
  await release();
  return null;
}
