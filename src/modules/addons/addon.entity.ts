import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { Component } from '../components/component.entity';
import { Project } from '../projects/project.entity';

/**
 * An installed add-on, as Weblate's `Addon` model keeps it (integration.md §3): its name, the component or
 * the project it is installed on, and its configuration. Exactly one of `componentId`/`projectId` scopes it
 * (a component add-on also records its project, so visibility and permissions resolve from the row alone);
 * removing the component or project removes its add-ons, as in Weblate.
 */
@Entity('addons')
@Index(['componentId'])
@Index(['projectId'])
export class Addon {
  @PrimaryGeneratedColumn('identity', { generatedIdentity: 'BY DEFAULT' })
  id: number;

  /** Weblate's add-on id, e.g. `weblate.webhook.webhook`. */
  @Column({ type: 'varchar', length: 100 })
  name: string;

  /** The project: of the component for a component add-on, the scope itself for a project add-on. */
  @Column({ type: 'int' })
  projectId: number;

  @ManyToOne(() => Project, { onDelete: 'CASCADE' })
  @JoinColumn()
  project: Project;

  /** Null for a project-wide add-on. */
  @Column({ type: 'int', nullable: true })
  componentId: number | null;

  @ManyToOne(() => Component, { onDelete: 'CASCADE', nullable: true })
  @JoinColumn()
  component: Component | null;

  @Column({ type: 'jsonb', default: () => "'{}'" })
  configuration: Record<string, unknown>;

  /**
   * When delivery stopped because the receiver answered 410 Gone (Standard Webhooks: disable the endpoint),
   * with the reason; saving the configuration again resumes it.
   */
  @Column({ type: 'timestamptz', nullable: true })
  disabledAt: string | null;

  @Column({ type: 'text', default: '' })
  disabledReason: string;
}
