import { ApiProperty } from '@nestjs/swagger';
import type { LinkBuilder } from '../../common/links/link-builder';
import { pathOf } from '../../common/links/link-builder';
import { formatTimestamp } from '../../common/serialization/timestamp';
import type { WebhookDeliveryState } from './webhook-delivery.entity';

/**
 * One delivery of a webhook add-on (Glossa extension; Weblate 2026.x keeps an add-on activity log behind
 * `logs_url`): which change, its `webhook-id`, where it stands and what its last attempt got.
 */
export class WebhookDeliveryResponse {
  @ApiProperty() id: number;
  @ApiProperty({ description: 'The change sent (/api/changes/<id>/)' }) change: string;
  @ApiProperty({ description: 'The `webhook-id` header: 32 hex digits, the same on every attempt' }) webhook_id: string;
  @ApiProperty({ enum: ['pending', 'delivered', 'failed', 'skipped'], description: 'pending: waiting for its first attempt or a retry; skipped: the add-on was disabled by a 410 answer' })
  state: WebhookDeliveryState;
  @ApiProperty({ description: 'Attempts made so far' }) attempts: number;
  @ApiProperty({ type: Number, nullable: true, description: 'HTTP status of the last attempt; null when it got no answer' }) status_code: number | null;
  @ApiProperty({ type: Number, nullable: true, description: 'Duration of the last attempt in milliseconds' }) duration_ms: number | null;
  @ApiProperty({ description: 'Why the last attempt failed; empty when it did not' }) error: string;
  @ApiProperty({ description: 'The first bytes of the last response body' }) response: string;
  @ApiProperty({ description: 'ISO 8601 UTC with microseconds: when the change was queued for delivery' }) created: string;
  @ApiProperty({ type: String, nullable: true, description: 'When the last attempt started' }) last_attempt: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'When the next attempt may start (pending deliveries only)' }) next_attempt: string | null;
}

export interface WebhookDeliveryRow {
  id: string;
  change_id: string;
  webhook_id: string;
  state: WebhookDeliveryState;
  attempts: number;
  status_code: number | null;
  duration_ms: number | null;
  error: string;
  response: string;
  created: string;
  last_attempt_at: string | null;
  next_attempt_at: string;
}

export function toWebhookDeliveryResponse(row: WebhookDeliveryRow, links: LinkBuilder): WebhookDeliveryResponse {
  return {
    id: Number(row.id),
    change: links.api(pathOf('api', 'changes', row.change_id)),
    webhook_id: row.webhook_id,
    state: row.state,
    attempts: row.attempts,
    status_code: row.status_code,
    duration_ms: row.duration_ms,
    error: row.error,
    response: row.response,
    created: formatTimestamp(row.created)!,
    last_attempt: formatTimestamp(row.last_attempt_at),
    next_attempt: row.state === 'pending' ? formatTimestamp(row.next_attempt_at) : null,
  };
}
