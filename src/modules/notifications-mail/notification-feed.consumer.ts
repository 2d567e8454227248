import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { JobQueue } from '../../jobs/job-queue';
import { ChangeFeed, FEED_HEAD_SQL, FeedFollower, type FeedChange } from '../changes/change-feed';
import { FREQ_INSTANT } from '../users/notification-kinds';
import { loadChangeDetails } from './change-details';
import { renderInstantMail, type MailSite } from './notification-mail.renderer';
import { NotificationMailSender } from './notification-mail.sender';
import { queueMails, type QueuedMail } from './notification-outbox';
import { findRecipients, watchContributedProjects, type Recipient } from './notification-recipients';
import { CONTRIBUTION_ACTIONS, MAX_QUEUED_MAILS_PER_USER, NOTIFIED_ACTIONS } from './notification-rules';

// Turns finished changes into notifications (Weblate's notify_changes, integration.md §4.4): follows the change
// feed under its own cursor and, in the transaction that moves the cursor, queues one instant mail per
// recipient and change and one digest item per recipient, change and digest frequency. A crash keeps both or
// neither, so no notification is lost or doubled; one process consumes at a time (ChangeFeed.consume).

export const NOTIFICATIONS_CURSOR = 'notifications-mail';
/** Changes per consume transaction. */
const BATCH = 100;
/** Changes waiting longer than this when a process starts are not mailed any more (skipStaleBacklog). */
export const STALE_BACKLOG_DAYS = 7;
const FED_ACTIONS = [...new Set([...NOTIFIED_ACTIONS, ...CONTRIBUTION_ACTIONS])];
const NOTIFIED = new Set(NOTIFIED_ACTIONS);

@Injectable()
export class NotificationFeedConsumer implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(NotificationFeedConsumer.name);
  private readonly site: MailSite | null;
  private readonly follower: FeedFollower;

  constructor(
    private readonly dataSource: DataSource,
    feed: ChangeFeed,
    private readonly jobs: JobQueue,
    private readonly sender: NotificationMailSender,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.site = config.email ? { siteUrl: config.siteUrl, siteTitle: config.siteTitle, subjectPrefix: config.email.subjectPrefix } : null;
    this.follower = feed.follow(NOTIFICATIONS_CURSOR, (changes, manager) => this.handle(changes, manager), {
      batch: BATCH,
      filter: { conditions: ['c.action = ANY($4::int[])'], params: [FED_ACTIONS] },
      // The next wake-up tries again; the API must not stay down because of notifications.
      onError: (error) => this.logger.error(`Queueing notifications failed: ${error.message}`),
    });
  }

  async onApplicationBootstrap(): Promise<void> {
    // Mail off: nothing is written, and the cursor is left alone (another process of the same database, say
    // an admin CLI started without the EMAIL_* settings, must not move the server's position).
    if (this.site === null) return;
    // The queue takes the sender jobs this consumer queues; the first drain creates the cursor at the head.
    await this.jobs.start();
    await this.skipStaleBacklog().catch((error: unknown) => this.logger.error(`Queueing notifications failed: ${(error as Error).message}`));
    await this.follower.start();
  }

  /**
   * When mail was off (or every process down) for longer than STALE_BACKLOG_DAYS, the changes of that time are
   * not mailed: the cursor moves to the head and a warning says so. A shorter interruption loses nothing. The
   * age is that of the first waiting change the consumer reads (the feed is in commit order, so the oldest).
   */
  private async skipStaleBacklog(): Promise<void> {
    const moved: Array<{ name: string }> = await this.dataSource.query(
      `WITH head AS (${FEED_HEAD_SQL}),
       moved AS (
         UPDATE change_feed_cursors cur SET xact = head.xact, change_id = head.id, updated = now()
           FROM head
          WHERE cur.name = $1
            AND (SELECT c.timestamp FROM changes c
                  WHERE (c.xact, c.id) > (cur.xact, cur.change_id) AND c.action = ANY ($3::int[])
                  ORDER BY c.xact, c.id LIMIT 1) < now() - $2 * interval '1 day'
         RETURNING cur.name)
       SELECT name FROM moved`,
      [NOTIFICATIONS_CURSOR, STALE_BACKLOG_DAYS, FED_ACTIONS],
    );
    if (moved.length > 0) this.logger.warn(`Notifications were not sent for more than ${STALE_BACKLOG_DAYS} days; the changes of that time are skipped`);
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.follower.close();
  }

  private async handle(changes: FeedChange[], manager: EntityManager): Promise<void> {
    const site = this.site!;
    await watchContributedProjects(manager, changes.map((change) => change.id), CONTRIBUTION_ACTIONS);
    const recipients = await findRecipients(manager, changes.filter((change) => NOTIFIED.has(change.action)).map((change) => change.id));
    if (recipients.length === 0) return;
    const instant = await this.withinQueueLimit(manager, recipients.filter((recipient) => recipient.frequency === FREQ_INSTANT));
    const details = await loadChangeDetails(manager, [...new Set(instant.map((recipient) => recipient.changeId))]);
    const mails: QueuedMail[] = [];
    for (const recipient of instant) {
      const change = details.get(recipient.changeId);
      if (!change) continue;
      mails.push({
        ...renderInstantMail(change, recipient.notification, recipient.username, site),
        userId: recipient.userId,
        changeId: recipient.changeId,
        onetimeSubscriptionId: recipient.onetimeSubscriptionId,
        notification: recipient.notification,
        frequency: recipient.frequency,
        recipient: recipient.email,
      });
    }
    const digest = recipients.filter((recipient) => recipient.frequency !== FREQ_INSTANT);
    if (digest.length > 0) {
      await manager.query(
        `INSERT INTO notification_digest_items (user_id, frequency, change_id, notification)
         SELECT * FROM unnest($1::int[], $2::smallint[], $3::bigint[], $4::text[])
             ON CONFLICT DO NOTHING`,
        [digest.map((r) => r.userId), digest.map((r) => r.frequency), digest.map((r) => r.changeId), digest.map((r) => r.notification)],
      );
    }
    if ((await queueMails(manager, mails)) > 0) await this.sender.wake(manager);
  }

  /** The instant recipients whose queue has room (MAX_QUEUED_MAILS_PER_USER); the others are logged and skipped. */
  private async withinQueueLimit(manager: EntityManager, instant: Recipient[]): Promise<Recipient[]> {
    if (instant.length === 0) return instant;
    const rows: Array<{ user_id: number; queued: number }> = await manager.query(
      'SELECT user_id, count(*)::int AS queued FROM notification_mails WHERE user_id = ANY($1::int[]) GROUP BY user_id',
      [[...new Set(instant.map((recipient) => recipient.userId))]],
    );
    const queued = new Map(rows.map((row) => [row.user_id, row.queued]));
    const discarded = new Map<number, number>();
    const kept = instant.filter((recipient) => {
      const count = queued.get(recipient.userId) ?? 0;
      if (count >= MAX_QUEUED_MAILS_PER_USER) {
        discarded.set(recipient.userId, (discarded.get(recipient.userId) ?? 0) + 1);
        return false;
      }
      queued.set(recipient.userId, count + 1);
      return true;
    });
    for (const [userId, count] of discarded) {
      this.logger.warn(`Discarding ${count} notification(s) for user ${userId}: ${MAX_QUEUED_MAILS_PER_USER} mails are already waiting`);
    }
    return kept;
  }
}
