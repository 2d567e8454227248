import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { Change } from '../changes/change.entity';
import { Addon } from './addon.entity';

/** Where a delivery stands: waiting (first try or retry), done, given up, or dropped because its add-on was disabled. */
export type WebhookDeliveryState = 'pending' | 'delivered' | 'failed' | 'skipped';

/**
 * One change to be sent by one webhook add-on (webhook-dispatcher.ts writes it in the transaction that moves
 * the change-feed cursor; webhook-sender.ts sends it). The row is also the delivery log entry
 * (`/api/addons/<id>/deliveries/`): what the last attempt got. Deliveries of one add-on and component go out
 * in `id` order, which is the change feed's order.
 */
@Entity('webhook_deliveries')
@Index(['addonId', 'changeId'], { unique: true })
// The sender looks for the oldest pending delivery of each add-on and component.
@Index(['addonId', 'componentId', 'id'], { where: `"state" = 'pending'` })
@Index(['state', 'nextAttemptAt'])
export class WebhookDelivery {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'BY DEFAULT' })
  id: string;

  @Column({ type: 'int' })
  addonId: number;

  @ManyToOne(() => Addon, { onDelete: 'CASCADE' })
  @JoinColumn()
  addon: Addon;

  @Column({ type: 'bigint' })
  changeId: string;

  @ManyToOne(() => Change, { onDelete: 'CASCADE' })
  @JoinColumn()
  change: Change;

  /** The change's component (null for project-level changes): the unit of ordering. */
  @Column({ type: 'int', nullable: true })
  componentId: number | null;

  /** Standard Webhooks `webhook-id`: 32 hex digits, the same for every attempt (the receiver's idempotency key). */
  @Column({ type: 'char', length: 32 })
  webhookId: string;

  @Column({ type: 'varchar', length: 16, default: 'pending' })
  state: WebhookDeliveryState;

  /** Attempts started so far. */
  @Column({ type: 'int', default: 0 })
  attempts: number;

  /** When the next attempt may start (pending deliveries only). */
  @Column({ type: 'timestamptz', default: () => 'now()' })
  nextAttemptAt: string;

  /** An attempt in progress holds the delivery until then; a sender that died leaves it to be taken again. */
  @Column({ type: 'timestamptz', nullable: true })
  leasedUntil: string | null;

  @Column({ type: 'int', nullable: true })
  statusCode: number | null;

  @Column({ type: 'int', nullable: true })
  durationMs: number | null;

  /** Why the last attempt failed ('' when it did not). */
  @Column({ type: 'text', default: '' })
  error: string;

  /** The first bytes of the last response body, for the log. */
  @Column({ type: 'text', default: '' })
  response: string;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  created: string;

  @Column({ type: 'timestamptz', nullable: true })
  lastAttemptAt: string | null;
}
