import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { Component } from '../components/component.entity';
import { Project } from '../projects/project.entity';
import { Translation } from '../translations/translation.entity';
import { Unit } from '../units/unit.entity';
import { User } from '../users/user.entity';

/**
 * One event of the history. Its references are ON DELETE SET NULL so history survives removal of what
 * it talks about, as Weblate's does.
 */
@Entity('changes')
@Index(['translationId', 'id'])
@Index(['componentId', 'id'])
@Index(['projectId', 'id'])
// A user's first change in a translation records 45 "New contributor": the check must not walk the
// translation's whole history (unit-translate.statement.ts).
@Index(['translationId', 'userId'])
export class Change {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'BY DEFAULT' })
  id: string;

  @Column({ type: 'smallint' })
  action: number;

  /** clock_timestamp(), not now(): several changes written in one transaction keep their order. */
  @Column({ type: 'timestamptz', default: () => 'clock_timestamp()' })
  timestamp: Date;

  @Column({ type: 'bigint', nullable: true })
  unitId: string | null;

  @ManyToOne(() => Unit, { onDelete: 'SET NULL', nullable: true, createForeignKeyConstraints: true })
  @JoinColumn()
  unit: Unit | null;

  @Column({ type: 'int', nullable: true })
  translationId: number | null;

  @ManyToOne(() => Translation, { onDelete: 'SET NULL', nullable: true, createForeignKeyConstraints: true })
  @JoinColumn()
  translation: Translation | null;

  @Column({ type: 'int', nullable: true })
  componentId: number | null;

  @ManyToOne(() => Component, { onDelete: 'SET NULL', nullable: true, createForeignKeyConstraints: true })
  @JoinColumn()
  component: Component | null;

  @Column({ type: 'int', nullable: true })
  projectId: number | null;

  @ManyToOne(() => Project, { onDelete: 'SET NULL', nullable: true, createForeignKeyConstraints: true })
  @JoinColumn()
  project: Project | null;

  @Column({ type: 'int', nullable: true })
  languageId: number | null;

  @Column({ type: 'int', nullable: true })
  userId: number | null;

  @ManyToOne(() => User, { onDelete: 'SET NULL', nullable: true, createForeignKeyConstraints: true })
  @JoinColumn()
  user: User | null;

  @Column({ type: 'int', nullable: true })
  authorId: number | null;

  @ManyToOne(() => User, { onDelete: 'SET NULL', nullable: true, createForeignKeyConstraints: true })
  @JoinColumn()
  author: User | null;

  @Column({ type: 'text', default: '' })
  target: string;

  @Column({ type: 'text', default: '' })
  old: string;

  @Column({ type: 'jsonb', default: () => "'{}'" })
  details: Record<string, unknown>;
}
