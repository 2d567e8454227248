import { Client } from 'pg';
import type { ServerProcess } from './server-process';

/**
 * Watches the glossa_auth notifications of one database (migration AuthNotify: tokens, users, teams, roles),
 * for tests with several server processes. PostgreSQL hands a commit's notification to each listening
 * session on its own schedule, so hearing it here does not mean a server heard it: `change` also waits until
 * each server's /metrics reports the change's transaction (glossa_auth_last_change_heard, migration
 * AuthNotifyTransaction). Every wait is on an event (a notification, a server's answer), none on a timer.
 */
export class AuthChangeWatcher {
  /** The transaction ids heard since the current change began; undefined between changes. */
  private heard: number[] | undefined;

  private constructor(private readonly client: Client) {
    client.on('notification', (message) => this.heard?.push(Number(message.payload)));
  }

  static async start(url: string): Promise<AuthChangeWatcher> {
    const client = new Client({ connectionString: url });
    await client.connect();
    await client.query('LISTEN glossa_auth');
    return new AuthChangeWatcher(client);
  }

  /** A statement on the watcher's own connection (an operator's change made in the database directly). */
  async query(sql: string): Promise<void> {
    await this.client.query(sql);
  }

  /**
   * Runs `makeChange` (any number of transactions changing tokens, users, teams or roles), then waits until
   * every server in `heardBy` reports the last of them; answers what `makeChange` answered.
   */
  async change<T>(makeChange: () => Promise<T>, heardBy: ServerProcess[]): Promise<T> {
    // PostgreSQL hands a listening session what was notified before it answers a query, so after each round
    // trip every notification committed before it has been heard: none from before the change is counted,
    // and all of the change's are.
    await this.client.query('SELECT 1');
    const heard: number[] = [];
    this.heard = heard;
    let result: T;
    try {
      result = await makeChange();
      await this.client.query('SELECT 1');
    } finally {
      this.heard = undefined;
    }
    if (heard.length === 0) throw new Error('The change sent no glossa_auth notification');
    const transaction = Math.max(...heard);
    for (const server of heardBy) {
      let reported = await lastChangeHeard(server);
      while (reported < transaction) reported = await lastChangeHeard(server);
    }
    return result;
  }

  async close(): Promise<void> {
    await this.client.end();
  }
}

/** The transaction id of the latest auth change a server reports having heard. */
async function lastChangeHeard(server: ServerProcess): Promise<number> {
  const text = await (await server.fetch('/metrics')).text();
  const line = /^glossa_auth_last_change_heard (\d+)$/m.exec(text);
  if (line === null) throw new Error(`The server on ${server.port} reports no glossa_auth_last_change_heard`);
  return Number(line[1]);
}
