import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { Client } from 'pg';
import { DataSource, type EntityManager } from 'typeorm';
import { runAsBackgroundWork } from '../../database/statement-timeout';

// The history as a feed (issue 14: webhooks, e-mail notifications and the change stream all follow it).
//
// Change ids come from a sequence when the row is inserted, not when its transaction commits: a reader that
// remembers "the last id I saw" can pass id 9 while its transaction is still open and id 10 is already
// committed, and then never see 9. Each change therefore records the transaction that wrote it (`xact`,
// pg_current_xact_id()), and the feed returns only changes of transactions older than every transaction still
// running in this database (glossa_feed_horizon(), migration ChangeFeedHorizon: the oldest running
// transaction of the current snapshot that is not provably another database's): those are all finished, and
// no later transaction can get an id below that horizon. Read in (xact, id) order, a position never has to
// move backwards, so a consumer that stores its position misses nothing and sees nothing twice. The price
// is latency: a long write transaction in this database holds every later change back until it ends.
// Transactions of other databases on the same server do not (they cannot write our changes).
//
// Wake-ups: a statement trigger on `changes` sends NOTIFY glossa_changes (migration ChangeFeed), delivered at
// commit, to a LISTEN connection of this process (PostgreSQL: every replica hears every other's changes).
// A poll runs as well: changes behind a still-open older transaction become readable when it ends, which
// sends no notification when it wrote no change; the embedded database serves one process and is polled.

/** A place in the feed: after the change `id` of transaction `xact` (both bigint, as decimal strings). */
export interface FeedPosition {
  xact: string;
  id: string;
}

/** The feed's beginning: before every change. */
export const FEED_START: FeedPosition = Object.freeze({ xact: '0', id: '0' });

/** A change as the feed hands it out: enough to route and filter it; load the API shape by id. */
export interface FeedChange {
  id: string;
  xact: string;
  action: number;
  projectId: number | null;
  componentId: number | null;
  translationId: number | null;
  languageId: number | null;
  unitId: string | null;
  userId: number | null;
}

/** Extra conditions on `changes c`; their placeholders start at $4 ($1–$3 are the position and the limit). */
export interface FeedFilter {
  conditions: string[];
  params: unknown[];
}

const CHANNEL = 'glossa_changes';
/** How often subscribers are woken without a notification (see above). */
const POLL_MS = { postgres: 2_000, embedded: 500 } as const;
/** A lost LISTEN connection is opened again after this long. */
const RECONNECT_MS = 1_000;

/** Encodes a position as one opaque token (for cursors and SSE event ids). */
export function encodeFeedPosition(position: FeedPosition): string {
  return `${position.xact}.${position.id}`;
}

/** The position of a token from encodeFeedPosition, or null when it is not one. */
export function decodeFeedPosition(token: string): FeedPosition | null {
  const match = /^(\d{1,19})\.(\d{1,19})$/.exec(token);
  if (!match) return null;
  const [xact, id] = [BigInt(match[1]), BigInt(match[2])];
  const max = 2n ** 63n - 1n;
  if (xact > max || id > max) return null;
  return { xact: xact.toString(), id: id.toString() };
}

/** What a follower does with each batch of changes, inside the transaction that moves its cursor. */
export type FeedHandler = (changes: FeedChange[], manager: EntityManager) => Promise<void>;

export interface FollowOptions {
  batch: number;
  filter?: FeedFilter;
  /** Told about a failed run; the next wake-up tries again from the same position. */
  onError: (error: Error) => void;
}

/**
 * A consumer that keeps up with the feed under a named cursor (webhook dispatch, e-mail notifications): it
 * consumes what is readable when started and after every wake-up, one run at a time (wake-ups during a run
 * make it go round once more), as background work (JOB_STATEMENT_TIMEOUT_MS, not the API's limit).
 */
export class FeedFollower {
  private unsubscribe: (() => void) | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private closed = false;

  constructor(
    private readonly feed: ChangeFeed,
    private readonly name: string,
    private readonly handle: FeedHandler,
    private readonly options: FollowOptions,
  ) {}

  /** Consumes what is readable now (the first call creates the cursor at the head); resolves with the count. */
  drain(): Promise<number> {
    return runAsBackgroundWork(async () => {
      let handled = 0;
      while (!this.closed) {
        const count = await this.feed.consume(this.name, this.options.batch, this.handle, this.options.filter);
        handled += count;
        if (count < this.options.batch) break;
      }
      return handled;
    });
  }

