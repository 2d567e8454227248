import { DataSource } from 'typeorm';
import { hashToken } from '../../common/auth/token-hash';
import type { AppConfig } from '../../config/app-config';
import { createDefaultSubscriptions } from './default-subscriptions';

/**
 * Makes ADMIN_TOKEN work (issue "creating content through the API"): the user ADMIN_USERNAME exists, is an
 * active superuser, and holds that token. Safe to run on every start and from several processes at once.
 * When the user is created here it gets a new user's default subscriptions (weblate-api.md §8.5); an
 * existing user's subscriptions are left as they are.
 * Returns the user's id, or null when no ADMIN_TOKEN is configured.
 */
export async function bootstrapAdmin(dataSource: DataSource, config: AppConfig): Promise<number | null> {
  if (!config.adminToken) return null;
  return dataSource.transaction(async (manager) => {
    // xmax = 0 only for a row this statement inserted (an upserted row carries the updating transaction).
    const rows: Array<{ id: number; inserted: boolean }> = await manager.query(
      `INSERT INTO users (username, full_name, email, is_superuser, is_active)
       VALUES ($1, $1, $2, true, true)
       ON CONFLICT (username) DO UPDATE SET is_superuser = true, is_active = true
       RETURNING id, (xmax = 0) AS inserted`,
      [config.adminUsername, config.adminEmail],
    );
    const userId = rows[0].id;
    if (rows[0].inserted) await createDefaultSubscriptions(manager, userId);
    await manager.query(
      `INSERT INTO api_tokens (user_id, key_hash) VALUES ($1, $2)
       ON CONFLICT (key_hash) DO UPDATE SET user_id = EXCLUDED.user_id`,
      [userId, hashToken(config.adminToken!)],
    );
    return userId;
  });
}
