import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { JobQueue } from '../../jobs/job-queue';
import { ChangeFeed, FeedFollower, type FeedChange } from '../changes/change-feed';
import { WEBHOOK_ADDON } from './webhook-configuration';
import { WebhookSender } from './webhook-sender';

// Turns changes into webhook deliveries (issue 14 item 2). It follows the change feed with its own cursor
// and writes a delivery row for every webhook add-on a change concerns (the change's component, or its
// project for a project-wide add-on) whose `events` list the change's action, in the transaction that moves
// the cursor, together with the job that sends them: after a crash either the cursor moved and the
// deliveries and the job exist, or none of them (nothing lost between a change and its delivery). Feed
// order is kept: deliveries get increasing ids in the order of the changes. A project-wide add-on leaves out
// changes of restricted components: those are visible only to teams that select the component by hand, which
// a project admin need not be (a component add-on, installed by someone who manages it, sends them).

export const WEBHOOK_FEED_CURSOR = 'webhooks';
const BATCH = 500;

@Injectable()
export class WebhookDispatcher implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(WebhookDispatcher.name);
  private readonly follower: FeedFollower;

  constructor(
    feed: ChangeFeed,
    private readonly jobs: JobQueue,
    private readonly sender: WebhookSender,
  ) {
    this.follower = feed.follow(WEBHOOK_FEED_CURSOR, (changes, manager) => this.queue(changes, manager), {
      batch: BATCH,
      onError: (error) => this.logger.error(`Webhook dispatch failed: ${error.message}`),
    });
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.jobs.start();
    // The first drain creates the cursor at the head, so changes made once the server is up are followed.
    await this.follower.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.follower.close();
  }

  private async queue(changes: FeedChange[], manager: EntityManager): Promise<void> {
    const [{ count }]: Array<{ count: number }> = await manager.query(
      `WITH queued AS (
         INSERT INTO webhook_deliveries (addon_id, change_id, component_id, webhook_id)
         SELECT a.id, c.id, c.component_id, md5('glossa-webhook:' || a.id || ':' || c.id)
           FROM unnest($1::bigint[]) WITH ORDINALITY AS f(id, ord)
           JOIN changes c ON c.id = f.id
           JOIN addons a ON a.name = $2 AND a.disabled_at IS NULL
                        AND (a.component_id = c.component_id OR (a.component_id IS NULL AND a.project_id = c.project_id))
                        AND (a.configuration -> 'events') ? c.action::text
          LEFT JOIN components rc ON rc.id = c.component_id
          WHERE a.component_id IS NOT NULL OR rc.id IS NULL OR NOT rc.restricted
          ORDER BY f.ord, a.id
         ON CONFLICT (addon_id, change_id) DO NOTHING
         RETURNING 1)
       SELECT count(*)::int AS count FROM queued`,
      [changes.map((change) => change.id), WEBHOOK_ADDON],
    );
    if (count > 0) await this.sender.wake(manager);
  }
}
