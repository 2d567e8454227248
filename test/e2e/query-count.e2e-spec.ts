import { AsyncLocalStorage, AsyncResource } from 'node:async_hooks';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import pg from 'pg';
import { DataSource } from 'typeorm';
import { AUTH_CHANNEL } from '../../src/database/pool-notifications';
import { createTranslatedComponent, SeededContent } from '../support/content-factories';
import { createTestApp, TEST_ADMIN_TOKEN, TestApp } from '../support/test-app';

// architecture.md "Performance principles": a list request runs a constant number of SQL queries, whatever the
// page size and the amount of data. Every query the app sends goes through pg's Client#query; the server's
// request listener runs each request inside an AsyncLocalStorage context, so only the queries caused by the
// request are counted (background work such as job polling has no such context).

// Rate limiting reserves a batch of requests from the shared counter now and then, and sweeps old counters
// once a minute or so from whichever request comes then (src/ops/rate-limit.ts): at most one statement each
// in a request, usually none, and which request runs them depends on what came before and on the clock (a
// loaded machine crossed the sweep's interval mid-test). They are left out of the counts so that they compare
// like with like. So is a connection's set-up: each connection the pool opens first LISTENs for auth changes
// (pool-notifications.ts), from the request that needed it (CI saw `/api/translations/` count 3 instead of 2 when
// its pool opened a connection for it).

const inRequest = new AsyncLocalStorage<true>();

// pg's Pool#query (the named statements, src/database/prepared-statement.ts) sends its query from the callback of
// Pool#connect. When every pooled connection is busy (the job queue shares the pool), that callback runs when
// another holder releases one, in the releaser's async context: a request's query was then counted for nobody, or
// a background query for the request (seen as 3 instead of 4 on a loaded machine). Bound to the caller's context,
// each query counts for whoever asked for it.
type Connect = typeof pg.Pool.prototype.connect;
const originalConnect: Connect = pg.Pool.prototype.connect;

/** Statements a request may send that are not its own work: rate-limit bookkeeping and a new connection's LISTEN. */
function isBookkeeping(query: unknown): boolean {
  const text = typeof query === 'string' ? query : (query as { text?: unknown } | null)?.text;
  return typeof text === 'string' && (text.includes('rate_limit_counters') || text.startsWith(`LISTEN ${AUTH_CHANNEL}`));
}
let counted = 0;

type Query = typeof pg.Client.prototype.query;
const originalQuery: Query = pg.Client.prototype.query;

