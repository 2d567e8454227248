import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { User } from '../users/user.entity';

/**
 * The outbox: one rendered notification mail waiting to be sent. Instant mails are written in the same
 * transaction that moves the notifications' change-feed cursor, digests in the one that records the sent
 * window, so a crash neither loses nor doubles them; the sender deletes a row once the SMTP server accepted
 * it (at least once: a crash between acceptance and the delete sends it again).
 */
@Entity('notification_mails')
// One instant mail per recipient and change (NULLs, digests, never collide).
@Index(['userId', 'changeId'], { unique: true })
@Index(['nextAttempt', 'id'])
export class NotificationMail {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'BY DEFAULT' })
  id: string;

  @Column()
  userId: number;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn()
  user: User;

  /** The change an instant mail reports; null for digests. Not a foreign key: the mail outlives the row. */
  @Column({ type: 'bigint', nullable: true })
  changeId: string | null;

  /** A onetime subscription behind an instant mail, deleted once the mail went out (integration.md §4.1). */
  @Column({ type: 'int', nullable: true })
  onetimeSubscriptionId: number | null;

  @Column({ type: 'varchar', length: 100 })
  notification: string;

  @Column({ type: 'smallint' })
  frequency: number;

  @Column({ type: 'varchar', length: 254 })
  recipient: string;

  /** The display name of From (the acting user's, or the site title); the address is DEFAULT_FROM_EMAIL. */
  @Column({ type: 'varchar', length: 200 })
  fromName: string;

  @Column({ type: 'text' })
  subject: string;

  @Column({ type: 'text' })
  html: string;

  @Column({ type: 'text' })
  text: string;

  /** Headers besides From/To/Subject: X-Weblate-*, Message-ID, In-Reply-To/References (integration.md §4.4). */
  @Column({ type: 'jsonb', default: () => "'{}'" })
  headers: Record<string, string>;

  /** Failed tries so far. */
  @Column({ type: 'int', default: 0 })
  attempts: number;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  nextAttempt: Date;

  /** A sender holds the row until then; a sender that died releases it by letting it pass. */
  @Column({ type: 'timestamptz', nullable: true })
  lockedUntil: Date | null;

  @CreateDateColumn({ type: 'timestamptz' })
  created: Date;
}
