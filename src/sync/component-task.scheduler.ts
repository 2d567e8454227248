import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { JobQueue } from '../jobs/job-queue';
import { ProcessClaims } from '../jobs/process-claims';
import { ComponentImportService } from './component-import.service';
import { taskErrorText, taskLogText } from './task-log-text';
import { appendLog, startTaskRun } from './task-run';

// Heavy component work runs in the background (weblate-api.md §10.11: creation answers 201 and `task_url`
// points at the task). A Task row is what `/api/tasks/<id>/` shows; the pg-boss job that does the work has
// the same id, and both are written in one transaction, so a task is never queued without its job (and a
// restart does not lose it: pg-boss keeps jobs in the database). An import interrupted by a crash is run
// again (TaskRecoveryService hands its job back to the queue, issue 10 item 10); the import is idempotent:
// the clone is redone or reused, and the scan stores each translation in one transaction and diffs against
// what is stored, so a half-imported component gets the missing translations and no duplicate units.

export const COMPONENT_IMPORT_JOB = 'component-import';
export const COMPONENT_IMPORT_TASK = 'component-import';

export interface ComponentImportJob {
  taskId: string;
  componentId: number;
}

@Injectable()
export class ComponentTaskScheduler implements OnModuleInit {
  private readonly logger = new Logger(ComponentTaskScheduler.name);

  constructor(
    private readonly dataSource: DataSource,
    private readonly jobs: JobQueue,
    private readonly imports: ComponentImportService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly claims: ProcessClaims,
  ) {}

  onModuleInit(): void {
    // One retry: a job survives a crash of the process running it (TaskRecoveryService hands it back to the
    // queue as soon as its process is gone; pg-boss also retries expired jobs); failures of the import itself
    // are recorded on the task and not retried. The limit stops an import that crashes its process every time.
    this.jobs.register<ComponentImportJob>(COMPONENT_IMPORT_JOB, (data) => this.runImport(data), {
      retryLimit: 1,
      expireInSeconds: 3 * 60 * 60,
    });
  }

  /** Queues the import of a component and marks the component as busy (`task_url`); resolves with the task id. */
  async scheduleImport(componentId: number): Promise<string> {
    const taskId = randomUUID();
    await this.dataSource.transaction(async (manager) => {
      await manager.query(
        `INSERT INTO tasks (id, kind, component_id, status, progress, log) VALUES ($1, $2, $3, 'queued', 0, '')`,
        [taskId, COMPONENT_IMPORT_TASK, componentId],
      );
      const [, updated] = await manager.query('UPDATE components SET task_id = $1 WHERE id = $2', [taskId, componentId]);
      if (updated !== 1) throw new Error(`Component ${componentId} does not exist.`);
      await this.jobs.send<ComponentImportJob>(COMPONENT_IMPORT_JOB, { taskId, componentId }, { id: taskId, manager });
    });
    return taskId;
  }

  /** The job handler. Never throws for a failed import: the failure is the task's result. */
  async runImport({ taskId, componentId }: ComponentImportJob): Promise<void> {
    const run = await startTaskRun(this.dataSource, this.claims, taskId);
    if (!run) return;
    try {
      const result = await this.imports.importComponent(componentId, {
        onProgress: (percent, lines) => this.progress(taskId, percent, lines),
      });
      await this.finish(taskId, componentId, 'completed', {
        result: true,
        translations: result.translations,
        units: result.units,
      }, [`Imported ${result.translations} translations with ${result.units} strings`]);
    } catch (error) {
      // The server log keeps the whole text; the task, readable anonymously, a cleaned one.
      this.logger.error(`Import of component ${componentId} failed: ${error instanceof Error ? error.message : String(error)}`);
      const message = taskErrorText(error, this.config);
      await this.finish(taskId, componentId, 'failed', message, [`Error: ${message}`]);
    } finally {
      await run.release();
    }
  }

  private async progress(taskId: string, percent: number, lines: string[]): Promise<void> {
    await this.dataSource.query(
      `UPDATE tasks SET progress = $2, log = ${appendLog('$3')}, updated_at = now() WHERE id = $1`,
      [taskId, percent, taskLogText(lines.join('\n'), this.config)],
    );
  }

  private async finish(taskId: string, componentId: number, status: 'completed' | 'failed', result: unknown, lines: string[]): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      await manager.query(
        // Only a task still running: a task cancelled meanwhile (DELETE /api/tasks/<id>/) stays cancelled.
        `UPDATE tasks SET status = $2, progress = 100, result = $3::jsonb, log = ${appendLog('$4')}, updated_at = now()
          WHERE id = $1 AND status = 'running'`,
        [taskId, status, JSON.stringify(result), taskLogText(lines.join('\n'), this.config)],
      );
      // Only this task's mark: a newer task may have replaced it.
      await manager.query('UPDATE components SET task_id = NULL WHERE id = $1 AND task_id = $2', [componentId, taskId]);
    });
  }
}
