import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { Translation } from '../translations/translation.entity';

/** Weblate's unit states (weblate-api.md §8.2). */
export enum UnitState {
  Empty = 0,
  Fuzzy = 10,
  Translated = 20,
  Approved = 30,
  ReadOnly = 100,
}

/** One string of one translation. Plural forms are joined with "\x1e\x1e" as Weblate stores them. */
@Entity('units')
@Index(['translationId', 'idHash'], { unique: true })
@Index(['translationId', 'position'])
// Trigram GIN indexes serve the case-insensitive substring searches of `q` (ILIKE '%…%' on source, target and
// context, bare words search all three; issue 13 item 5). TypeORM cannot express an operator class, so they
// are created by migrations SearchIndexes and SourceTrigramsOnSourceUnits (only where pg_trgm is available) and
// not synchronised. The source and context ones are partial: source units and `source_differs` units only.
@Index('IDX_units_source_trgm', { synchronize: false })
@Index('IDX_units_target_trgm', { synchronize: false })
@Index('IDX_units_context_trgm', { synchronize: false })
// Partial indexes of the `state:<translated` and `has:check` searches (migration SearchFilterIndexes, issue 13):
// TypeORM cannot express INCLUDE, so they are not synchronised either.
@Index('IDX_units_not_translated', { synchronize: false })
@Index('IDX_units_failing_check', { synchronize: false })
// The units linked to a source unit without their own text, for the `source:`/`context:` searches (migration
// LinkedToSourceIndex): partial, with INCLUDE, so not synchronised.
@Index('IDX_units_linked_to_source', { synchronize: false })
export class Unit {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'BY DEFAULT' })
  id: string;

  @Column()
  translationId: number;

  @ManyToOne(() => Translation, { onDelete: 'CASCADE' })
  @JoinColumn()
  translation: Translation;

  /** The source-language unit of the same string; null only on source units (they point at themselves). */
  @Column({ type: 'bigint', nullable: true })
  @Index()
  sourceUnitId: string | null;

  @Column({ type: 'bigint' })
  idHash: string;

  @Column({ type: 'bigint' })
  contentHash: string;

  @Column({ type: 'text' })
  context: string;

  @Column({ type: 'text' })
  source: string;

  @Column({ type: 'text', default: '' })
  previousSource: string;

  @Column({ type: 'text', default: '' })
  target: string;

  @Column({ type: 'text', default: '' })
  location: string;

  @Column({ type: 'text', default: '' })
  note: string;

  @Column({ type: 'text', default: '' })
  flags: string;

  @Column({ type: 'text', default: '' })
  extraFlags: string;

  @Column({ type: 'text', default: '' })
  explanation: string;

  @Column({ type: 'smallint', default: UnitState.Empty })
  state: UnitState;

  @Column()
  position: number;

  @Column({ default: 0 })
  numWords: number;

  @Column({ default: 0 })
  numChars: number;

  @Column({ type: 'smallint', default: 100 })
  priority: number;

  /** Changed in the database and not yet written to the repository. */
  @Column({ default: false })
  pending: boolean;

  @Column({ default: false })
  hasSuggestion: boolean;

  @Column({ default: false })
  hasComment: boolean;

  @Column({ default: false })
  hasFailingCheck: boolean;

  /**
   * The unit's source or context differs from its source unit's (a scan has updated the source unit and not
   * yet this translation), or its source unit is gone. Kept by triggers of migration SourceTrigramsOnSourceUnits;
   * such units stay in the source and context trigram indexes, which otherwise hold source units only.
   */
  @Column({ default: false, select: false })
  sourceDiffers: boolean;

  /** Structured JSON path and value type of the template leaf, so write-back keeps the file's shape. */
  @Column({ type: 'jsonb', nullable: true })
  fileLocation: unknown;

  @CreateDateColumn({ type: 'timestamptz' })
  timestamp: Date;
}
