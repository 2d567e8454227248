import type { DataSource, EntityManager } from 'typeorm';

/**
 * The teams each user is a member of, ids ascending, in one query for a whole page of users: the `groups`
 * field of Weblate's FullUserSerializer (the user's team URLs, weblate-api.md §6.7). Built-in teams count
 * like any other: every user is in "Users", Weblate's `anonymous` account in "Guests".
 */
export async function teamIdsByUser(db: DataSource | EntityManager, userIds: readonly number[]): Promise<Map<number, number[]>> {
  const byUser = new Map<number, number[]>(userIds.map((id) => [id, []]));
  if (userIds.length === 0) return byUser;
  const rows: Array<{ user_id: number; group_id: number }> = await db.query(
    `SELECT user_id, group_id FROM group_members WHERE user_id = ANY($1::int[]) ORDER BY group_id`,
    [[...userIds]],
  );
  for (const row of rows) byUser.get(Number(row.user_id))?.push(Number(row.group_id));
  return byUser;
}
