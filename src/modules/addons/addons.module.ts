import { Module } from '@nestjs/common';
import { ChangesModule } from '../changes/changes.module';
import { AddonsController } from './addons.controller';
import { AddonsService } from './addons.service';
import { ScopeAddonsController } from './scope-addons.controller';
import { WebhookDispatcher } from './webhook-dispatcher';
import { WebhookLogPruner } from './webhook-log-pruner';
import { WebhookSender } from './webhook-sender';

/**
 * Weblate's add-ons API (integration.md §3) with the one add-on Glossa runs, `weblate.webhook.webhook`:
 * changes go out as signed Standard Webhooks (§2.2), queued from the change feed and sent from the job queue.
 */
@Module({
  imports: [ChangesModule],
  controllers: [AddonsController, ScopeAddonsController],
  providers: [AddonsService, WebhookDispatcher, WebhookSender, WebhookLogPruner],
})
export class AddonsModule {}
