import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { captureStatements, planNodesOf, planOf } from '../support/captured-statements';
import { createTranslatedComponent, type SeededContent } from '../support/content-factories';
import { createTestApp, TEST_ADMIN_TOKEN, TestApp } from '../support/test-app';

// A detail read answered by the auth guard's statement (read-with-access.ts) whose body is a raw JSON column
// (DetailRead.rawColumn: the unit's JSON built in SQL, unit.response.ts) must build that JSON once. The guard
// wraps the body's SELECT to split the raw column from the rest of the row; PostgreSQL pulled that SELECT up
// into the wrapper, and each of the wrapper's two references to the raw column became its own copy of the
// column's expression, so every unit detail built the unit's JSON, labels subquery included, twice
// (docs/performance.md, "Detail reads, session 15"). The unit's row also names its project, component and
// language (DetailRead.selectsScope), so the statement finds the unit and its translation once, not once for
// the access check and again for the body (docs/performance.md, "The unit detail against its floor, session 20").
// The statement a real request sends is captured and its plan read. The same way, the last test checks that no
// statement of the API's sessions is JIT-compiled (docs/performance.md "JIT, session 23").

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

  for (const [index, caller] of (['superuser', 'anonymous'] as const).entries()) {
    it(`unit detail (${caller}): one statement, whose plan reads the unit, its translation and its labels once`, async () => {
      // A unit read for the first time: the answer is not kept yet, so the statement builds the body (a kept one is
      // checked by its version alone, kept-answers.e2e-spec.ts).
      const unitId = content.translations[0].unitIds[index];
      const request = app.http().get(`/api/units/${unitId}/`);
      // The guard's statement reads the unit's JSON (access-statement.ts); the handler's own read would be a second one.
      const { result: response, statements } = await captureStatements('unit_json', async () =>
        caller === 'superuser' ? request.set('Authorization', `Token ${TEST_ADMIN_TOKEN}`) : request,
      );
      expect(response.status).toBe(200);
      expect(response.body.id).toBe(Number(unitId));
      expect(response.body.labels).toEqual([]);
      expect(statements).toHaveLength(1);
      const nodes = planNodesOf(await planOf(client, statements[0]));
      const reads = (relation: string) => nodes.filter((node) => node['Relation Name'] === relation);
      expect(reads('unit_labels')).toHaveLength(1);
      expect(reads('units')).toHaveLength(1);
      expect(reads('translations')).toHaveLength(1);
    });
  }

  it('plans the API\'s statements without JIT compilation (session-settings.ts)', async () => {
    // The teams list reads nine tables through TypeORM's relations; on a database without statistics its
    // estimated cost passed jit_above_cost, and compiling took 870 ms of a 1.2 s request. The embedded database
    // has no JIT provider; PostgreSQL's sessions have it switched off.
    const { result: teams, statements } = await captureStatements('group_roles', () => app.http().get('/api/groups/?page_size=100').set('Authorization', `Token ${TEST_ADMIN_TOKEN}`));
    expect(teams.status).toBe(200);
    expect(statements.length).toBeGreaterThan(0);
    const ds = app.glossa.app.get(DataSource);
    for (const statement of statements) {
      const [row] = (await ds.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${statement.text}`, statement.values)) as Array<{ 'QUERY PLAN': Array<Record<string, unknown>> }>;
      expect(Object.keys(row['QUERY PLAN'][0])).not.toContain('JIT');
    }
  });
});
