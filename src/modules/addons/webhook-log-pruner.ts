import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { JobQueue } from '../../jobs/job-queue';

// Keeps the delivery log (`/api/addons/<id>/deliveries/`) bounded: every change of a component with a
// webhook adds a row, so without pruning the table grows with the history forever. Finished deliveries whose
// last attempt (or creation, if never attempted: skipped) is older than WEBHOOK_LOG_RETENTION_DAYS are
// removed once a day. Pending ones are never touched: they are the queue, and the oldest pending delivery
// of a component is what keeps the others in order (webhook-sender.ts).

export const WEBHOOK_LOG_PRUNE_JOB = 'webhook-log-prune';
/** Daily, at a quiet minute (UTC). */
const PRUNE_CRON = '17 3 * * *';
/** Rows deleted per statement, so one run never holds a long transaction (it would delay the change feed). */
const BATCH = 5_000;

@Injectable()
export class WebhookLogPruner implements OnModuleInit {
  constructor(
    private readonly dataSource: DataSource,
    private readonly jobs: JobQueue,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    if (this.config.webhooks.logRetentionDays === 0) return;
    this.jobs.register(WEBHOOK_LOG_PRUNE_JOB, async () => {
      await this.prune();
    }, { retryLimit: 0, expireInSeconds: 30 * 60, oneWaitingPerKey: true });
    this.jobs.schedule(WEBHOOK_LOG_PRUNE_JOB, PRUNE_CRON);
  }

  /** Removes the finished deliveries past the retention; answers how many. */
  async prune(): Promise<number> {
    const days = this.config.webhooks.logRetentionDays;
    if (days === 0) return 0;
    let removed = 0;
    for (;;) {
      const rows: Array<{ id: string }> = await this.dataSource.query(
        `WITH old AS (
           SELECT id FROM webhook_deliveries
            WHERE state <> 'pending' AND coalesce(last_attempt_at, created) < now() - $1 * interval '1 day'
            LIMIT $2)
         DELETE FROM webhook_deliveries d USING old WHERE d.id = old.id RETURNING d.id::text AS id`,
        [days, BATCH],
      );
      removed += rows.length;
      if (rows.length < BATCH) return removed;
    }
  }
}
