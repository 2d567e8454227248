import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import * as path from 'node:path';
import { DataSource } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { JobQueue } from '../jobs/job-queue';
import { ProcessClaims } from '../jobs/process-claims';
import { withComponentLock } from './component-lock';
import { taskErrorText } from './task-log-text';
import { startTaskRun } from './task-run';
import { WorkingCopyService } from './working-copy.service';

// DELETE of a component or a project (weblate-api.md §10.4): Weblate answers 204 at once and removes in a
// background task (the object may stay visible for a moment). Here the task is a row in `tasks` (visible at
// /api/tasks/<id>/, and as the component's task_url) and a pg-boss job with the same id, written in one
// transaction; the job deletes the rows, records 38/39 on the project and removes the working copies.

export const REMOVAL_JOB = 'object-removal';
const ACTION_REMOVE_COMPONENT = 38;
const ACTION_REMOVE_PROJECT = 39;

export interface RemovalJob {
  taskId: string;
  kind: 'component' | 'project';
  id: number;
  actorId: number | null;
}

@Injectable()
export class RemovalTaskScheduler implements OnModuleInit {
  private readonly logger = new Logger(RemovalTaskScheduler.name);

  constructor(
    private readonly dataSource: DataSource,
    private readonly jobs: JobQueue,
    private readonly workingCopies: WorkingCopyService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly claims: ProcessClaims,
  ) {}

  onModuleInit(): void {
    // Removal is idempotent (a second run finds nothing left), so a crashed run is simply retried.
    this.jobs.register<RemovalJob>(REMOVAL_JOB, (data) => this.run(data), { retryLimit: 2, expireInSeconds: 60 * 60 });
  }

  /** Queues the removal of a component; it is marked busy (task_url) until the task runs. */
  scheduleComponentRemoval(componentId: number, actorId: number | null): Promise<string> {
    return this.schedule({ kind: 'component', id: componentId, actorId }, componentId);
  }

  scheduleProjectRemoval(projectId: number, actorId: number | null): Promise<string> {
    return this.schedule({ kind: 'project', id: projectId, actorId }, null);
  }

  private async schedule(job: Omit<RemovalJob, 'taskId'>, componentId: number | null): Promise<string> {
    const taskId = randomUUID();
    await this.dataSource.transaction(async (manager) => {
      await manager.query(`INSERT INTO tasks (id, kind, component_id, status, progress, log) VALUES ($1, $2, $3, 'queued', 0, '')`, [
        taskId,
        `${job.kind}-removal`,
        componentId,
      ]);
      if (componentId !== null) await manager.query('UPDATE components SET task_id = $1 WHERE id = $2', [taskId, componentId]);
      await this.jobs.send<RemovalJob>(REMOVAL_JOB, { ...job, taskId }, { id: taskId, manager });
    });
    return taskId;
  }

  /** The job handler; a failure is the task's result, not an exception. */
  async run(job: RemovalJob): Promise<void> {
    const run = await startTaskRun(this.dataSource, this.claims, job.taskId);
    if (!run) return; // Cancelled, finished or running in a live process: a duplicate delivery.
    try {
      const removed = await (job.kind === 'component' ? this.removeComponent(job) : this.removeProject(job));
      await this.finish(job.taskId, 'completed', { result: true }, removed ? `Removed ${job.kind} ${removed}` : `The ${job.kind} was already removed`);
    } catch (error) {
      this.logger.error(`Removal of ${job.kind} ${job.id} failed: ${error instanceof Error ? error.message : String(error)}`);
      // Readable anonymously: no server paths (issue 10 item 10).
      const message = taskErrorText(error, this.config);
      await this.finish(job.taskId, 'failed', message, `Error: ${message}`);
    } finally {
      await run.release();
    }
  }

  private async removeComponent(job: RemovalJob): Promise<string | null> {
    return withComponentLock(job.id, async () => {
      const [component]: Array<{ slug: string; project_id: number; project_slug: string }> = await this.dataSource.query(
        'SELECT c.slug, c.project_id, p.slug AS project_slug FROM components c JOIN projects p ON p.id = c.project_id WHERE c.id = $1',
        [job.id],
      );
      if (!component) return null;
      await this.dataSource.transaction(async (manager) => {
        await manager.query('INSERT INTO changes (action, project_id, user_id, author_id, target) VALUES ($1, $2, $3, $3, $4)', [
          ACTION_REMOVE_COMPONENT,
          component.project_id,
          job.actorId,
          component.slug,
        ]);
        await manager.query('DELETE FROM components WHERE id = $1', [job.id]);
      });
      await rm(this.workingCopies.directory(component.project_slug, component.slug), { recursive: true, force: true });
      return `${component.project_slug}/${component.slug}`;
    });
  }

  private async removeProject(job: RemovalJob): Promise<string | null> {
    const [project]: Array<{ slug: string }> = await this.dataSource.query('SELECT slug FROM projects WHERE id = $1', [job.id]);
    if (!project) return null;
    await this.dataSource.transaction(async (manager) => {
      await manager.query('INSERT INTO changes (action, project_id, user_id, author_id, target) VALUES ($1, $2, $3, $3, $4)', [
        ACTION_REMOVE_PROJECT,
        job.id,
        job.actorId,
        project.slug,
      ]);
      await manager.query('DELETE FROM projects WHERE id = $1', [job.id]);
    });
    // <DATA_DIR>/vcs/<project>: every working copy of the project (WorkingCopyService.directory's layout).
    const directory = path.dirname(this.workingCopies.directory(project.slug, 'x'));
    if (path.dirname(directory) === path.join(this.config.dataDir, 'vcs')) await rm(directory, { recursive: true, force: true });
    return project.slug;
  }

  private async finish(taskId: string, status: 'completed' | 'failed', result: unknown, line: string): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      await manager.query(
        `UPDATE tasks SET status = $2, progress = 100, result = $3::jsonb,
                log = CASE WHEN log = '' THEN $4 ELSE log || E'\\n' || $4 END, updated_at = now()
          WHERE id = $1 AND status = 'running'`,
        [taskId, status, JSON.stringify(result), line],
      );
      await manager.query('UPDATE components SET task_id = NULL WHERE task_id = $1', [taskId]);
    });
  }
}
