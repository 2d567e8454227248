import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { GENERATOR } from '../../common/app-version';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { JobQueue } from '../../jobs/job-queue';
import { MAILS_PER_CONNECTION, SmtpMailer, type OutgoingMail, type SendOutcome } from '../../mail/smtp-mailer';
import { MAX_SEND_ATTEMPTS, retryDelaySeconds } from './notification-rules';

// Sends the outbox (notification-mail.entity.ts) on the job queue: a job is queued in the transaction that
// fills the outbox, and a cron job every five minutes picks up mails whose retry time has come (Weblate's
// send_mails task, integration.md §4.6: batches of 200 per connection, exponential backoff from 600 s capped
// at 3600 s on connection errors).

export const SEND_MAILS_JOB = 'notification-mails-send';
const SEND_MAILS_CRON = '*/5 * * * *';
/** How long a sender holds the mails it took; a sender that died lets them go after this. */
const CLAIM_MINUTES = 15;

interface ClaimedMail extends OutgoingMail {
  id: string;
  attempts: number;
  onetimeSubscriptionId: number | null;
}

@Injectable()
export class NotificationMailSender implements OnModuleInit {
  private readonly logger = new Logger(NotificationMailSender.name);
  private readonly mailer: SmtpMailer | null;

  constructor(
    private readonly dataSource: DataSource,
    private readonly jobs: JobQueue,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.mailer = config.email ? new SmtpMailer(config.email, GENERATOR) : null;
  }

  onModuleInit(): void {
    if (this.mailer === null) return;
    this.jobs.register(SEND_MAILS_JOB, () => this.sendDue(), { retryLimit: 0, expireInSeconds: CLAIM_MINUTES * 60 });
    this.jobs.schedule(SEND_MAILS_JOB, SEND_MAILS_CRON);
  }

  /** Queues a sender run; with `manager`, in that transaction (it runs once the mails it sends are committed). */
  async wake(manager?: EntityManager): Promise<void> {
    if (this.mailer === null) return;
    await this.jobs.send(SEND_MAILS_JOB, {}, manager ? { manager } : {});
  }

  /** Sends every mail that is due, batch by batch; resolves with the number sent. */
  async sendDue(): Promise<number> {
    if (this.mailer === null) return 0;
    let sent = 0;
    for (;;) {
      const batch = await this.claim();
      if (batch.length === 0) return sent;
      let connectionLost = false;
      await this.mailer.sendBatch(batch, async (index, outcome) => {
        if (outcome.status === 'sent') sent += 1;
        if (outcome.status === 'retry' && !connectionLost) {
          connectionLost = true;
          this.logger.warn(`Sending notification mails failed (${outcome.reason}); the rest of the batch is retried later`);
        }
        await this.settle(batch[index], outcome);
      });
      // After a failure the rest waits for its retry time; a short batch means nothing more is due.
      if (connectionLost || batch.length < MAILS_PER_CONNECTION) return sent;
    }
  }

  private async claim(): Promise<ClaimedMail[]> {
    // Wrapped in a SELECT: TypeORM answers a bare UPDATE … RETURNING with [rows, count].
    const rows: Array<Record<string, unknown>> = await this.dataSource.query(
      `WITH claimed AS (
         UPDATE notification_mails m SET locked_until = now() + interval '${CLAIM_MINUTES} minutes'
          WHERE m.id IN (SELECT id FROM notification_mails
                          WHERE next_attempt <= now() AND (locked_until IS NULL OR locked_until < now())
                          ORDER BY next_attempt, id LIMIT $1 FOR UPDATE SKIP LOCKED)
         RETURNING m.id, m.recipient, m.from_name, m.subject, m.html, m.text, m.headers, m.attempts, m.onetime_subscription_id)
       SELECT id::text AS id, recipient, from_name, subject, html, text, headers, attempts, onetime_subscription_id
         FROM claimed ORDER BY claimed.id`,
      [MAILS_PER_CONNECTION],
    );
    return rows.map((row) => ({
      id: row.id as string,
      to: row.recipient as string,
      fromName: row.from_name as string,
      subject: row.subject as string,
      html: row.html as string,
      text: row.text as string,
      headers: row.headers as Record<string, string>,
      attempts: Number(row.attempts),
      onetimeSubscriptionId: row.onetime_subscription_id as number | null,
    }));
  }

  private async settle(mail: ClaimedMail, outcome: SendOutcome): Promise<void> {
    if (outcome.status === 'sent') {
      await this.dataSource.transaction(async (manager) => {
        await manager.query('DELETE FROM notification_mails WHERE id = $1', [mail.id]);
        if (mail.onetimeSubscriptionId !== null) await manager.query('DELETE FROM subscriptions WHERE id = $1 AND onetime', [mail.onetimeSubscriptionId]);
      });
      return;
    }
    const attempts = mail.attempts + 1;
    if (outcome.status === 'refused' || attempts >= MAX_SEND_ATTEMPTS) {
      // The recipient's address stays out of the log; the mail id finds it while the row lived.
      this.logger.warn(`Dropping notification mail ${mail.id} after ${attempts} attempt(s): ${outcome.reason}`);
      await this.dataSource.query('DELETE FROM notification_mails WHERE id = $1', [mail.id]);
      return;
    }
    await this.dataSource.query(
      `UPDATE notification_mails SET attempts = $2, next_attempt = now() + $3 * interval '1 second', locked_until = NULL WHERE id = $1`,
      [mail.id, attempts, retryDelaySeconds(attempts)],
    );
  }
}
