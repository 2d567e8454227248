import { DataSource } from 'typeorm';
import { hashToken } from '../../common/auth/token-hash';
import type { AppConfig } from '../../config/app-config';

/**
 * Makes ADMIN_TOKEN work (issue "creating content through the API"): the user ADMIN_USERNAME exists, is an
 * active superuser, and holds that token. Safe to run on every start and from several processes at once.
 * Returns the user's id, or null when no ADMIN_TOKEN is configured.
 */
export async function bootstrapAdmin(dataSource: DataSource, config: AppConfig): Promise<number | null> {
  if (!config.adminToken) return null;
  return dataSource.transaction(async (manager) => {
    const rows: Array<{ id: number }> = await manager.query(
      `INSERT INTO users (username, full_name, email, is_superuser, is_active)
       VALUES ($1, $1, $2, true, true)
       ON CONFLICT (username) DO UPDATE SET is_superuser = true, is_active = true
       RETURNING id`,
      [config.adminUsername, config.adminEmail],
    );
    const userId = rows[0].id;
    await manager.query(
      `INSERT INTO api_tokens (user_id, key_hash) VALUES ($1, $2)
       ON CONFLICT (key_hash) DO UPDATE SET user_id = EXCLUDED.user_id`,
      [userId, hashToken(config.adminToken!)],
    );
    return userId;
  });
}
