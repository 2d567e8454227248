import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { Component } from './component.entity';

/**
 * A problem with a component that its maintainers should see, as Weblate's `Alert` model keeps it
 * (weblate/trans/models/alert.py): one row per component and alert name, `details` holding the alert's data
 * (for `ParseError`, the files that could not be read: `{"occurrences": [{"filename", "line", "error"}]}`),
 * `timestamp` when it was first raised and `updated` when it was last seen. The row goes when the problem
 * does (a clean import of the file), as Weblate deletes alerts that no longer apply.
 */
@Entity('component_alerts')
@Index(['componentId', 'name'], { unique: true })
export class ComponentAlert {
  @PrimaryGeneratedColumn('identity', { generatedIdentity: 'BY DEFAULT' })
  id: number;

  @Column({ type: 'int' })
  componentId: number;

  @ManyToOne(() => Component, { onDelete: 'CASCADE' })
  @JoinColumn()
  component: Component;

  /** Weblate's alert class name, e.g. `ParseError`, `DuplicateString`. */
  @Column({ type: 'varchar', length: 150 })
  name: string;

  @Column({ type: 'jsonb', default: () => "'{}'" })
  details: Record<string, unknown>;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  timestamp: string;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  updated: string;
}
