import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { Component } from '../components/component.entity';
import { Language } from '../languages/language.entity';
import { User } from '../users/user.entity';

/**
 * One language of a component. Statistics are stored here and kept current as units change
 * (architecture.md: statistics are maintained, not recomputed per request).
 */
@Entity('translations')
@Index(['componentId', 'languageId'], { unique: true })
export class Translation {
  @PrimaryGeneratedColumn()
  id: number;

  @Column()
  componentId: number;

  @ManyToOne(() => Component, { onDelete: 'CASCADE' })
  @JoinColumn()
  component: Component;

  @Column()
  @Index()
  languageId: number;

  @ManyToOne(() => Language)
  @JoinColumn()
  language: Language;

  /** The code as it appears in the file name, which may differ from the language's code. */
  @Column({ type: 'varchar', length: 50 })
  languageCode: string;

  @Column({ type: 'varchar', length: 400 })
  filename: string;

  /** Git blob hashes of the translation file and the template, comma-joined (weblate-api.md §11.3). */
  @Column({ type: 'varchar', length: 100, default: '' })
  revision: string;

  @Column({ default: false })
  isSource: boolean;

  /**
   * The plural the file declares (PO `Plural-Forms`, formats.md §2.3) when it differs from the language's
   * default; null: the language's plural. Plural units of this translation have this many forms.
   */
  @Column({ type: 'int', nullable: true })
  pluralNumber: number | null;

  @Column({ type: 'text', nullable: true })
  pluralFormula: string | null;

  @Column({ default: false })
  isTemplate: boolean;

  @Column({ default: 0 }) total: number;
  @Column({ default: 0 }) totalWords: number;
  @Column({ default: 0 }) totalChars: number;
  @Column({ default: 0 }) translated: number;
  @Column({ default: 0 }) translatedWords: number;
  @Column({ default: 0 }) translatedChars: number;
  @Column({ default: 0 }) fuzzy: number;
  @Column({ default: 0 }) fuzzyWords: number;
  @Column({ default: 0 }) fuzzyChars: number;
  @Column({ default: 0 }) approved: number;
  @Column({ default: 0 }) approvedWords: number;
  @Column({ default: 0 }) approvedChars: number;
  @Column({ default: 0 }) readonly: number;
  @Column({ default: 0 }) readonlyWords: number;
  @Column({ default: 0 }) readonlyChars: number;
  @Column({ default: 0 }) failingChecks: number;
  @Column({ default: 0 }) failingChecksWords: number;
  @Column({ default: 0 }) haveSuggestion: number;
  @Column({ default: 0 }) haveComment: number;

  /** Time of the last content change (translation edits, not file scans), or null. */
  @Column({ type: 'timestamptz', nullable: true })
  lastChange: Date | null;

  @Column({ type: 'int', nullable: true })
  lastAuthorId: number | null;

  @ManyToOne(() => User, { onDelete: 'SET NULL', nullable: true })
  @JoinColumn()
  lastAuthor: User | null;
}
