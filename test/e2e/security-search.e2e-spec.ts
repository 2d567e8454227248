import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { Client } from 'pg';
import type { Response } from 'supertest';
import { DataSource } from 'typeorm';
import { isBackgroundWork } from '../../src/database/statement-timeout';
import { JobQueue } from '../../src/jobs/job-queue';
import { ProjectAccess } from '../../src/modules/projects/project.entity';
import { captureStatements, planOf, type PlanNode } from '../support/captured-statements';
import { createTranslatedComponent } from '../support/content-factories';
import { expectApiHeaders } from '../support/contract';
import { createTestApp, TestApp } from '../support/test-app';

// Issue 10 item 5, "Search cost for anonymous callers": an anonymous `GET /api/units/?q=…` read units once per
// visible component (2.0 s against 0.2 s for a superuser), 12 of them at once made a trivial request wait 10 s
// and /readyz answer 503, and a search over a 64 MB string ran 41 s. Now every API statement has a statement
// timeout (a clean 503 when it fires), the visibility filter is computed once per statement, and the
// readiness checks have a connection of their own. Slow statements are made deterministic by a lock the test
// holds on `units`: a search waits for it as long as the test wants, whatever the machine's speed.

const TIMED_OUT = { detail: 'The request took too long.' };
// The embedded PGlite enforces no statement timeout, and its one session makes every connection wait for the
// lock holder's transaction: the timeout and pool tests need a PostgreSQL server.
const realPostgres = Boolean(process.env.GLOSSA_TEST_SERVER_URL);
const SEARCH = `/api/units/?q=${encodeURIComponent('Sample')}`;

/** A connection of the test's own that holds an ACCESS EXCLUSIVE lock on units until released. */
async function lockUnits(url: string): Promise<{ pid: number; release(): Promise<void> }> {
  const client = new Client({ connectionString: url });
  await client.connect();
  await client.query('BEGIN');
  await client.query('LOCK TABLE units IN ACCESS EXCLUSIVE MODE');
  const [{ pid }] = (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows;
  return {
    pid,
    release: async () => {
      await client.query('ROLLBACK');
      await client.end();
    },
  };
}

/** Polls the server's activity view until `count` other backends wait for the lock on units (an event, not a delay). */
async function waitForBlockedSearches(url: string, holderPid: number, count: number): Promise<void> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    for (;;) {
      const { rows } = await client.query<{ blocked: number }>(
        `SELECT count(*)::int AS blocked FROM pg_stat_activity
          WHERE datname = current_database() AND pid <> $1 AND wait_event_type = 'Lock' AND query LIKE '%ILIKE%'`,
        [holderPid],
      );
      if (rows[0].blocked >= count) return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  } finally {
    await client.end();
  }
}

