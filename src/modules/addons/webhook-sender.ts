import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { performance } from 'node:perf_hooks';
import { DataSource, type EntityManager } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { JobQueue } from '../../jobs/job-queue';
import type { WebhookConfiguration } from './webhook-configuration';
import { postWebhook, WebhookTransportError, type WebhookAnswer } from './webhook-http';
import { webhookBody, webhookPayload, type WebhookChangeRow } from './webhook-payload';
import { retryDelayMs } from './webhook-retry';
import { decodeWebhookSecret, signWebhook } from './webhook-signature';

// Sends the deliveries webhook-dispatcher.ts queued (issue 14 item 2), from the job queue: a job of
// WEBHOOK_JOB takes every delivery that is due and sends it. Rules:
// * Order per add-on and component: only the oldest pending delivery of each (add-on, component) is ever
//   taken, so a delivery waits while an earlier one of its component is retrying.
// * At least once: a delivery is leased (not locked: no transaction stays open during the HTTP call, which
//   would also hold the change feed back) for longer than an attempt may take; a sender that dies leaves
//   the lease to run out, and the delivery is taken again. Receivers de-duplicate by `webhook-id`.
// * Wake-ups: the dispatcher queues a job in the transaction that writes deliveries; a run that leaves
//   retries behind queues one for the earliest (pg-boss `startAfter`, one waiting job per time); a cron job
//   every minute catches whatever else (leases of dead senders).

export const WEBHOOK_JOB = 'webhook-deliver';
/** The safety net (see above). */
const WEBHOOK_CRON = '* * * * *';
/** Deliveries sent at once by one run (to different components or add-ons). */
const CONCURRENCY = 4;
/** A run that has been sending this long hands over to a new job, so shutdown and other queues are not held up. */
const RUN_BUDGET_MS = 60_000;

interface ClaimedDelivery {
  id: string;
  addon_id: number;
  change_id: string;
  webhook_id: string;
  attempts: number;
}

interface AttemptResult {
  answer: WebhookAnswer | null;
  error: string;
  durationMs: number;
}

/** The oldest pending delivery of each add-on and component. */
const HEADS_SQL = `SELECT DISTINCT ON (addon_id, component_id) id, next_attempt_at, leased_until
                     FROM webhook_deliveries WHERE state = 'pending' ORDER BY addon_id, component_id, id`;

@Injectable()
export class WebhookSender implements OnModuleInit {
  private readonly logger = new Logger(WebhookSender.name);

  constructor(
    private readonly dataSource: DataSource,
    private readonly jobs: JobQueue,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    // A run failing (the database went away) is not retried by pg-boss: the deliveries stay pending and the
    // next wake-up or the cron takes them.
    this.jobs.register(WEBHOOK_JOB, () => this.run(), { retryLimit: 0, expireInSeconds: 15 * 60, oneWaitingPerKey: true });
    this.jobs.schedule(WEBHOOK_JOB, WEBHOOK_CRON);
  }

  /** Queues a run now; with `manager`, inside that transaction (it runs once the deliveries are committed). */
  async wake(manager?: EntityManager): Promise<void> {
    await this.jobs.sendUnlessWaiting(WEBHOOK_JOB, {}, { key: 'now', manager });
  }

  /** One job run: sends what is due, then queues a run for the earliest retry. */
  async run(): Promise<void> {
    const started = Date.now();
    for (;;) {
      const claimed = await this.claim();
      if (claimed.length === 0) break;
      await Promise.all(claimed.map((delivery) => this.deliver(delivery)));
      if (Date.now() - started > RUN_BUDGET_MS) return this.wake();
    }
    await this.scheduleNextRun();
  }

  /** Leases up to CONCURRENCY due deliveries, each the oldest pending one of its add-on and component. */
  private async claim(): Promise<ClaimedDelivery[]> {
    const leaseSeconds = this.config.webhooks.timeoutSeconds + 30;
    // Two senders may pick the same rows; the second UPDATE re-reads them after the first commits and skips
    // them (PostgreSQL re-checks the WHERE clause on the updated row).
    // The UPDATE sits in a WITH so the statement is a SELECT: TypeORM answers an UPDATE with [rows, count].
    return this.dataSource.query(
      `WITH due AS (
         SELECT h.id FROM (${HEADS_SQL}) h
          WHERE h.next_attempt_at <= now() AND (h.leased_until IS NULL OR h.leased_until < now())
          ORDER BY h.id LIMIT $1),
       claimed AS (
         UPDATE webhook_deliveries d
            SET leased_until = now() + $2 * interval '1 second', attempts = d.attempts + 1, last_attempt_at = now()
           FROM due
          WHERE d.id = due.id AND d.state = 'pending' AND (d.leased_until IS NULL OR d.leased_until < now())
         RETURNING d.id::text AS id, d.addon_id, d.change_id::text AS change_id, d.webhook_id, d.attempts)
       SELECT * FROM claimed`,
      [CONCURRENCY, leaseSeconds],
    );
  }

