import { Injectable, Logger, OnApplicationBootstrap, OnModuleInit } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { JobQueue } from '../../jobs/job-queue';
import { ProcessClaims } from '../../jobs/process-claims';
import { COMPONENT_IMPORT_JOB, COMPONENT_IMPORT_TASK } from '../../sync/component-task.scheduler';
import { PULL_JOB, PULL_TASK } from '../../sync/pull-task.scheduler';
import { REMOVAL_JOB } from '../../sync/removal-task.scheduler';
import { appendLog, INTERRUPTED_RESULT, taskClaimName } from '../../sync/task-run';

export { INTERRUPTED_RESULT } from '../../sync/task-run';

// Issue 3 item 8 and issue 10 item 10: a task survives a crash or a restart. The process running a task holds
// a claim on it (ProcessClaims: a PostgreSQL session lock, gone with a dead process). At start-up, and every
// minute after (a pg-boss cron job, so one process does it), running tasks nobody claims any more were
// interrupted: their job goes back to the queue for another attempt (the work is idempotent), or, once the
// job's retry limit is used up (an import that kills its process every time), the task is reported failed
// and unlinked from its component (task_url back to null). Queued tasks need nothing: their pg-boss job is in
// the database and runs when a worker is up.

export const TASK_RECOVERY_JOB = 'task-recovery';

/** Task kinds whose interrupted run is retried, with the queue of their job (the job id is the task id). */
const RETRIED_KINDS: Readonly<Record<string, string>> = {
  [COMPONENT_IMPORT_TASK]: COMPONENT_IMPORT_JOB,
  'component-removal': REMOVAL_JOB,
  'project-removal': REMOVAL_JOB,
  [PULL_TASK]: PULL_JOB,
};

export interface RecoveredTasks {
  /** Handed back to the job queue for another attempt. */
  retried: string[];
  /** Reported failed (no attempt left, or a kind that is not retried). */
  failed: string[];
}

@Injectable()
export class TaskRecoveryService implements OnModuleInit, OnApplicationBootstrap {
  private readonly logger = new Logger(TaskRecoveryService.name);

  constructor(
    private readonly dataSource: DataSource,
    private readonly jobs: JobQueue,
    private readonly claims: ProcessClaims,
  ) {}

  onModuleInit(): void {
    this.jobs.register(TASK_RECOVERY_JOB, () => this.recover(), { retryLimit: 0, expireInSeconds: 5 * 60 });
    this.jobs.schedule(TASK_RECOVERY_JOB, '* * * * *');
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.recover();
  }

  /** Retries or fails the running tasks no live process works on. */
  async recover(): Promise<RecoveredTasks> {
    const running: Array<{ id: string; kind: string }> = await this.dataSource.query(
      `SELECT id, kind FROM tasks WHERE status = 'running' ORDER BY created_at, id`,
    );
    const recovered: RecoveredTasks = { retried: [], failed: [] };
    for (const task of running) {
      try {
        // Runs only when nobody claims the task, and holds it meanwhile: no run can start under the recovery.
        const release = await this.claims.claim(taskClaimName(task.id), async () => {
          const outcome = await this.recoverTask(task.id, task.kind);
          if (outcome) recovered[outcome].push(task.id);
        });
        await release();
      } catch (error) {
        // The next run (a minute later) tries again.
        this.logger.error(`Could not recover task ${task.id}: ${(error as Error).message}`);
      }
    }
    if (recovered.retried.length > 0) this.logger.warn(`Retrying ${recovered.retried.length} interrupted task(s): ${recovered.retried.join(', ')}`);
    if (recovered.failed.length > 0) this.logger.warn(`Reported ${recovered.failed.length} interrupted task(s) as failed: ${recovered.failed.join(', ')}`);
    return recovered;
  }

  private async recoverTask(id: string, kind: string): Promise<keyof RecoveredTasks | null> {
    const queue = RETRIED_KINDS[kind];
    const next = queue ? await this.jobs.retryAbandoned(queue, id) : null;
    if (next) {
      const line = `${INTERRUPTED_RESULT.slice(0, -1)}; retrying (attempt ${next.attempt} of ${next.of}).`;
      const [rows]: [Array<{ id: string }>, number] = await this.dataSource.query(
        `UPDATE tasks SET status = 'queued', log = ${appendLog('$2')}, updated_at = now() WHERE id = $1 AND status = 'running' RETURNING id`,
        [id, line],
      );
      return rows.length > 0 ? 'retried' : null;
    }
    return this.dataSource.transaction(async (manager) => {
      const [rows]: [Array<{ id: string }>, number] = await manager.query(
        `UPDATE tasks SET status = 'failed', result = to_jsonb($2::text), log = ${appendLog(`'Error: ' || $2`)}, updated_at = now()
          WHERE id = $1 AND status = 'running'
          RETURNING id`,
        [id, INTERRUPTED_RESULT],
      );
      if (rows.length === 0) return null;
      await manager.query('UPDATE components SET task_id = NULL WHERE task_id = $1', [id]);
      return 'failed';
    });
  }
}
