import pg, { Client } from 'pg';
import { DataSource } from 'typeorm';
import { createTranslatedComponent, type SeededContent } from '../support/content-factories';
import { createTestApp, TEST_ADMIN_TOKEN, TestApp } from '../support/test-app';

// A detail read answered by the auth guard's statement (read-with-access.ts) whose body is a raw JSON column
// (DetailRead.rawColumn: the unit's JSON built in SQL, unit.response.ts) must build that JSON once. The guard
// wraps the body's SELECT to split the raw column from the rest of the row; PostgreSQL pulled that SELECT up
// into the wrapper, and each of the wrapper's two references to the raw column became its own copy of the
// column's expression, so every unit detail built the unit's JSON, labels subquery included, twice
// (docs/performance.md, "Detail reads, session 15"). The statement a real request sends is captured and its plan
// read: the unit's labels are looked up by one subplan.

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  Plans?: PlanNode[];
}

const nodesOf = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodesOf)];

describe('the plan of a detail read with a raw JSON body', () => {
  let app: TestApp;
  let content: SeededContent;
  let client: Client;

  beforeAll(async () => {
    app = await createTestApp();
    content = await createTranslatedComponent(app.glossa.app.get(DataSource), { languages: ['cs'], units: 2 });
    client = new Client({ connectionString: app.database.url });
    await client.connect();
  });
  afterAll(async () => {
    await client?.end();
    await app?.close();
  });

  /** The guard's statements (those that read a detail body) a request sends, with their parameters. */
  async function guardStatementsOf(path: string, token: string | null): Promise<{ status: number; body: unknown; statements: Array<{ text: string; values: unknown[] }> }> {
    const statements: Array<{ text: string; values: unknown[] }> = [];
    const original = pg.Client.prototype.query;
    pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
      const text = typeof args[0] === 'string' ? args[0] : (args[0] as { text?: string } | null)?.text;
      if (typeof text === 'string' && text.includes('detail_read')) statements.push({ text, values: Array.isArray(args[1]) ? args[1] : ((args[0] as { values?: unknown[] }).values ?? []) });
      return (original as (...a: unknown[]) => unknown).apply(this, args);
    } as typeof original;
    try {
      const request = app.http().get(path);
      const response = await (token === null ? request : request.set('Authorization', `Token ${token}`));
      return { status: response.status, body: response.body, statements };
    } finally {
      pg.Client.prototype.query = original;
    }
  }

  for (const caller of ['superuser', 'anonymous'] as const) {
    it(`unit detail (${caller}): one statement, whose plan reads the unit's labels once`, async () => {
      const unitId = content.translations[0].unitIds[1];
      const { status, body, statements } = await guardStatementsOf(`/api/units/${unitId}/`, caller === 'superuser' ? TEST_ADMIN_TOKEN : null);
      expect(status).toBe(200);
      expect((body as { id: number }).id).toBe(Number(unitId));
      expect((body as { labels: unknown }).labels).toEqual([]);
      expect(statements).toHaveLength(1);
      const { text, values } = statements[0];
      const { rows } = await client.query<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>(`EXPLAIN (FORMAT JSON) ${text}`, values);
      const nodes = nodesOf(rows[0]['QUERY PLAN'][0].Plan);
      expect(nodes.filter((node) => node['Relation Name'] === 'unit_labels')).toHaveLength(1);
    });
  }
});
