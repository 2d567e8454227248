import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { buildDataSourceOptions } from '../../src/database/data-source-options';
import { ChangeFeed, decodeFeedPosition, encodeFeedPosition, FEED_START, type FeedPosition } from '../../src/modules/changes/change-feed';
import { eventually } from '../support/server-process';
import { createTestDatabase, type TestDatabase } from '../support/test-database';
import { PATIENCE_MS } from '../support/wait';

// The change feed that webhooks, e-mail and the change stream follow (issue 14): it hands out each change
// once, in an order that never passes a change whose transaction is still open.
const realPostgres = Boolean(process.env.GLOSSA_TEST_SERVER_URL);

describe('ChangeFeed', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let feed: ChangeFeed;

  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = new DataSource(buildDataSourceOptions(database.url, realPostgres ? 3 : 1));
    await dataSource.initialize();
    feed = new ChangeFeed(dataSource);
  });

  afterAll(async () => {
    await feed?.onApplicationShutdown();
    await dataSource?.destroy();
    await database?.drop();
  });

  const insert = async (target: string, runner: Pick<DataSource, 'query'> = dataSource): Promise<string> => {
    const rows: Array<{ id: string }> = await runner.query(`INSERT INTO changes (action, target) VALUES (5, $1) RETURNING id::text AS id`, [target]);
    return rows[0].id;
  };

  /** Everything readable after `from`, in small pages, as change ids. */
  const readAll = async (from: FeedPosition): Promise<{ ids: string[]; end: FeedPosition }> => {
    const ids: string[] = [];
    let position = from;
    for (;;) {
      const page = await feed.read(position, 2);
      if (page.length === 0) return { ids, end: position };
      for (const change of page) ids.push(change.id);
      const last = page[page.length - 1];
      position = { xact: last.xact, id: last.id };
    }
  };

  /** readAll once `count` changes are readable (a transaction of this database may still be ending). */
  const readCount = async (from: FeedPosition, count: number): Promise<{ ids: string[]; end: FeedPosition }> =>
    eventually(async () => {
      const all = await readAll(from);
      return all.ids.length >= count ? all : undefined;
    }, PATIENCE_MS, `${count} changes readable`);

  it('reads finished changes once each, in order, from any position', async () => {
    const start = await feed.head();
    const ids = [await insert('a'), await insert('b'), await insert('c')];
    const first = await readCount(start, 3);
    expect(first.ids).toEqual(ids);
    expect((await readAll(first.end)).ids).toEqual([]);
    expect(await feed.head()).toEqual(first.end);
    // Resuming after the first change gives the rest.
    const afterFirst = await feed.positionOf(ids[0]);
    expect((await readCount(afterFirst!, 2)).ids).toEqual(ids.slice(1));
    expect(await feed.positionOf('999999999')).toBeNull();
    expect(await feed.positionOf('x')).toBeNull();
    const [change] = await feed.read(start, 1);
    expect(Object.keys(change).sort()).toEqual(['action', 'componentId', 'id', 'languageId', 'projectId', 'translationId', 'unitId', 'userId', 'xact']);
  });

  it('puts the head after the highest id of the newest transaction, compared as numbers', async () => {
    // One transaction whose ids have different lengths: as text, 999999 would sort after 1000000.
    await dataSource.transaction(async (manager) => {
      await manager.query(`INSERT INTO changes (id, action, target) VALUES (999999, 5, 'shorter id'), (1000000, 5, 'longer id')`);
    });
    expect(await feed.head()).toEqual(await feed.positionOf('1000000'));
  });

  it('filters with extra conditions', async () => {
    const start = await feed.head();
    await insert('skip');
    const kept = await insert('keep');
    await readCount(start, 2);
    const page = await feed.read(start, 10, { conditions: ['c.target = $4'], params: ['keep'] });
    expect(page.map((change) => change.id)).toEqual([kept]);
  });

  it('encodes positions as opaque tokens and refuses anything else', () => {
    expect(decodeFeedPosition(encodeFeedPosition({ xact: '12', id: '34' }))).toEqual({ xact: '12', id: '34' });
    expect(decodeFeedPosition(encodeFeedPosition(FEED_START))).toEqual(FEED_START);
    for (const bad of ['', '1', '1.', '.1', '1.2.3', '-1.2', '1.x', '99999999999999999999.1', '9223372036854775808.1']) {
      expect({ bad, decoded: decodeFeedPosition(bad) }).toEqual({ bad, decoded: null });
    }
  });

  (realPostgres ? it : it.skip)('holds back changes behind a transaction that is still open, then hands out both in order', async () => {
    const start = await feed.head();
    const runner = dataSource.createQueryRunner();
    await runner.connect();
    await runner.startTransaction();
    try {
      const early = await insert('early, committed last', runner);
      const late = await insert('late, committed first');
      expect(BigInt(early)).toBeLessThan(BigInt(late));
      // `late` is committed, but a reader that took it now would never see `early` after its own position.
      expect((await readAll(start)).ids).toEqual([]);
      await runner.commitTransaction();
      expect((await readCount(start, 2)).ids).toEqual([early, late]);
    } finally {
      if (runner.isTransactionActive) await runner.rollbackTransaction();
      await runner.release();
    }
  });

  (realPostgres ? it : it.skip)('is not held back by a transaction open in another database of the server', async () => {
    const other = await createTestDatabase();
    const client = new Client({ connectionString: other.url });
    await client.connect();
    try {
      // A write transaction (it has an xid) left open elsewhere: another service, test run or psql session.
      await client.query('BEGIN');
      await client.query('SELECT pg_current_xact_id()');
      const start = await feed.head();
      const id = await insert('committed while another database has an open transaction');
      expect((await readAll(start)).ids).toEqual([id]);
      expect(await feed.head()).toEqual(expect.objectContaining({ id }));
    } finally {
      await client.query('ROLLBACK').catch(() => undefined);
      await client.end();
      await other.drop();
    }
  });

  it('never hands out a rolled-back change', async () => {
    const start = await feed.head();
    const runner = dataSource.createQueryRunner();
    await runner.connect();
    await runner.startTransaction();
    await insert('rolled back', runner);
    await runner.rollbackTransaction();
    await runner.release();
    const kept = await insert('kept');
    expect((await readCount(start, 1)).ids).toEqual([kept]);
  });

  it('wakes subscribers when a change is committed', async () => {
    let woken!: () => void;
    const wake = new Promise<void>((resolve) => (woken = resolve));
    const start = await feed.head();
    const unsubscribe = await feed.subscribe(() => woken());
    const id = await insert('wake');
    await wake;
    expect((await readCount(start, 1)).ids).toEqual([id]);
    unsubscribe();
  });

  describe('consume', () => {
    /** Runs the consumer until it has nothing left; answers the ids it handled, in order. */
    const drain = async (name: string, fail?: (ids: string[]) => boolean): Promise<string[]> => {
      const handled: string[] = [];
      for (;;) {
        const count = await feed.consume(name, 2, async (changes, manager) => {
          const ids = changes.map((change) => change.id);
          // What the consumer writes goes into the same transaction as its cursor.
          await manager.query(`INSERT INTO changes (action, target) SELECT 5, 'handled ' || id FROM unnest($1::text[]) AS id`, [ids]);
          if (fail?.(ids)) throw new Error('consumer failed');
          handled.push(...ids);
        }, { conditions: [`c.target NOT LIKE 'handled %'`], params: [] });
        if (count < 2) return handled;
      }
    };

    /** Drains until `count` changes were handled in all (see readCount on the horizon). */
    const drainCount = async (name: string, count: number): Promise<string[]> => {
      const handled: string[] = [];
      return eventually(async () => {
        handled.push(...(await drain(name)));
        return handled.length >= count ? handled : undefined;
      }, PATIENCE_MS, `${count} changes consumed`);
    };

    it('starts at the head when first used, then hands each later change out once', async () => {
      const before = await feed.head();
      await insert('before the consumer');
      await readCount(before, 1);
      expect(await drain('first-use')).toEqual([]);
      const ids = [await insert('1'), await insert('2'), await insert('3')];
      expect(await drainCount('first-use', 3)).toEqual(ids);
      expect(await drain('first-use')).toEqual([]);
    });

    it('keeps the cursor where it was when the handler fails, and rolls back what it wrote', async () => {
      await drain('failing');
      const start = await feed.head();
      const ids = [await insert('x'), await insert('y'), await insert('z')];
      await readCount(start, 3);
      const countHandled = async (): Promise<number> =>
        Number(((await dataSource.query(`SELECT count(*)::text AS count FROM changes WHERE target LIKE 'handled %'`)) as Array<{ count: string }>)[0].count);
      const handledBefore = await countHandled();
      await expect(drain('failing', (batch) => batch.includes(ids[2]))).rejects.toThrow('consumer failed');
      // The first batch (x, y) was handled and committed; the failed one (z) left nothing behind.
      expect((await countHandled()) - handledBefore).toBe(2);
      expect(await drainCount('failing', 1)).toEqual([ids[2]]);
    });

    (realPostgres ? it : it.skip)('lets one process consume at a time', async () => {
      await drain('exclusive');
      const start = await feed.head();
      await insert('contended');
      await readCount(start, 1);
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      let entered!: () => void;
      const inside = new Promise<void>((resolve) => (entered = resolve));
      const first = feed.consume('exclusive', 10, async () => {
        entered();
        await held;
      });
      await inside;
      // The cursor is taken: a second consumer of the same name skips instead of handling the change twice.
      expect(await feed.consume('exclusive', 10, async () => undefined)).toBe(0);
      release();
      expect(await first).toBe(1);
    });
  });
});
