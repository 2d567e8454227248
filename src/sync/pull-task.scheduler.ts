import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { JobQueue } from '../jobs/job-queue';
import { ProcessClaims } from '../jobs/process-claims';
import { RepositoryOperationsService } from './repository-operations.service';
import { taskErrorText, taskLogText } from './task-log-text';
import { appendLog, startTaskRun } from './task-run';

// A repository update queued in the background: what Weblate's hooks start with perform_update.delay
// (integration.md §1.6), the same work as `POST …/repository/ {"operation": "pull"}` (pending strings
// committed, upstream fetched and merged, files rescanned, 59 for every string the pull changed), run by
// RepositoryOperationsService.pull. A Task row (`/api/tasks/<id>/`) and a pg-boss job with the same id are
// written in one transaction, as for imports and removals.
//
// Coalescing: a component has at most one pull waiting. A pull asked for while one is queued and not started
// reuses it (it will fetch whatever was pushed by then); one asked for while a pull runs queues a new one,
// since the running fetch may predate the push. A transaction-scoped advisory lock per component makes
// "look for a queued pull, else queue one" atomic across requests and processes, so a flood of hooks
// queues one pull.

export const PULL_JOB = 'component-pull';
export const PULL_TASK = 'component-pull';
/** Namespace of the advisory lock (two-int form, so it never meets ProcessClaims' bigint keys). */
const PULL_LOCK_NAMESPACE = 0x70756c6c; // "pull"

export interface PullJob {
  taskId: string;
  componentId: number;
}

export interface ScheduledPull {
  taskId: string;
  /** False when a pull already waiting for the component was reused. */
  queued: boolean;
}

@Injectable()
export class PullTaskScheduler implements OnModuleInit {
  private readonly logger = new Logger(PullTaskScheduler.name);

  constructor(
    private readonly dataSource: DataSource,
    private readonly jobs: JobQueue,
    private readonly operations: RepositoryOperationsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly claims: ProcessClaims,
  ) {}

  onModuleInit(): void {
    // A pull is idempotent (a second fetch finds nothing new), so a run interrupted by a crash is retried.
    this.jobs.register<PullJob>(PULL_JOB, (data) => this.run(data), { retryLimit: 2, expireInSeconds: 60 * 60 });
  }

  /** Queues a pull of the component unless one is already waiting; resolves with the task that will run it. */
  async schedulePull(componentId: number): Promise<ScheduledPull> {
    return this.dataSource.transaction(async (manager) => {
      await manager.query('SELECT pg_advisory_xact_lock($1, $2)', [PULL_LOCK_NAMESPACE, componentId]);
      const [waiting]: Array<{ id: string }> = await manager.query(
        `SELECT id FROM tasks WHERE kind = $1 AND component_id = $2 AND status = 'queued' ORDER BY created_at LIMIT 1`,
        [PULL_TASK, componentId],
      );
      if (waiting) return { taskId: waiting.id, queued: false };
      const taskId = randomUUID();
      await manager.query(`INSERT INTO tasks (id, kind, component_id, status, progress, log) VALUES ($1, $2, $3, 'queued', 0, '')`, [
        taskId,
        PULL_TASK,
        componentId,
      ]);
      // The component's task_url shows the pull unless another task (an import, a removal) holds it.
      await manager.query('UPDATE components SET task_id = $1 WHERE id = $2 AND task_id IS NULL', [taskId, componentId]);
      await this.jobs.send<PullJob>(PULL_JOB, { taskId, componentId }, { id: taskId, manager });
      return { taskId, queued: true };
    });
  }

  /** The job handler; the outcome of the pull (`{"result", "detail"}`, as the API answers it) is the task's result. */
  async run({ taskId, componentId }: PullJob): Promise<void> {
    const run = await startTaskRun(this.dataSource, this.claims, taskId);
    if (!run) return; // Cancelled, finished or running in a live process: a duplicate delivery.
    try {
      const [exists]: Array<{ id: number }> = await this.dataSource.query('SELECT id FROM components WHERE id = $1', [componentId]);
      if (!exists) {
        await this.finish(taskId, 'completed', { result: false, detail: 'The component was removed.' }, 'The component was removed');
        return;
      }
      const outcome = await this.operations.pull(componentId, null);
      const detail = outcome.detail === undefined ? undefined : taskLogText(outcome.detail, this.config);
      const line = outcome.result ? 'Updated the repository' : `Update failed: ${detail ?? ''}`;
      const result = detail === undefined ? { result: outcome.result } : { result: outcome.result, detail };
      await this.finish(taskId, 'completed', result, line);
    } catch (error) {
      this.logger.error(`Pull of component ${componentId} failed: ${error instanceof Error ? error.message : String(error)}`);
      // Readable anonymously: no server paths (issue 10 item 10).
      const message = taskErrorText(error, this.config);
      await this.finish(taskId, 'failed', message, `Error: ${message}`);
    } finally {
      await run.release();
    }
  }

  private async finish(taskId: string, status: 'completed' | 'failed', result: unknown, line: string): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      await manager.query(
        `UPDATE tasks SET status = $2, progress = 100, result = $3::jsonb, log = ${appendLog('$4')}, updated_at = now()
          WHERE id = $1 AND status = 'running'`,
        [taskId, status, JSON.stringify(result), line],
      );
      await manager.query('UPDATE components SET task_id = NULL WHERE task_id = $1', [taskId]);
    });
  }
}
