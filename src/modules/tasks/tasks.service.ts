import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, Repository } from 'typeorm';
import { notFound, permissionDenied } from '../../common/http/api-errors';
import type { RequestContext } from '../../common/http/request-context';
import { Task } from './task.entity';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** What a cancelled task reports as its result. */
export const CANCELLED_RESULT = 'Cancelled';

/** Background tasks as `/api/tasks/<uuid>/` shows them (weblate-api.md §5.14). */
@Injectable()
export class TasksService {
  constructor(@InjectRepository(Task) private readonly tasks: Repository<Task>) {}

  /** Unknown and malformed ids are both 404 (a malformed one would otherwise be a uuid cast error). */
  async get(id: string): Promise<Task> {
    const task = UUID.test(id) ? await this.tasks.findOneBy({ id: id.toLowerCase() }) : null;
    if (!task) throw notFound();
    return task;
  }

  /**
   * Cancels a task that has not finished: it is marked failed with the result "Cancelled" and, as Weblate
   * does, unlinked from its component (whose `task_url` goes back to null). The job runner only starts
   * tasks that are still queued, so a cancelled queued task never runs. A finished task is left alone;
   * either way the answer is 204, as in Weblate. Cancelling needs `component.edit` in Weblate, which only
   * superusers hold until teams exist (plain 403, Weblate raises PermissionDenied without a message).
   */
  async cancel(ctx: RequestContext, id: string): Promise<void> {
    const task = await this.get(id);
    if (!ctx.can('component.edit')) throw permissionDenied();
    await this.tasks.manager.transaction(async (manager) => {
      const { affected } = await manager.update(
        Task,
        { id: task.id, status: In(['queued', 'running']) },
        { status: 'failed', result: CANCELLED_RESULT },
      );
      if (affected) await manager.query('UPDATE components SET task_id = NULL WHERE task_id = $1', [task.id]);
    });
  }
}
