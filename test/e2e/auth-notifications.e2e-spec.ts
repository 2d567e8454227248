import { Client } from 'pg';
import { NotificationListener } from '../../src/database/notification-listener';
import { createTestDatabase, type TestDatabase } from '../support/test-database';

// The invalidation path of the token cache on PostgreSQL (src/common/auth/auth-cache.service.ts): the
// triggers of migration AuthNotify notify glossa_auth on every table behind a token's answer, and the
// listener says when it is listening and when it lost its connection (the cache is off in between).
const realPostgres = Boolean(process.env.GLOSSA_TEST_SERVER_URL);

/** Events in arrival order; `next(kind)` waits for the next event of that kind. */
class Events {
  private readonly seen: string[] = [];
  private readonly waiters: Array<{ kind: string; resolve: () => void }> = [];

  push(kind: string): void {
    const index = this.waiters.findIndex((waiter) => waiter.kind === kind);
    if (index >= 0) this.waiters.splice(index, 1)[0].resolve();
    else this.seen.push(kind);
  }

  next(kind: string): Promise<void> {
    const index = this.seen.indexOf(kind);
    if (index >= 0) {
      this.seen.splice(index, 1);
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiters.push({ kind, resolve }));
  }

  clear(): void {
    this.seen.length = 0;
  }
}

(realPostgres ? describe : describe.skip)('glossa_auth notifications', () => {
  let database: TestDatabase;
  let db: Client;
  let listener: NotificationListener;
  const events = new Events();

  beforeAll(async () => {
    database = await createTestDatabase();
    db = new Client({ connectionString: database.url });
    await db.connect();
    listener = new NotificationListener(database.url, 'glossa_auth', {
      notified: () => events.push('notified'),
      listening: () => events.push('listening'),
      lost: () => events.push('lost'),
    }, { reconnectMs: 50 });
    await listener.start();
    await events.next('listening');
  });

  afterAll(async () => {
    await listener?.close();
    await db?.end();
    await database?.drop();
  });

  it('is told of every change to tokens, users, memberships, teams and roles', async () => {
    const [{ id: userId }] = (await db.query(`INSERT INTO users (username) VALUES ('n1') RETURNING id`)).rows as Array<{ id: number }>;
    await events.next('notified');
    const statements = [
      `INSERT INTO api_tokens (user_id, key_hash) VALUES (${userId}, repeat('a', 64))`,
      `UPDATE users SET is_active = false WHERE id = ${userId}`,
      `INSERT INTO groups (name) VALUES ('n-team')`,
      `INSERT INTO group_members (group_id, user_id) SELECT id, ${userId} FROM groups WHERE name = 'n-team'`,
      `INSERT INTO roles (name, permissions) VALUES ('n-role', '{project.add}')`,
      `INSERT INTO group_roles (group_id, role_id) SELECT g.id, r.id FROM groups g, roles r WHERE g.name = 'n-team' AND r.name = 'n-role'`,
      `UPDATE roles SET permissions = '{}' WHERE name = 'n-role'`,
      `DELETE FROM group_members WHERE user_id = ${userId}`,
      `DELETE FROM api_tokens WHERE user_id = ${userId}`,
    ];
    for (const statement of statements) {
      await db.query(statement);
      await events.next('notified');
    }
  });

  it('reports a lost connection, then listening again, and hears changes after it', async () => {
    events.clear();
    await db.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'glossa-auth-listener' AND datname = current_database()`);
    await events.next('lost');
    await events.next('listening');
    await db.query(`UPDATE users SET full_name = 'x' WHERE username = 'n1'`);
    await events.next('notified');
  });
});
