import { Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';

export type TaskStatus = 'queued' | 'running' | 'completed' | 'failed';

/** A background operation as `/api/tasks/<id>/` reports it (weblate-api.md §6.12). */
@Entity('tasks')
export class Task {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ type: 'varchar', length: 50 })
  kind: string;

  @Column({ type: 'int', nullable: true })
  componentId: number | null;

  @Column({ type: 'varchar', length: 20, default: 'queued' })
  status: TaskStatus;

  @Column({ type: 'smallint', default: 0 })
  progress: number;

  @Column({ type: 'jsonb', nullable: true })
  result: unknown;

  @Column({ type: 'text', default: '' })
  log: string;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