  /** Drains once, then follows the wake-ups; a failed first drain is reported and left to the next wake-up. */
  async start(): Promise<void> {
    await this.drain().catch((error: unknown) => this.options.onError(error as Error));
    this.unsubscribe = await this.feed.subscribe(() => this.wake());
  }

  /** Stops following and waits for a run in progress. */
  async close(): Promise<void> {
    this.closed = true;
    this.unsubscribe?.();
    await this.running;
  }

  private wake(): void {
    if (this.closed) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = (async () => {
      do {
        this.again = false;
        await this.drain().catch((error: unknown) => this.options.onError(error as Error));
      } while (this.again && !this.closed);
    })().finally(() => (this.running = undefined));
  }
}

/** The SQL of the feed's head: the last change of the transactions older than every running one. */
export const FEED_HEAD_SQL = `SELECT xact, id FROM changes
  WHERE xact < (SELECT glossa_feed_horizon())
  ORDER BY xact DESC, id DESC LIMIT 1`;

@Injectable()
export class ChangeFeed implements OnApplicationShutdown {
  private readonly logger = new Logger(ChangeFeed.name);
  private readonly listeners = new Set<() => void>();
  private listenClient: Client | undefined;
  private connecting: Promise<void> | undefined;
  private pollTimer: NodeJS.Timeout | undefined;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private closed = false;
  private mode: Promise<'postgres' | 'embedded'> | undefined;

  constructor(private readonly dataSource: DataSource) {}

  /**
   * Up to `limit` finished changes after `after`, in feed order, optionally filtered. The last one's position
   * is where the next read starts; an empty answer means nothing more is readable yet.
   */
  async read(
    after: FeedPosition,
    limit: number,
    filter: FeedFilter = { conditions: [], params: [] },
    runner: Pick<EntityManager, 'query'> = this.dataSource,
  ): Promise<FeedChange[]> {
    const extra = filter.conditions.map((condition) => ` AND (${condition})`).join('');
    const rows: Array<Record<string, string | number | null>> = await runner.query(
      `SELECT c.id::text AS id, c.xact::text AS xact, c.action, c.project_id, c.component_id, c.translation_id,
              c.language_id, c.unit_id::text AS unit_id, c.user_id
         FROM changes c
        WHERE (c.xact, c.id) > ($1::bigint, $2::bigint)
          AND c.xact < (SELECT glossa_feed_horizon())${extra}
        ORDER BY c.xact, c.id
        LIMIT $3`,
      [after.xact, after.id, limit, ...filter.params],
    );
    return rows.map((row) => ({
      id: row.id as string,
      xact: row.xact as string,
      action: Number(row.action),
      projectId: row.project_id as number | null,
      componentId: row.component_id as number | null,
      translationId: row.translation_id as number | null,
      languageId: row.language_id as number | null,
      unitId: row.unit_id as string | null,
      userId: row.user_id as number | null,
    }));
  }

  /** A follower of the feed under the cursor `name` (see FeedFollower); call start() to begin. */
  follow(name: string, handle: FeedHandler, options: FollowOptions): FeedFollower {
    return new FeedFollower(this, name, handle, options);
  }

  /**
   * One step of the named consumer: in one transaction, takes its cursor (created at the current head the
   * first time: a new consumer starts with the changes that finish after it, not with the whole history),
   * reads up to `limit` changes after it, lets `handle` write what they mean with the same transaction's
   * manager, and moves the cursor past them. A crash keeps both or neither. Another process holding the
   * cursor makes this one return 0 at once (SKIP LOCKED): one process consumes at a time. Resolves with the
   * number of changes handled; loop while it equals `limit`.
   */
  async consume(
    name: string,
    limit: number,
    handle: FeedHandler,
    filter?: FeedFilter,
  ): Promise<number> {
    return this.dataSource.transaction(async (manager) => {
      await manager.query(
        `INSERT INTO change_feed_cursors (name, xact, change_id)
         SELECT $1, COALESCE(head.xact, 0), COALESCE(head.id, 0)
           FROM (SELECT NULL) AS one
           LEFT JOIN (${FEED_HEAD_SQL}) AS head ON true
         ON CONFLICT (name) DO NOTHING`,
        [name],
      );
      const cursors: Array<{ xact: string; id: string }> = await manager.query(
        'SELECT xact::text AS xact, change_id::text AS id FROM change_feed_cursors WHERE name = $1 FOR UPDATE SKIP LOCKED',
        [name],
      );
      if (cursors.length === 0) return 0;
      const changes = await this.read(cursors[0], limit, filter, manager);
      if (changes.length === 0) return 0;
      await handle(changes, manager);
      const last = changes[changes.length - 1];
      await manager.query('UPDATE change_feed_cursors SET xact = $2, change_id = $3, updated = now() WHERE name = $1', [name, last.xact, last.id]);
      return changes.length;
    });
  }

