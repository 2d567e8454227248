import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/**
 * A language with its default plural (Weblate's plural with source 0). The plural lives on the language
 * row, and its API `id` is the language id: on a fresh Weblate install languages and default plurals are
 * created in one loop, so both ids coincide (shared/reference/languages-formats-hashing.md §1.3).
 */
@Entity('languages')
export class Language {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'varchar', length: 50, unique: true })
  code: string;

  @Column({ type: 'varchar', length: 100 })
  name: string;

  @Column({ type: 'varchar', length: 3, default: 'ltr' })
  direction: string;

  @Column({ type: 'bigint', default: 0 })
  population: string;

  @Column({ type: 'text', array: true, default: () => "'{}'" })
  aliases: string[];

  @Column({ type: 'smallint', default: 2 })
  pluralNumber: number;

  @Column({ type: 'text', default: 'n != 1' })
  pluralFormula: string;

  @Column({ type: 'smallint', default: 1 })
  pluralType: number;
}
