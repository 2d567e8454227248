import type { EntityManager } from 'typeorm';
import type { RenderedMail } from './notification-mail.renderer';

/** A mail to put in the outbox (notification-mail.entity.ts). */
export interface QueuedMail extends RenderedMail {
  userId: number;
  /** The change of an instant mail; null for a digest. */
  changeId: string | null;
  onetimeSubscriptionId: number | null;
  notification: string;
  frequency: number;
  recipient: string;
}

/**
 * Inserts `mails` with one statement in the caller's transaction. An instant mail for a (user, change) pair
 * already queued is skipped (the unique index), so handling a change twice can never mail it twice.
 */
export async function queueMails(manager: Pick<EntityManager, 'query'>, mails: readonly QueuedMail[]): Promise<number> {
  if (mails.length === 0) return 0;
  const rows: unknown[] = await manager.query(
    `INSERT INTO notification_mails (user_id, change_id, onetime_subscription_id, notification, frequency, recipient, from_name,
                                     subject, html, text, headers)
     SELECT m.user_id, m.change_id, m.onetime_subscription_id, m.notification, m.frequency, m.recipient, m.from_name,
            m.subject, m.html, m.text, m.headers::jsonb
       FROM unnest($1::int[], $2::bigint[], $3::int[], $4::text[], $5::smallint[], $6::text[], $7::text[], $8::text[],
                   $9::text[], $10::text[], $11::text[])
            WITH ORDINALITY AS m(user_id, change_id, onetime_subscription_id, notification, frequency, recipient, from_name,
                                 subject, html, text, headers, ord)
      ORDER BY m.ord
         ON CONFLICT DO NOTHING
     RETURNING id`,
    [
      mails.map((mail) => mail.userId),
      mails.map((mail) => mail.changeId),
      mails.map((mail) => mail.onetimeSubscriptionId),
      mails.map((mail) => mail.notification),
      mails.map((mail) => mail.frequency),
      mails.map((mail) => mail.recipient),
      mails.map((mail) => mail.fromName),
      mails.map((mail) => mail.subject),
      mails.map((mail) => mail.html),
      mails.map((mail) => mail.text),
      mails.map((mail) => JSON.stringify(mail.headers)),
    ],
  );
  return rows.length;
}
