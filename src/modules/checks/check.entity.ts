import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { Unit } from '../units/unit.entity';

/**
 * A failing quality check of one unit (checks-suggestions-search.md §3.1): one row per (unit, check id). A
 * row is "active" unless dismissed; the unit's `has_failing_check` mirrors "has an active row".
 */
@Entity('checks')
@Index(['unitId', 'name'], { unique: true })
@Index(['name'])
export class Check {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'BY DEFAULT' })
  id: string;

  @Column({ type: 'bigint' })
  unitId: string;

  @ManyToOne(() => Unit, { onDelete: 'CASCADE' })
  @JoinColumn()
  unit: Unit;

  /** The check id (Weblate's column name since 5.x; `check` in 4.x). */
  @Column({ type: 'varchar', length: 50 })
  name: string;

  @Column({ default: false })
  dismissed: boolean;
}
