import { Injectable, Logger, OnApplicationBootstrap, OnModuleInit } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { JobQueue } from '../../jobs/job-queue';
import { STALE_TASK_SECONDS } from '../../sync/task-heartbeat';

// Issue 3, item 8: a task survives a restart — it is never left "running" forever. A running task keeps a
// heartbeat (src/sync/task-heartbeat.ts); one whose process died stops beating. At start-up, and every minute
// after (a pg-boss cron job, so one process does it), running tasks without a recent heartbeat are reported
// as failed and unlinked from their component (task_url back to null). Queued tasks need nothing: their
// pg-boss job is in the database and runs when a worker is up.

export const TASK_RECOVERY_JOB = 'task-recovery';
export const INTERRUPTED_RESULT = 'Interrupted: the server stopped while the task was running.';

@Injectable()
export class TaskRecoveryService implements OnModuleInit, OnApplicationBootstrap {
  private readonly logger = new Logger(TaskRecoveryService.name);

  constructor(
    private readonly dataSource: DataSource,
    private readonly jobs: JobQueue,
  ) {}

  onModuleInit(): void {
    this.jobs.register(TASK_RECOVERY_JOB, () => this.recover(), { retryLimit: 0, expireInSeconds: 5 * 60 });
    this.jobs.schedule(TASK_RECOVERY_JOB, '* * * * *');
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.recover();
  }

  /** Marks stale running tasks failed; resolves with their ids. */
  async recover(staleSeconds = STALE_TASK_SECONDS): Promise<string[]> {
    const ids = await this.dataSource.transaction(async (manager) => {
      const [rows]: [Array<{ id: string }>, number] = await manager.query(
        `UPDATE tasks SET status = 'failed', result = to_jsonb($1::text),
                log = CASE WHEN log = '' THEN 'Error: ' || $1 ELSE log || E'\\n' || 'Error: ' || $1 END, updated_at = now()
          WHERE status = 'running' AND updated_at < now() - make_interval(secs => $2)
          RETURNING id`,
        [INTERRUPTED_RESULT, staleSeconds],
      );
      const found = rows.map((row) => row.id);
      if (found.length > 0) await manager.query('UPDATE components SET task_id = NULL WHERE task_id = ANY($1::uuid[])', [found]);
      return found;
    });
    if (ids.length > 0) this.logger.warn(`Reported ${ids.length} interrupted task(s) as failed: ${ids.join(', ')}`);
    return ids;
  }
}
