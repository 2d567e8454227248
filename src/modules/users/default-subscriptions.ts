import type { DataSource, EntityManager } from 'typeorm';
import { DEFAULT_SUBSCRIPTIONS } from './notification-kinds';

/**
 * Gives a user the default subscriptions (notification-kinds.ts), with Weblate's get-or-create semantics
 * (create_default_notifications, weblate-api.md §8.5): entries the user already has are kept as they are.
 * One statement; rows are inserted in list order, so ids follow it. The unique index on subscriptions
 * cannot catch duplicates here (project and component are NULL, and NULLs never collide), hence NOT EXISTS.
 */
export async function createDefaultSubscriptions(db: DataSource | EntityManager, userId: number): Promise<void> {
  const values: unknown[] = [userId];
  const rows = DEFAULT_SUBSCRIPTIONS.map((entry, index) => {
    values.push(index, entry.notification, entry.scope, entry.frequency);
    const base = index * 4;
    return `($${base + 2}::int, $${base + 3}::varchar, $${base + 4}::smallint, $${base + 5}::smallint)`;
  });
  await db.query(
    `INSERT INTO subscriptions (user_id, notification, scope, frequency)
     SELECT $1, d.notification, d.scope, d.frequency
       FROM (VALUES ${rows.join(', ')}) AS d(position, notification, scope, frequency)
      WHERE NOT EXISTS (
              SELECT 1 FROM subscriptions s
               WHERE s.user_id = $1 AND s.notification = d.notification AND s.scope = d.scope
                 AND s.project_id IS NULL AND s.component_id IS NULL)
      ORDER BY d.position`,
    values,
  );
}
