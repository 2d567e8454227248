import type { Server } from 'node:http';
import { DataSource } from 'typeorm';
import { CONTENT_CHANGE_ACTIONS } from '../../src/modules/changes/change-actions';
import { FLOOR_ACTION_NAMES, FLOOR_STATEMENTS, FloorStatement } from '../../src/bench/floor-statements';
import { createTranslatedComponent, SeededContent } from '../support/content-factories';
import { authHeader } from '../support/contract';
import { createTestApp, TEST_ADMIN_TOKEN, TestApp } from '../support/test-app';

// The bench's floor (issue 15 item 1, src/bench/floor-statements.ts) is only a fair yardstick while each of
// its statements returns what Glossa answers for the same request: the same keys and the same values. Here
// every floor statement runs on the test database next to the Glossa request it stands for, and the two
// bodies must be equal (Glossa's web links use SITE_URL, the floor's the request origin: that prefix is
// the one difference allowed).

describe('bench floor statements answer what Glossa answers', () => {
  const admin = authHeader(TEST_ADMIN_TOKEN);
  let app: TestApp;
  let ds: DataSource;
  let content: SeededContent;
  let origin: string;

  beforeAll(async () => {
    app = await createTestApp();
    ds = app.glossa.app.get(DataSource);
    content = await createTranslatedComponent(ds, { languages: ['cs', 'de'], units: 5 });
    origin = `http://127.0.0.1:${((app.glossa.app.getHttpServer() as Server).address() as { port: number }).port}`;
    // A change with a unit, a translation, a user and an author, and one more unit state to show.
    await app.http().patch(`/api/units/${content.translations[0].unitIds[1]}/`).set(...admin).send({ target: ['Upraveno'], state: 10 }).expect(200);
  });
  afterAll(async () => {
    await app?.close();
  });

  async function expectSameBody(path: string, statement: FloorStatement, params: unknown[]): Promise<void> {
    const glossa = await app.http().get(path).set(...admin).expect(200);
    const rows: Array<{ body: string }> = await ds.query(statement.text, [origin, ...params]);
    expect(rows).toHaveLength(1);
    const expected = JSON.parse(glossa.text.replaceAll(`"${app.config.siteUrl}/`, `"${origin}/`)) as unknown;
    expect(JSON.parse(rows[0].body)).toEqual(expected);
  }

  it('details: project, component, translation, unit, statistics', async () => {
    const { project, component } = content;
    const [p, c] = [project.slug, component.slug];
    await expectSameBody(`/api/projects/${p}/`, FLOOR_STATEMENTS.project, [p]);
    await expectSameBody(`/api/components/${p}/${c}/`, FLOOR_STATEMENTS.component, [p, c]);
    await expectSameBody(`/api/translations/${p}/${c}/cs/`, FLOOR_STATEMENTS.translation, [p, c, 'cs']);
    for (const id of content.translations[0].unitIds.slice(0, 3)) await expectSameBody(`/api/units/${id}/`, FLOOR_STATEMENTS.unit, [id]);
    await expectSameBody(`/api/translations/${p}/${c}/cs/statistics/`, FLOOR_STATEMENTS.statistics, [CONTENT_CHANGE_ACTIONS, p, c, 'cs']);
  });

  it('lists: units pages with their links, component translations, changes', async () => {
    const [p, c] = [content.project.slug, content.component.slug];
    const units = `/api/translations/${p}/${c}/cs/units/`;
    await expectSameBody(`${units}?page_size=2`, FLOOR_STATEMENTS.units, [p, c, 'cs', 1, 2, true]);
    await expectSameBody(`${units}?page=2&page_size=2`, FLOOR_STATEMENTS.units, [p, c, 'cs', 2, 2, true]);
    await expectSameBody(`${units}?page=3&page_size=2`, FLOOR_STATEMENTS.units, [p, c, 'cs', 3, 2, true]);
    await expectSameBody(units, FLOOR_STATEMENTS.units, [p, c, 'cs', 1, 50, false]);
    await expectSameBody(`/api/components/${p}/${c}/translations/`, FLOOR_STATEMENTS.componentTranslations, [p, c, 1, 50, false]);
    await expectSameBody('/api/changes/', FLOOR_STATEMENTS.changes, [FLOOR_ACTION_NAMES, 1, 50, false]);
    await expectSameBody('/api/changes/?page_size=1', FLOOR_STATEMENTS.changes, [FLOOR_ACTION_NAMES, 1, 1, true]);
  });

  it('change detail', async () => {
    const [{ id }]: Array<{ id: string }> = await ds.query('SELECT max(id)::text AS id FROM changes');
    await expectSameBody(`/api/changes/${id}/`, FLOOR_STATEMENTS.change, [FLOOR_ACTION_NAMES, id]);
  });
});