describe('SQL queries per request', () => {
  let app: TestApp;
  let ds: DataSource;
  let small: SeededContent;
  let big: SeededContent;
  const measured: Record<string, number> = {};

  beforeAll(async () => {
    pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
      if (inRequest.getStore() && !isBookkeeping(args[0])) counted += 1;
      return (originalQuery as (...a: unknown[]) => unknown).apply(this, args);
    } as Query;
    pg.Pool.prototype.connect = function (this: pg.Pool, callback?: unknown) {
      const bound = typeof callback === 'function' ? AsyncResource.bind(callback as (...a: unknown[]) => unknown) : callback;
      return (originalConnect as (...a: unknown[]) => unknown).call(this, bound);
    } as Connect;
    app = await createTestApp();
    const server = app.glossa.app.getHttpServer() as Server;
    const listeners = server.listeners('request') as Array<(req: IncomingMessage, res: ServerResponse) => void>;
    server.removeAllListeners('request');
    for (const listener of listeners) server.on('request', (req, res) => inRequest.run(true, () => listener(req, res)));
    ds = app.glossa.app.get(DataSource);
    small = await createTranslatedComponent(ds, { languages: ['cs', 'de'], units: 3 });
  });
  afterAll(async () => {
    pg.Client.prototype.query = originalQuery;
    pg.Pool.prototype.connect = originalConnect;
    await app?.close();
  });

  async function queries(path: string): Promise<number> {
    counted = 0;
    const response = await app.http().get(path);
    expect([path, response.status]).toEqual([path, 200]);
    expect(counted).toBeGreaterThan(0);
    return counted;
  }

  /** The list routes of one component's data, with a page size. */
  const lists = (content: SeededContent, pageSize: number): Record<string, string> => {
    const t = `/api/translations/${content.project.slug}/${content.component.slug}/cs/`;
    const c = `/api/components/${content.project.slug}/${content.component.slug}/`;
    return {
      'translation units': `${t}units/?page_size=${pageSize}`,
      'translation units with q': `${t}units/?page_size=${pageSize}&q=${encodeURIComponent('state:>=empty is:translated')}`,
      'translation changes': `${t}changes/?page_size=${pageSize}`,
      'component translations': `${c}translations/?page_size=${pageSize}`,
      'component changes': `${c}changes/?page_size=${pageSize}&action=0&action=59`,
      'project changes': `/api/projects/${content.project.slug}/changes/?page_size=${pageSize}`,
    };
  };

  const globalLists = (pageSize: number): Record<string, string> => ({
    translations: `/api/translations/?page_size=${pageSize}`,
    units: `/api/units/?page_size=${pageSize}`,
    'units with q': `/api/units/?page_size=${pageSize}&q=is:untranslated`,
    changes: `/api/changes/?page_size=${pageSize}&timestamp_after=2000-01-01`,
    projects: `/api/projects/?page_size=${pageSize}`,
    components: `/api/components/?page_size=${pageSize}`,
    'project components': `/api/projects/${small.project.slug}/components/?page_size=${pageSize}`,
  });

  async function countAll(routes: Record<string, string>): Promise<Record<string, number>> {
    const counts: Record<string, number> = {};
    for (const [name, path] of Object.entries(routes)) {
      await queries(path); // warm-up: first requests may prepare connections
      counts[name] = await queries(path);
    }
    return counts;
  }

  it('does not depend on the page size', async () => {
    const one = await countAll({ ...globalLists(1), ...lists(small, 1) });
    const fifty = await countAll({ ...globalLists(50), ...lists(small, 50) });
    expect(fifty).toEqual(one);
    Object.assign(measured, one);
  });

  it('does not depend on the amount of data (3 vs 30 translations and units)', async () => {
    const before = await countAll({ ...globalLists(50), ...lists(small, 50) });
    const languages: Array<{ code: string }> = await ds.query(`SELECT code FROM languages WHERE code NOT IN ('en', 'cs') ORDER BY id LIMIT 28`);
    big = await createTranslatedComponent(ds, { languages: ['cs', ...languages.map((l) => l.code)], units: 30 });
    const translations = await app.http().get(`/api/components/${big.project.slug}/${big.component.slug}/translations/`).expect(200);
    expect(translations.body.count).toBe(30);
    const after = await countAll({ ...globalLists(50), ...lists(small, 50) });
    expect(after).toEqual(before);
    const bigLists = await countAll(lists(big, 50));
    const smallLists = await countAll(lists(small, 50));
    expect(bigLists).toEqual(smallLists);
  });

  it('keeps single-object reads constant too', async () => {
    const unit = await queries(`/api/units/${big.translations[5].unitIds[20]}/`);
    const change = await queries('/api/changes/1/');
    const translation = await queries(`/api/translations/${big.project.slug}/${big.component.slug}/cs/`);
    expect({ unit, change, translation }).toEqual({
      unit: await queries(`/api/units/${small.source.unitIds[0]}/`),
      change: await queries('/api/changes/2/'),
      translation: await queries(`/api/translations/${small.project.slug}/${small.component.slug}/cs/`),
    });
    // Recorded for the report: queries per request.
    process.stdout.write(`queries per request: ${JSON.stringify({ ...measured, unit, change, translation })}\n`);
  });

  // docs/performance.md "Read floor": a detail's body is read by the auth guard's own statement
  // (src/common/auth/read-with-access.ts), and so is a plain page of a component's translations or units.
  it('reads a detail in the access statement itself, anonymous or with a token', async () => {
    const component = `/api/components/${big.project.slug}/${big.component.slug}/`;
    const routes = {
      project: `/api/projects/${big.project.slug}/`,
      component,
      translation: `/api/translations/${big.project.slug}/${big.component.slug}/cs/`,
      unit: `/api/units/${big.translations[5].unitIds[20]}/`,
      change: '/api/changes/1/',
      'translation statistics': `/api/translations/${big.project.slug}/${big.component.slug}/cs/statistics/`,
      'component translations': `${component}translations/?page_size=5&page=2`,
      // A plain units page (UNITS_PAGE_READ), the first and a later one.
      'translation units': `/api/translations/${big.project.slug}/${big.component.slug}/cs/units/`,
      'translation units page 3': `/api/translations/${big.project.slug}/${big.component.slug}/cs/units/?page=3&page_size=7`,
    };
    const expected = {
      project: 1,
      component: 1,
      translation: 1,
      unit: 1,
      change: 1,
      'translation statistics': 1,
      'component translations': 1,
      'translation units': 1,
      'translation units page 3': 1,
    };
    expect(await countAll(routes)).toEqual(expected);
    const token = TEST_ADMIN_TOKEN;
    const counts: Record<string, number> = {};
    for (const [name, path] of Object.entries(routes)) {
      counted = 0;
      const response = await app.http().get(path).set('Authorization', `Token ${token}`);
      expect([path, response.status]).toEqual([path, 200]);
      counts[name] = counted;
    }
    expect(counts).toEqual(expected);
  });
});
