import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';
import { Change } from '../changes/change.entity';
import { Project } from '../projects/project.entity';
import { User } from '../users/user.entity';

/**
 * A change waiting for a user's daily, weekly or monthly digest, written by the change-feed consumer with the
 * subscription rules of the moment (integration.md §4.3). The digest run takes every item created before its
 * window's end and deletes them with the mail it queues, so an item is never listed twice nor dropped because
 * the consumer ran late.
 */
@Entity('notification_digest_items')
@Index(['userId', 'frequency', 'changeId'], { unique: true })
@Index(['frequency', 'created'])
export class NotificationDigestItem {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'BY DEFAULT' })
  id: string;

  @Column()
  userId: number;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn()
  user: User;

  @Column({ type: 'smallint' })
  frequency: number;

  @Column({ type: 'bigint' })
  changeId: string;

  @ManyToOne(() => Change, { onDelete: 'CASCADE' })
  @JoinColumn()
  change: Change;

  @Column({ type: 'varchar', length: 100 })
  notification: string;

  @CreateDateColumn({ type: 'timestamptz' })
  created: Date;
}

/** A digest already queued for a user, frequency and window: a second run of the same window skips the user. */
@Entity('notification_digests_sent')
export class NotificationDigestSent {
  @PrimaryColumn()
  userId: number;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn()
  user: User;

  @PrimaryColumn({ type: 'smallint' })
  frequency: number;

  @PrimaryColumn({ type: 'timestamptz' })
  windowStart: Date;

  @Column({ type: 'timestamptz' })
  windowEnd: Date;

  @CreateDateColumn({ type: 'timestamptz' })
  sent: Date;
}

/**
 * Projects a user watches (Weblate's profile `watched`), the Watched scope (10) of subscriptions. Glossa has no
 * profile page, so the list grows the way Weblate's auto_watch option (on by default) grows it: a user who
 * contributes to a project (notification-rules.ts CONTRIBUTION_ACTIONS) starts watching it.
 */
@Entity('watched_projects')
// Primary key (project_id, user_id): recipients are looked up by the change's project.
@Index(['userId'])
export class WatchedProject {
  @PrimaryColumn()
  projectId: number;

  @ManyToOne(() => Project, { onDelete: 'CASCADE' })
  @JoinColumn()
  project: Project;

  @PrimaryColumn()
  userId: number;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn()
  user: User;
}