(realPostgres ? describe : describe.skip)('statement timeout of API requests', () => {
  let app: TestApp;
  let ds: DataSource;
  const requestsInBackground: boolean[] = [];

  beforeAll(async () => {
    // One connection: the request after a timed-out one necessarily runs on the connection that timed out.
    app = await createTestApp({ DATABASE_POOL_SIZE: '1', STATEMENT_TIMEOUT_MS: '500', JOB_STATEMENT_TIMEOUT_MS: '0' });
    ds = app.glossa.app.get(DataSource);
    await createTranslatedComponent(ds, { languages: ['cs'], units: 3 });
    // Whether a request runs as background work (which would lift its limit), seen from the server's own listener.
    const server = app.glossa.app.getHttpServer() as Server;
    const listeners = server.listeners('request') as Array<(req: IncomingMessage, res: ServerResponse) => void>;
    server.removeAllListeners('request');
    for (const listener of listeners) {
      server.on('request', (req, res) => {
        requestsInBackground.push(isBackgroundWork());
        listener(req, res);
      });
    }
  });
  afterAll(async () => {
    await app?.close();
  });

  it('answers a statement that exceeds STATEMENT_TIMEOUT_MS with a clean 503, and the connection serves the next request', async () => {
    const lock = await lockUnits(app.database.url);
    let response: Response;
    try {
      response = await app.http().get(SEARCH);
    } finally {
      await lock.release();
    }
    expect(response.status).toBe(503);
    expect(response.body).toEqual(TIMED_OUT);
    expectApiHeaders(response, 'GET, HEAD, OPTIONS');
    expect(response.text).not.toMatch(/cancel|statement|timeout|units/i);

    const after = await app.http().get(SEARCH).expect(200);
    // 3 strings in the source and in cs.
    expect(after.body.count).toBe(6);
    expect(requestsInBackground.length).toBeGreaterThan(0);
    expect(requestsInBackground.every((inBackground) => !inBackground)).toBe(true);
  });

  it('sets the API limit on every connection, and JOB_STATEMENT_TIMEOUT_MS in the transactions of background jobs', async () => {
    expect(await ds.query('SHOW statement_timeout')).toEqual([{ statement_timeout: '500ms' }]);
    expect(await ds.transaction((manager) => manager.query('SHOW statement_timeout'))).toEqual([{ statement_timeout: '500ms' }]);

    const queue = app.glossa.app.get(JobQueue);
    const seen: Array<{ inTransaction: string; outside: string }> = [];
    let ran: () => void = () => undefined;
    const done = new Promise<void>((resolve) => (ran = resolve));
    queue.register(
      'security-search-timeout',
      async () => {
        const [{ statement_timeout: inTransaction }] = await ds.transaction((manager) => manager.query('SHOW statement_timeout'));
        const [{ statement_timeout: outside }] = await ds.query('SHOW statement_timeout');
        seen.push({ inTransaction, outside });
        ran();
      },
      { retryLimit: 0 },
    );
    // register() after start creates the queue in the background: send once it exists.
    for (;;) {
      const sent = await queue.send('security-search-timeout', {}).then(
        () => true,
        () => false,
      );
      if (sent) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await done;
    // The job's transactions have no limit (0); its statements outside a transaction keep the API's.
    expect(seen).toEqual([{ inTransaction: '0', outside: '500ms' }]);
  });
});

/** Every node of a plan with its ancestors (outermost first). */
function walk(node: PlanNode, ancestors: PlanNode[] = []): Array<{ node: PlanNode; ancestors: PlanNode[] }> {
  return [{ node, ancestors }, ...(node.Plans ?? []).flatMap((child) => walk(child, [...ancestors, node]))];
}

describe('visibility filter of /api/units/ searches', () => {
  let app: TestApp;
  let ds: DataSource;

  beforeAll(async () => {
    app = await createTestApp();
    ds = app.glossa.app.get(DataSource);
    for (let i = 0; i < 6; i += 1) await createTranslatedComponent(ds, { languages: ['cs', 'de'], units: 40 });
    await createTranslatedComponent(ds, { languages: ['cs'], units: 10, project: { accessControl: ProjectAccess.Private } });
  });
  afterAll(async () => {
    await app?.close();
  });

  it('computes the visible components once per statement (an InitPlan) and reads units once', async () => {
    const { result: response, statements } = await captureStatements('ILIKE', () => app.http().get(SEARCH));
    expect(response.status).toBe(200);
    // 6 public components × (source + cs + de) × 40 strings; the private project's units are not counted.
    expect(response.body.count).toBe(6 * 3 * 40);
    expect(statements).toHaveLength(1); // the count and the page, in one statement below 5,000 matches (units-read.service.ts)

    const client = new Client({ connectionString: app.database.url });
    await client.connect();
    try {
      for (const statement of statements) {
        const nodes = walk(await planOf(client, statement, 'ANALYZE'));
        // The search reads units in one pass: no scan of units filtered by the search runs more than once
        // (before: once per visible translation, the inner side of a nested loop).
        const searchScans = nodes.filter(({ node }) => node['Relation Name'] === 'units' && /~~\*/.test(`${node.Filter ?? ''} ${node['Recheck Cond'] ?? ''}`));
        expect(searchScans.length).toBeGreaterThan(0);
        expect(searchScans.map(({ node }) => node['Actual Loops'])).toEqual(searchScans.map(() => 1));
        // The team rules (groups, group_components) are evaluated inside an InitPlan that runs once, never in a
        // subplan re-run per unit or per component of the outer query.
        const teamRules = nodes.filter(({ node }) => node['Relation Name'] === 'groups' || node['Relation Name'] === 'group_components');
        expect(teamRules.length).toBeGreaterThan(0);
        for (const { ancestors } of teamRules) {
          const initPlan = ancestors.find((ancestor) => ancestor['Parent Relationship'] === 'InitPlan');
          expect(initPlan?.['Actual Loops']).toBe(1);
        }
      }
    } finally {
      await client.end();
    }
  });
});

(realPostgres ? describe : describe.skip)('readiness while the pool is saturated by slow searches', () => {
  let app: TestApp;

  beforeAll(async () => {
    // A generous limit: the searches below must still be waiting when /readyz is asked.
    app = await createTestApp({ DATABASE_POOL_SIZE: '2', STATEMENT_TIMEOUT_MS: '120000' });
    await createTranslatedComponent(app.glossa.app.get(DataSource), { languages: ['cs'], units: 3 });
  });
  afterAll(async () => {
    await app?.close();
  });

  it('answers /readyz 200 while every pool connection runs a search and more searches wait for one', async () => {
    const lock = await lockUnits(app.database.url);
    const answered: number[] = [];
    const searches = Array.from({ length: 4 }, () =>
      app
        .http()
        .get(SEARCH)
        .then((response) => {
          answered.push(response.status);
          return response;
        }),
    );
    try {
      // Both pool connections are inside a search, blocked by the lock: the pool has no connection left.
      await waitForBlockedSearches(app.database.url, lock.pid, 2);
      const pool = (app.glossa.app.get(DataSource).driver as unknown as { master: { totalCount: number; idleCount: number } }).master;
      expect({ total: pool.totalCount, idle: pool.idleCount }).toEqual({ total: 2, idle: 0 });
      const ready = await app.http().get('/readyz');
      expect(ready.status).toBe(200);
      expect(ready.body).toEqual({ status: 'ok', checks: { database: 'ok', job_queue: 'ok' } });
      // /readyz answered while every search was still in flight.
      expect(answered).toEqual([]);
      await app.http().get('/healthz').expect(200);
    } finally {
      await lock.release();
    }
    const responses = await Promise.all(searches);
    expect(responses.map((response) => response.status)).toEqual([200, 200, 200, 200]);
  });
});
