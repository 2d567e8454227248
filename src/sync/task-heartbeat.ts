import type { DataSource } from 'typeorm';

// A running task touches its row (updated_at) while it works. A task left "running" by a process that died
// stops being touched; TaskRecoveryService (src/modules/tasks) reports it as failed once it is older than
// STALE_TASK_SECONDS, so no task stays "running" forever after a crash or a restart (issue 3, item 8).

export const HEARTBEAT_SECONDS = 20;
/** Several missed heartbeats: long enough for a slow statement, short enough for users watching task_url. */
export const STALE_TASK_SECONDS = 120;

/** Runs `work` while keeping the task's heartbeat. */
export async function withHeartbeat<T>(dataSource: DataSource, taskId: string, work: () => Promise<T>): Promise<T> {
  const timer = setInterval(() => {
    dataSource.query(`UPDATE tasks SET updated_at = now() WHERE id = $1 AND status = 'running'`, [taskId]).catch(() => undefined);
  }, HEARTBEAT_SECONDS * 1000);
  timer.unref();
  try {
    return await work();
  } finally {
    clearInterval(timer);
  }
}
