import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { Component } from '../components/component.entity';
import { Project } from '../projects/project.entity';
import { Translation } from '../translations/translation.entity';
import { Unit } from '../units/unit.entity';
import { User } from '../users/user.entity';

/**
 * One event of the history. Its references become NULL when what they name is deleted, so history survives
 * removal of what it talks about, as Weblate's does. They are not foreign keys: statement-level triggers of
 * migration ChangeReferenceTriggers clear them on delete and check them on insert, set by set, because six
 * row-by-row RI checks per change row were a quarter of a bulk edit's write (docs/performance.md).
 */
@Entity('changes')
@Index(['translationId', 'id'])
@Index(['componentId', 'id'])
@Index(['projectId', 'id'])
// A user's first change in a translation records 45 "New contributor": the check must not walk the
// translation's whole history (unit-translate.statement.ts).
@Index(['translationId', 'userId'])
// `changed:`, `changed_by:`, `change_time:` … searches look for one change event of each unit (issue 13 item 5).
@Index(['unitId', 'timestamp'])
// The change feed (change-feed.ts) walks the history in (xact, id) order.
@Index(['xact', 'id'])
export class Change {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'BY DEFAULT' })
  id: string;

  @Column({ type: 'smallint' })
  action: number;

  /**
   * The id of the transaction that wrote the change (glossa_xact_id(): pg_current_xact_id() as a bigint). Ids are handed out before commit,
   * so a reader following `id` alone could pass a change whose transaction commits later; change-feed.ts
   * reads only transactions older than every running one, in (xact, id) order, and so never skips one.
   */
  @Column({ type: 'bigint', default: () => 'glossa_xact_id()', select: false })
  xact: string;

  /** clock_timestamp(), not now(): several changes written in one transaction keep their order. */
  @Column({ type: 'timestamptz', default: () => 'clock_timestamp()' })
  timestamp: Date;

  @Column({ type: 'bigint', nullable: true })
  unitId: string | null;

  @ManyToOne(() => Unit, { onDelete: 'SET NULL', nullable: true, createForeignKeyConstraints: false })
  @JoinColumn()
  unit: Unit | null;

  @Column({ type: 'int', nullable: true })
  translationId: number | null;

  @ManyToOne(() => Translation, { onDelete: 'SET NULL', nullable: true, createForeignKeyConstraints: false })
  @JoinColumn()
  translation: Translation | null;

  @Column({ type: 'int', nullable: true })
  componentId: number | null;

  @ManyToOne(() => Component, { onDelete: 'SET NULL', nullable: true, createForeignKeyConstraints: false })
  @JoinColumn()
  component: Component | null;

  @Column({ type: 'int', nullable: true })
  projectId: number | null;

  @ManyToOne(() => Project, { onDelete: 'SET NULL', nullable: true, createForeignKeyConstraints: false })
  @JoinColumn()
  project: Project | null;

  @Column({ type: 'int', nullable: true })
  languageId: number | null;

  @Column({ type: 'int', nullable: true })
  userId: number | null;

  @ManyToOne(() => User, { onDelete: 'SET NULL', nullable: true, createForeignKeyConstraints: false })
  @JoinColumn()
  user: User | null;

  @Column({ type: 'int', nullable: true })
  authorId: number | null;

  @ManyToOne(() => User, { onDelete: 'SET NULL', nullable: true, createForeignKeyConstraints: false })
  @JoinColumn()
  author: User | null;

  @Column({ type: 'text', default: '' })
  target: string;

  @Column({ type: 'text', default: '' })
  old: string;

  @Column({ type: 'jsonb', default: () => "'{}'" })
  details: Record<string, unknown>;
}
