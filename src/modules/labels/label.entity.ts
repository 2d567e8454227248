import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, PrimaryGeneratedColumn, Unique } from 'typeorm';
import { Project } from '../projects/project.entity';
import { Unit } from '../units/unit.entity';

/**
 * A project's label (weblate-api.md §6 "Label": `id`, `name` max 190, `description`, `color` §8.11). Names are
 * unique per project, as Weblate's `Label` model (unique_together project, name).
 */
@Entity('labels')
@Unique(['projectId', 'name'])
export class Label {
  @PrimaryGeneratedColumn('identity', { type: 'int', generatedIdentity: 'BY DEFAULT' })
  id: number;

  @Column()
  projectId: number;

  @ManyToOne(() => Project, { onDelete: 'CASCADE' })
  @JoinColumn()
  project: Project;

  @Column({ type: 'varchar', length: 190 })
  name: string;

  @Column({ type: 'text', default: '' })
  description: string;

  @Column({ type: 'varchar', length: 30 })
  color: string;
}

/**
 * A label on a unit (Weblate's `Unit.labels` many-to-many). Glossa labels source units only: the API sets
 * labels on source strings (weblate-api.md §10.2) and bulk edits label the matches' source strings
 * (integration.md §6.1). Deleting a label or a unit removes the pairs.
 */
@Entity('unit_labels')
export class UnitLabel {
  @PrimaryColumn({ type: 'bigint' })
  unitId: string;

  @ManyToOne(() => Unit, { onDelete: 'CASCADE' })
  @JoinColumn()
  unit: Unit;

  @PrimaryColumn({ type: 'int' })
  @Index()
  labelId: number;

  @ManyToOne(() => Label, { onDelete: 'CASCADE' })
  @JoinColumn()
  label: Label;
}
