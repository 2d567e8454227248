import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { Unit } from '../units/unit.entity';
import { User } from '../users/user.entity';

/**
 * A comment on a unit (checks-suggestions-search.md §6.1). Translation-scope comments are stored on the
 * unit of one language, global and report comments on the source unit (§6.2). Markdown text as written.
 */
@Entity('comments')
export class Comment {
  @PrimaryGeneratedColumn('identity', { type: 'int', generatedIdentity: 'BY DEFAULT' })
  id: number;

  @Column({ type: 'bigint' })
  @Index()
  unitId: string;

  @ManyToOne(() => Unit, { onDelete: 'CASCADE' })
  @JoinColumn()
  unit: Unit;

  @Column({ type: 'text' })
  comment: string;

  @Column({ type: 'int', nullable: true })
  userId: number | null;

  @ManyToOne(() => User, { onDelete: 'SET NULL', nullable: true })
  @JoinColumn()
  user: User | null;

  @Column({ type: 'timestamptz', default: () => 'clock_timestamp()' })
  timestamp: Date;

  @Column({ default: false })
  resolved: boolean;
}
