import { EventEmitter } from 'node:events';
import type { Notification } from 'pg';

/**
 * NOTIFY messages that arrive on the application pool's own connections, by channel.
 *
 * On PostgreSQL these connections never LISTEN, so nothing arrives here (processes listen on a connection of
 * their own, src/database/notification-listener.ts). The embedded PGlite has one backend session behind every
 * socket connection: a LISTEN issued on any of them holds for all, and the notifications of a commit come back
 * on the connection that committed (verified with pglite-socket 0.2), i.e. on this pool, in the reply to
 * COMMIT, before the writing query resolves. The pool hands every connection it opens to
 * hearPoolNotifications (pg-pool's onConnect, data-source-options.ts).
 */
export const poolNotifications = new EventEmitter();
// Each running app (tests run several in one process) adds its listener.
poolNotifications.setMaxListeners(0);

export function hearPoolNotifications(client: { on(event: 'notification', listener: (message: Notification) => void): unknown }): void {
  client.on('notification', (message) => poolNotifications.emit(message.channel, message.payload ?? ''));
}
