import { EventEmitter } from 'node:events';
import type { ClientBase } from 'pg';

/** Sent by the triggers of migration AuthNotify when tokens, users, teams, memberships or roles change. */
export const AUTH_CHANNEL = 'glossa_auth';
/**
 * Sent by JobQueue with a job it queued (payload: the queue's name), delivered at commit: the workers of the
 * queue start on it at once instead of at their next poll (src/jobs/job-queue.ts).
 */
export const JOBS_CHANNEL = 'glossa_jobs';

/**
 * NOTIFY messages that arrive on the application pool's own connections, by channel. Every connection the
 * pool opens LISTENs on the auth channel (pg-pool's onConnect, data-source-options.ts), because a session
 * that committed a notifying change receives its own notification in the reply to COMMIT, before the writing
 * query resolves: the process that revokes a token has forgotten it before it answers the revocation,
 * whatever the delivery to its separate LISTEN connection (src/database/notification-listener.ts), which is
 * what other processes rely on.
 *
 * On the embedded PGlite this is the only delivery: its one backend session serves every socket connection,
 * and a commit's notifications come back on the connection that committed (verified with pglite-socket 0.2),
 * which is always one of this process's pool.
 *
 * The jobs channel rides on the same connections: a job queued in a transaction wakes this process's worker
 * when the COMMIT's reply arrives, and on PostgreSQL the other processes' pool connections hear it too (a
 * worker woken twice fetches once more, which is all a wake-up does).
 */
export const poolNotifications = new EventEmitter();
// Each running app (tests run several in one process) adds its listener.
poolNotifications.setMaxListeners(0);

export async function listenOnPoolConnection(client: ClientBase): Promise<void> {
  client.on('notification', (message) => poolNotifications.emit(message.channel, message.payload ?? ''));
  // One round trip for both (simple query protocol: several statements, no parameters).
  await client.query(`LISTEN ${AUTH_CHANNEL}; LISTEN ${JOBS_CHANNEL}`);
}
