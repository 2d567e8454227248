import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { Component } from '../components/component.entity';
import { Project } from '../projects/project.entity';
import { User } from './user.entity';

/** A user's notification subscription (weblate-api.md §6.8, codes in §8.3). */
@Entity('subscriptions')
@Index(['userId', 'notification', 'scope', 'projectId', 'componentId'], { unique: true })
// E-mail notifications look subscriptions up by kind and scope for every batch of changes (src/modules/notifications-mail).
@Index(['notification', 'scope'])
export class Subscription {
  @PrimaryGeneratedColumn()
  id: number;

  @Column()
  userId: number;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn()
  user: User;

  @Column({ type: 'varchar', length: 100 })
  notification: string;

  @Column({ type: 'smallint' })
  scope: number;

  @Column({ type: 'smallint' })
  frequency: number;

  @Column({ type: 'int', nullable: true })
  projectId: number | null;

  @ManyToOne(() => Project, { onDelete: 'CASCADE', nullable: true })
  @JoinColumn()
  project: Project | null;

  @Column({ type: 'int', nullable: true })
  componentId: number | null;

  @ManyToOne(() => Component, { onDelete: 'CASCADE', nullable: true })
  @JoinColumn()
  component: Component | null;

  /**
   * Weblate's `onetime` (integration.md §4.1): deleted after its first instant mail. Not part of the API's
   * subscription object (Weblate's serializer has no such field); nothing in Glossa's API creates one yet.
   */
  @Column({ default: false })
  onetime: boolean;
}
