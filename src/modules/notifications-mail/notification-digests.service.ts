import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { JobQueue } from '../../jobs/job-queue';
import { loadChangeDetails } from './change-details';
import { renderDigestMail, type DigestEntry, type MailSite } from './notification-mail.renderer';
import { NotificationMailSender } from './notification-mail.sender';
import { queueMails } from './notification-outbox';
import { userSeesChangeSql } from './notification-recipients';
import { loadSummaries, type SummaryRow } from './notification-summaries';
import { DIGEST_LIMIT, DIGEST_SCHEDULES, digestWindow, type DigestWindow } from './notification-rules';

// Daily, weekly and monthly digests (Weblate's notify_digest, integration.md §4.5) as pg-boss cron jobs: one
// mail per user and frequency listing the newest changes (at most 100, the rest counted) and the summary kinds
// (notification-summaries.ts: strings with suggestions, unfinished strings, per translation), queued in the outbox
// in the same transaction that records the window as sent for the user and removes the items it lists. A job
// run twice for one window (a retry, a restart, two processes) finds the window recorded and queues nothing.

export const DIGEST_JOB_PREFIX = 'notification-digest-';
/** How long sent windows are remembered: longer than any window and any plausible late retry. */
const SENT_WINDOWS_KEPT_DAYS = 100;

@Injectable()
export class NotificationDigests implements OnModuleInit {
  private readonly logger = new Logger(NotificationDigests.name);
  private readonly site: MailSite | null;

  constructor(
    private readonly dataSource: DataSource,
    private readonly jobs: JobQueue,
    private readonly sender: NotificationMailSender,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.site = config.email ? { siteUrl: config.siteUrl, siteTitle: config.siteTitle, subjectPrefix: config.email.subjectPrefix } : null;
  }

  onModuleInit(): void {
    if (this.site === null) return;
    for (const { frequency, name, cron } of DIGEST_SCHEDULES) {
      const job = `${DIGEST_JOB_PREFIX}${name}`;
      this.jobs.register(job, () => this.sendDigests(frequency, digestWindow(frequency, new Date())), { retryLimit: 3, retryDelaySeconds: 300, expireInSeconds: 3600 });
      this.jobs.schedule(job, cron);
    }
  }

  /**
   * Queues the digests of `frequency` for `window`: every user with items created before the window's end who
   * has not had this window yet. Resolves with the number of digests queued.
   */
  async sendDigests(frequency: number, window: DigestWindow): Promise<number> {
    if (this.site === null) return 0;
    const withItems: Array<{ user_id: number }> = await this.dataSource.query(
      'SELECT DISTINCT user_id FROM notification_digest_items WHERE frequency = $1 AND created < $2',
      [frequency, window.end],
    );
    const summaries = await loadSummaries(this.dataSource, frequency);
    const users = [...new Set([...withItems.map((row) => row.user_id), ...summaries.keys()])].sort((a, b) => a - b);
    let queued = 0;
    let failure: unknown;
    for (const userId of users) {
      try {
        if (await this.digestFor(userId, frequency, window, summaries.get(userId) ?? [])) queued += 1;
      } catch (error) {
        // One user's failure must not hold back the others' digests; failing the job afterwards makes pg-boss
        // retry it, and the retry skips every user whose window is recorded.
        this.logger.error(`The digest of user ${userId} failed: ${(error as Error).message}`);
        failure ??= error;
      }
    }
    await this.dataSource.query(`DELETE FROM notification_digests_sent WHERE window_end < now() - interval '${SENT_WINDOWS_KEPT_DAYS} days'`);
    if (queued > 0) await this.sender.wake();
    if (failure !== undefined) throw failure;
    return queued;
  }

  private async digestFor(userId: number, frequency: number, window: DigestWindow, summaries: readonly SummaryRow[]): Promise<boolean> {
    const site = this.site!;
    return this.dataSource.transaction(async (manager) => {
      const recorded: unknown[] = await manager.query(
        `INSERT INTO notification_digests_sent (user_id, frequency, window_start, window_end) VALUES ($1, $2, $3, $4)
             ON CONFLICT DO NOTHING RETURNING user_id`,
        [userId, frequency, window.start, window.end],
      );
      if (recorded.length === 0) return false;
      const [user]: Array<{ username: string; email: string; is_active: boolean; is_bot: boolean }> = await manager.query(
        'SELECT username, email, is_active, is_bot FROM users WHERE id = $1',
        [userId],
      );
      // Visibility is checked again: it may have changed since the change happened.
      const items: Array<{ change_id: string; notification: string; total: string }> = await manager.query(
        `SELECT i.change_id::text AS change_id, i.notification, count(*) OVER ()::text AS total
           FROM notification_digest_items i
           JOIN changes ch ON ch.id = i.change_id
           JOIN users u ON u.id = i.user_id
          WHERE i.user_id = $1 AND i.frequency = $2 AND i.created < $3 AND ${userSeesChangeSql('u', 'ch')}
          ORDER BY ch.timestamp DESC, ch.id DESC
          LIMIT $4`,
        [userId, frequency, window.end, DIGEST_LIMIT],
      );
      await manager.query('DELETE FROM notification_digest_items WHERE user_id = $1 AND frequency = $2 AND created < $3', [userId, frequency, window.end]);
      if (!user || !user.is_active || user.is_bot || user.email === '' || (items.length === 0 && summaries.length === 0)) return false;
      const details = await loadChangeDetails(manager, items.map((item) => item.change_id));
      const entries: DigestEntry[] = items.flatMap((item) => {
        const change = details.get(item.change_id);
        return change ? [{ notification: item.notification, change }] : [];
      });
      const omitted = items.length > 0 ? Number(items[0].total) - items.length : 0;
      const mail = renderDigestMail(entries, omitted, summaries, frequency, user.username, site);
      await queueMails(manager, [
        { ...mail, userId, changeId: null, onetimeSubscriptionId: null, notification: mail.headers['X-Weblate-Notification'].slice(0, 100), frequency, recipient: user.email },
      ]);
      return true;
    });
  }
}
