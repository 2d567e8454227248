import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, Unique } from 'typeorm';
import { Unit } from '../units/unit.entity';
import { User } from '../users/user.entity';

/**
 * A proposed translation of one unit (checks-suggestions-search.md §5.1). Plural forms are joined as unit
 * targets are. The author survives as null when the user is removed (Weblate keeps the suggestion); the
 * suggestion goes with its unit.
 */
@Entity('suggestions')
export class Suggestion {
  @PrimaryGeneratedColumn('identity', { type: 'int', generatedIdentity: 'BY DEFAULT' })
  id: number;

  @Column({ type: 'bigint' })
  @Index()
  unitId: string;

  @ManyToOne(() => Unit, { onDelete: 'CASCADE' })
  @JoinColumn()
  unit: Unit;

  @Column({ type: 'text' })
  target: string;

  @Column({ type: 'int', nullable: true })
  @Index()
  userId: number | null;

  @ManyToOne(() => User, { onDelete: 'SET NULL', nullable: true })
  @JoinColumn()
  user: User | null;

  @Column({ type: 'timestamptz', default: () => 'clock_timestamp()' })
  timestamp: Date;
}

/** One user's +1 or −1 on a suggestion (§5.5); voting again replaces the earlier vote. */
@Entity('suggestion_votes')
@Unique(['suggestionId', 'userId'])
export class SuggestionVote {
  @PrimaryGeneratedColumn('identity', { type: 'int', generatedIdentity: 'BY DEFAULT' })
  id: number;

  @Column({ type: 'int' })
  suggestionId: number;

  @ManyToOne(() => Suggestion, { onDelete: 'CASCADE' })
  @JoinColumn()
  suggestion: Suggestion;

  @Column({ type: 'int' })
  userId: number;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn()
  user: User;

  @Column({ type: 'smallint' })
  value: number;
}