  private async deliver(delivery: ClaimedDelivery): Promise<void> {
    try {
      const [addon]: Array<{ configuration: WebhookConfiguration; disabled: boolean }> = await this.dataSource.query(
        'SELECT configuration, disabled_at IS NOT NULL AS disabled FROM addons WHERE id = $1',
        [delivery.addon_id],
      );
      if (!addon) return; // Uninstalled meanwhile: its deliveries went with it.
      if (addon.disabled) {
        await this.dataSource.query(`UPDATE webhook_deliveries SET state = 'skipped', leased_until = NULL WHERE id = $1`, [delivery.id]);
        return;
      }
      const result = await this.attempt(delivery, addon.configuration);
      await this.record(delivery, result);
    } catch (error) {
      // The lease runs out and the delivery is taken again.
      this.logger.error(`Webhook delivery ${delivery.id} failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  private async attempt(delivery: ClaimedDelivery, configuration: WebhookConfiguration): Promise<AttemptResult> {
    const [change]: WebhookChangeRow[] = await this.dataSource.query(
      `SELECT c.id::text AS id, c.action, c.timestamp::text AS timestamp, c.target, c.old, u.source, u.id_hash::text AS id_hash,
              us.username AS user, au.username AS author, p.slug AS project, co.slug AS component, t.language_code AS translation
         FROM changes c
         LEFT JOIN projects p ON p.id = c.project_id
         LEFT JOIN components co ON co.id = c.component_id
         LEFT JOIN translations t ON t.id = c.translation_id
         LEFT JOIN units u ON u.id = c.unit_id
         LEFT JOIN users us ON us.id = c.user_id
         LEFT JOIN users au ON au.id = c.author_id
        WHERE c.id = $1`,
      [delivery.change_id],
    );
    const body = webhookBody(webhookPayload(change));
    // Integer seconds, as the spec requires (Weblate sends a float; integration.md §7 point 3).
    const timestamp = Math.floor(Date.now() / 1000);
    const headers: Record<string, string> = { 'webhook-id': delivery.webhook_id, 'webhook-timestamp': String(timestamp) };
    const secret = configuration.secret ? decodeWebhookSecret(configuration.secret) : null;
    if (secret && 'key' in secret) headers['webhook-signature'] = signWebhook(secret.key, delivery.webhook_id, timestamp, body);
    const started = performance.now();
    try {
      const answer = await postWebhook(configuration.webhook_url, headers, body, {
        timeoutMs: this.config.webhooks.timeoutSeconds * 1000,
        policy: this.config.webhooks.hosts,
        lookup: this.config.webhooks.hostLookup,
      });
      const success = answer.status >= 200 && answer.status < 300;
      return { answer, error: success ? '' : `The receiver answered ${answer.status}.`, durationMs: Math.round(performance.now() - started) };
    } catch (error) {
      if (!(error instanceof WebhookTransportError)) throw error;
      return { answer: null, error: error.message, durationMs: Math.round(performance.now() - started) };
    }
  }

  private async record(delivery: ClaimedDelivery, { answer, error, durationMs }: AttemptResult): Promise<void> {
    const status = answer?.status ?? null;
    const common = [delivery.id, status, durationMs, error, answer?.excerpt ?? ''];
    const update = (state: string, extra = '', params: unknown[] = []): Promise<unknown> =>
      this.dataSource.query(
        `UPDATE webhook_deliveries SET state = '${state}', leased_until = NULL, status_code = $2, duration_ms = $3, error = $4, response = $5${extra}
          WHERE id = $1 AND state = 'pending'`,
        [...common, ...params],
      );
    if (status !== null && status >= 200 && status < 300) {
      await update('delivered');
      return;
    }
    if (status === 410) {
      // Standard Webhooks: 410 Gone means the endpoint is gone for good; stop sending to it until the add-on is saved again.
      await this.dataSource.transaction(async (manager) => {
        await manager.query(
          `UPDATE webhook_deliveries SET state = 'failed', leased_until = NULL, status_code = $2, duration_ms = $3, error = $4, response = $5 WHERE id = $1`,
          [...common.slice(0, 3), 'The receiver answered 410 Gone: delivery to this add-on is disabled.', common[4]],
        );
        await manager.query(`UPDATE addons SET disabled_at = now(), disabled_reason = $2 WHERE id = $1`, [
          delivery.addon_id,
          `The receiver answered 410 Gone to delivery ${delivery.webhook_id}.`,
        ]);
        await manager.query(`UPDATE webhook_deliveries SET state = 'skipped', leased_until = NULL WHERE addon_id = $1 AND state = 'pending'`, [delivery.addon_id]);
      });
      return;
    }
    const delay = retryDelayMs(delivery.attempts, this.config.webhooks.retryDelaysSeconds, answer?.retryAfter);
    if (delay === null) await update('failed');
    else await update('pending', `, next_attempt_at = now() + $6 * interval '1 millisecond'`, [delay]);
  }

  /** Queues a run for when the earliest waiting delivery becomes due (one waiting job per time). */
  private async scheduleNextRun(): Promise<void> {
    const [{ at }]: Array<{ at: string | null }> = await this.dataSource.query(
      `SELECT (extract(epoch FROM min(GREATEST(next_attempt_at, COALESCE(leased_until, next_attempt_at)))) * 1000)::bigint::text AS at
         FROM (${HEADS_SQL}) h`,
    );
    if (at === null) return;
    const when = new Date(Math.max(Number(at), Date.now()));
    await this.jobs.sendUnlessWaiting(WEBHOOK_JOB, {}, { key: `at:${Math.ceil(when.getTime() / 1000)}`, startAfter: when });
  }
}
