import { ApiProperty } from '@nestjs/swagger';
import type { Task } from './task.entity';

/** `/api/tasks/<uuid>/` (weblate-api.md §6.12). */
export class TaskResponse {
  @ApiProperty({ description: 'True once the task has finished, successfully or not' }) completed: boolean;
  @ApiProperty({ minimum: 0, maximum: 100 }) progress: number;
  @ApiProperty({ nullable: true, description: 'What the task returned; the error text when it failed; null while it runs' })
  result: unknown;
  @ApiProperty({ description: 'Log lines joined by newlines' }) log: string;
}

/**
 * Weblate reports Celery's view of the task: `completed` is ready() (success or failure), progress is 100
 * once it succeeded and the last reported step otherwise.
 */
export function toTaskResponse(task: Task): TaskResponse {
  const completed = task.status === 'completed' || task.status === 'failed';
  const progress = task.status === 'completed' ? 100 : Math.min(100, Math.max(0, task.progress));
  return { completed, progress, result: task.result ?? null, log: task.log };
}
