import type { DataSource } from 'typeorm';
import { generateUserToken, hashToken } from '../common/auth/token-hash';
import { createDefaultSubscriptions } from '../modules/users/default-subscriptions';

export class CliError extends Error {}

const USERNAME = /^[\w.@+-]{1,150}$/;

/**
 * `glossa createadmin`: makes `username` an active superuser (creating it, with a new user's default
 * subscriptions, weblate-api.md §8.5) and gives it a new API token, which is returned (only its hash is stored).
 */
export async function createAdmin(dataSource: DataSource, username: string, email: string): Promise<{ created: boolean; token: string }> {
  if (!USERNAME.test(username)) throw new CliError(`Invalid username "${username}": letters, digits and @.+-_ only, at most 150.`);
  return dataSource.transaction(async (manager) => {
    const rows: Array<{ id: number; inserted: boolean }> = await manager.query(
      `INSERT INTO users (username, full_name, email, is_superuser, is_active)
       VALUES ($1, $1, $2, true, true)
       ON CONFLICT (username) DO UPDATE SET is_superuser = true, is_active = true
       RETURNING id, (xmax = 0) AS inserted`,
      [username, email],
    );
    if (rows[0].inserted) await createDefaultSubscriptions(manager, rows[0].id);
    const token = generateUserToken();
    await manager.query('INSERT INTO api_tokens (user_id, key_hash) VALUES ($1, $2)', [rows[0].id, hashToken(token)]);
    return { created: rows[0].inserted, token };
  });
}

/** `glossa createtoken`: a new API token for an existing, active user. */
export async function createToken(dataSource: DataSource, username: string): Promise<string> {
  const rows: Array<{ id: number; is_active: boolean }> = await dataSource.query('SELECT id, is_active FROM users WHERE username = $1', [username]);
  if (rows.length === 0) throw new CliError(`No user "${username}".`);
  if (!rows[0].is_active) throw new CliError(`User "${username}" is inactive.`);
  const token = generateUserToken();
  await dataSource.query('INSERT INTO api_tokens (user_id, key_hash) VALUES ($1, $2)', [rows[0].id, hashToken(token)]);
  return token;
}