  /** The position just after change `id`, or null when there is no such change. */
  async positionOf(id: string): Promise<FeedPosition | null> {
    if (!/^\d{1,19}$/.test(id)) return null;
    const rows: Array<{ xact: string; id: string }> = await this.dataSource.query(
      'SELECT xact::text AS xact, id::text AS id FROM changes WHERE id = $1::bigint',
      [id],
    );
    return rows[0] ?? null;
  }

  /** The end of what is readable now: reading from here returns only changes finished later. */
  async head(): Promise<FeedPosition> {
    // Cast after ordering: as text, id 9 would sort after 10.
    const rows: Array<{ xact: string; id: string }> = await this.dataSource.query(`SELECT xact::text AS xact, id::text AS id FROM (${FEED_HEAD_SQL}) AS head`);
    return rows[0] ?? FEED_START;
  }

  /**
   * Calls `listener` whenever changes may have become readable (a notification, or the poll). Resolves once
   * the wake-ups are in place, so a read made after it misses no notification. Answers the unsubscribe function.
   */
  async subscribe(listener: () => void): Promise<() => void> {
    this.listeners.add(listener);
    const url = await this.listenUrl();
    this.pollTimer ??= setInterval(() => this.wake(), url ? POLL_MS.postgres : POLL_MS.embedded).unref();
    if (url && !this.listenClient) await this.listen(url).catch((error: unknown) => this.scheduleReconnect(url, error));
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0) this.stopWaking();
    };
  }

  async onApplicationShutdown(): Promise<void> {
    this.closed = true;
    this.listeners.clear();
    await this.stopWaking();
  }

  private wake(): void {
    for (const listener of [...this.listeners]) {
      try {
        listener();
      } catch (error) {
        this.logger.error(error);
      }
    }
  }

  private listen(url: string): Promise<void> {
    this.connecting ??= (async () => {
      const client = new Client({ connectionString: url, application_name: 'glossa-change-feed' });
      client.on('notification', () => this.wake());
      client.on('error', (error) => this.lost(url, client, error));
      client.on('end', () => this.lost(url, client));
      await client.connect();
      await client.query(`LISTEN ${CHANNEL}`);
      if (this.closed || this.listeners.size === 0) {
        await client.end().catch(() => undefined);
        return;
      }
      this.listenClient = client;
      // Changes may have finished while no connection listened.
      this.wake();
    })().finally(() => (this.connecting = undefined));
    return this.connecting;
  }

  private lost(url: string, client: Client, error?: Error): void {
    if (this.listenClient !== client) return;
    this.listenClient = undefined;
    void client.end().catch(() => undefined);
    if (this.closed || this.listeners.size === 0) return;
    this.scheduleReconnect(url, error);
  }

  private scheduleReconnect(url: string, error: unknown): void {
    if (this.closed || this.reconnectTimer) return;
    if (error) this.logger.warn(`The change feed's LISTEN connection failed (${(error as Error).message}); polling until it is back`);
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      if (this.closed || this.listeners.size === 0 || this.listenClient) return;
      void this.listen(url).catch((next: unknown) => this.scheduleReconnect(url, next));
    }, RECONNECT_MS).unref();
  }

  private async stopWaking(): Promise<void> {
    if (this.pollTimer) clearInterval(this.pollTimer);
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.pollTimer = undefined;
    this.reconnectTimer = undefined;
    const client = this.listenClient;
    this.listenClient = undefined;
    await this.connecting?.catch(() => undefined);
    await client?.end().catch(() => undefined);
  }

  /** PostgreSQL's URL, or undefined on the embedded database (one process, one session: it is polled). */
  private async listenUrl(): Promise<string | undefined> {
    this.mode ??= this.dataSource
      .query('SELECT version() AS version')
      .then(([{ version }]: Array<{ version: string }>) => (/PGlite|emscripten/i.test(version) ? 'embedded' : 'postgres'))
      .catch((error: unknown) => {
        this.mode = undefined;
        throw error;
      });
    return (await this.mode) === 'postgres' ? (this.dataSource.options as { url?: string }).url : undefined;
  }
}
