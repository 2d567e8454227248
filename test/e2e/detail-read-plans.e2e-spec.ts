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
// (docs/performance.md, "Detail reads, session 15"). The statement a real request sends is captured and its plan
// read: the unit's labels are looked up by one subplan.

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

  for (const caller of ['superuser', 'anonymous'] as const) {
    it(`unit detail (${caller}): one statement, whose plan reads the unit's labels once`, async () => {
      const unitId = content.translations[0].unitIds[1];
      const request = app.http().get(`/api/units/${unitId}/`);
      // The guard's statement is the one that reads a detail body (scope-access.ts).
      const { result: response, statements } = await captureStatements('detail_read', async () =>
        caller === 'superuser' ? request.set('Authorization', `Token ${TEST_ADMIN_TOKEN}`) : request,
      );
      expect(response.status).toBe(200);
      expect(response.body.id).toBe(Number(unitId));
      expect(response.body.labels).toEqual([]);
      expect(statements).toHaveLength(1);
      const nodes = planNodesOf(await planOf(client, statements[0]));
      expect(nodes.filter((node) => node['Relation Name'] === 'unit_labels')).toHaveLength(1);
    });
  }
});
