import { createHash } from 'node:crypto';
import { Client } from 'pg';
import type { Response } from 'supertest';
import { DataSource } from 'typeorm';
import { captureStatements, planNodesOf, planOf, type CapturedStatement } from '../support/captured-statements';
import { createTranslatedComponent, type SeededContent } from '../support/content-factories';
import { createTestApp, TEST_ADMIN_TOKEN, TestApp } from '../support/test-app';
import { refreshTranslationStatistics } from '../../src/sync/translation-statistics';

// Issue 13 "Done means": a substring search on source and target is served by an index (pg_trgm), not a scan,
// also where the source and context indexes hold the source units only and the search reaches the other units
// through them (migration SourceTrigramsOnSourceUnits),
// and the indexed searches `state:<translated` and `has:check` answer from indexes too (migrations
// SearchIndexes and SearchFilterIndexes). The statements a real `GET /api/units/?q=…` sends (the exact count
// and the page) are captured and EXPLAINed on a table of 30,000 units, large enough that PostgreSQL prefers a
// sequential scan wherever no index serves the condition (it did for both counts before SearchFilterIndexes).

const ROWS_PER_TRANSLATION = 10_000;

describe('query plans of the indexed searches of /api/units/', () => {
  let app: TestApp;
  let content: SeededContent;
  let client: Client;

  beforeAll(async () => {
    app = await createTestApp();
    content = await createTranslatedComponent(app.glossa.app.get(DataSource), { languages: ['cs', 'de'], units: 3 });
    client = new Client({ connectionString: app.database.url });
    await client.connect();
    // Units of the shape the benchmark imports: every fifth untranslated, every tenth failing a check, a
    // distinct token in each source and target (so one substring matches one string).
    for (const translation of [content.source, ...content.translations]) {
      await client.query(
        `INSERT INTO units (translation_id, id_hash, content_hash, context, source, target, state, position, has_failing_check)
         SELECT $1, 1000000 + g, g, 'key' || g, 'Generated string ' || g || ' token ' || md5(g::text),
                CASE WHEN g % 5 = 4 THEN '' ELSE 'Translated ' || md5('t' || g) END,
                CASE WHEN g % 5 = 4 THEN 0 ELSE 20 END, 100 + g, g % 10 = 3
           FROM generate_series(1, $2::int) g`,
        [translation.id, ROWS_PER_TRANSLATION],
      );
    }
    // Linked as a scan links them: source units to themselves, the others to the source unit of the same
    // id_hash (same source and context). The source and context trigram indexes are partial on the source
    // units (migration SourceTrigramsOnSourceUnits): the translations' units are found through them.
    await client.query(`UPDATE units SET source_unit_id = id WHERE translation_id = $1`, [content.source.id]);
    await client.query(
      `UPDATE units u SET source_unit_id = s.id FROM units s
        WHERE s.translation_id = $1 AND s.id_hash = u.id_hash AND u.translation_id = ANY($2::int[])`,
      [content.source.id, content.translations.map((translation) => translation.id)],
    );
    // The translations' statistics, as an import keeps them (has:check and state:<translated take their count
    // from them: units-read.service.ts readCountedPage), then the planner's statistics and the visibility map,
    // as autovacuum leaves them after an import.
    await refreshTranslationStatistics(app.glossa.app.get(DataSource).manager, [content.source.id, ...content.translations.map((translation) => translation.id)]);
    await client.query('VACUUM (ANALYZE) units');
  });
  afterAll(async () => {
    await client?.end();
    await app?.close();
  });

  /** The statements a request sends that read `units u`, with their parameters. */
  async function statementsOf(path: string, superuser: boolean): Promise<{ response: Response; statements: CapturedStatement[] }> {
    const request = app.http().get(path);
    const { result, statements } = await captureStatements('FROM units u WHERE', async () => (superuser ? request.set('Authorization', `Token ${TEST_ADMIN_TOKEN}`) : request));
    return { response: result, statements };
  }

  const token = (text: string): string => text.slice(0, 12);
  const cases: Array<{ name: string; q: () => string; index: string; count: number; storedCount?: boolean }> = [
    // g = 1234 exists in each of the 3 translations; its source token is in all of them.
    { name: 'substring of source', q: () => `source:${token(md5(1234))}`, index: 'IDX_units_source_trgm', count: 3 },
    // g = 77 is translated (77 % 5 = 2) in each of the 3 translations.
    { name: 'substring of context', q: () => 'key:key1234', index: 'IDX_units_context_trgm', count: 3 },
    { name: 'bare word', q: () => token(md5(1234)), index: 'IDX_units_source_trgm', count: 3 },
    { name: 'substring of target', q: () => `target:${token(md5('t77'))}`, index: 'IDX_units_target_trgm', count: 3 },
    { name: 'has:check', q: () => 'has:check', index: 'IDX_units_failing_check', count: 3 * (ROWS_PER_TRANSLATION / 10), storedCount: true },
    // The factory's own units: the source translation's are translated, cs and de alternate (3 strings: 1 each).
    { name: 'state:<translated', q: () => 'state:<translated', index: 'IDX_units_not_translated', count: 3 * (ROWS_PER_TRANSLATION / 5) + 2, storedCount: true },
  ];

  for (const { name, q, index, count, storedCount } of cases) {
    for (const superuser of [true, false]) {
      it(`${name} (${superuser ? 'superuser' : 'anonymous'}): the count and the page use ${index}, no sequential scan of units`, async () => {
        const { response, statements } = await statementsOf(`/api/units/?q=${encodeURIComponent(q())}`, superuser);
        expect(response.status).toBe(200);
        expect(response.body.count).toBe(count);
        // A search whose count the translations' statistics keep reads it with its page (units-read.service.ts
        // readCountedPage). Otherwise, up to 5,000 matches (SEARCH_SET_CAP) one statement counts them and reads
        // the page; beyond, the exact count is a second statement.
        expect(statements).toHaveLength(storedCount || count <= 5000 ? 1 : 2);
        for (const statement of statements) {
          const nodes = planNodesOf(await planOf(client, statement));
          const unitScans = nodes.filter((node) => node['Relation Name'] === 'units');
          expect(unitScans.filter((node) => node['Node Type'] === 'Seq Scan')).toEqual([]);
          // The search itself uses the index (a bitmap scan names it on its Bitmap Index Scan child); the page
          // query's outer join then reads the page's rows by primary key.
          expect(nodes.map((node) => node['Index Name'])).toContain(index);
        }
      });
    }
  }

  // The pages of a search whose count is read with its page (up to 5,000 matches, units-read.service.ts
  // readSmallSearch) and of one past that cap are the pages ORDER BY id / LIMIT / OFFSET gives, with the exact
  // count; a page past the end is 404 on both paths.
  const pagings: Array<{ q: string; condition: string; pages: number[] }> = [
    { q: 'has:check', condition: 'has_failing_check', pages: [1, 2, 15] },
    { q: 'state:<translated', condition: 'state < 20', pages: [1, 25, 26, 31] },
    // A one-term source: search finds the units holding the text and those linked to them in one statement
    // (search/matching-units.ts ownTextUnionFrom): 111 source units of 10,000 here (g = 12, 120–129, 1200–1299)…
    { q: 'source:"string 12"', condition: "source ILIKE '%string 12%'", pages: [1, 2] },
    // …or, when more than OWN_TEXT_IDS_CAP (2,000) source units hold it, through its semi-join instead.
    { q: 'source:Generated', condition: "source ILIKE '%Generated%'", pages: [1, 2, 150] },
  ];
  for (const { q, condition, pages } of pagings) {
    it(`${q}: every page and the count equal a plain ORDER BY id over the matching units`, async () => {
      const { rows } = await client.query<{ id: string }>(`SELECT u.id::text AS id FROM units u WHERE ${condition} ORDER BY u.id`);
      for (const page of pages) {
        const response = await app.http().get(`/api/units/?q=${encodeURIComponent(q)}&page=${page}`).set('Authorization', `Token ${TEST_ADMIN_TOKEN}`);
        expect(response.status).toBe(200);
        expect(response.body.count).toBe(rows.length);
        expect(response.body.results.map((unit: { id: number }) => String(unit.id))).toEqual(rows.slice((page - 1) * 200, page * 200).map((row) => row.id));
        expect(Object.keys(response.body.results[0])).not.toContain('matched_count');
      }
      const past = Math.ceil(rows.length / 200) + 1;
      expect((await app.http().get(`/api/units/?q=${encodeURIComponent(q)}&page=${past}`).set('Authorization', `Token ${TEST_ADMIN_TOKEN}`)).status).toBe(404);
      const last = await app.http().get(`/api/units/?q=${encodeURIComponent(q)}&page=last`).set('Authorization', `Token ${TEST_ADMIN_TOKEN}`);
      expect(last.status).toBe(200);
      expect(last.body.count).toBe(rows.length);
      expect(last.body.results.map((unit: { id: number }) => String(unit.id))).toEqual(rows.slice((past - 2) * 200).map((row) => row.id));
      expect(Object.keys(last.body.results[0])).not.toContain('stored_count');
    });
  }

  // has:check and state:<translated take their count from the translations' statistics (readCountedPage): in
  // a translation's own list, and after a write through the API, which moves the statistics with the unit.
  it("a counted search in a translation's units follows a translation through the API", async () => {
    const cs = content.translations.find((translation) => translation.languageCode === 'cs')!;
    const list = `/api/translations/${content.project.slug}/${content.component.slug}/cs/units/?q=${encodeURIComponent('state:<translated')}`;
    const countOf = async (): Promise<number> => {
      const { rows } = await client.query<{ count: number }>('SELECT count(*)::int AS count FROM units WHERE translation_id = $1 AND state < 20', [cs.id]);
      return rows[0].count;
    };
    const before = await app.http().get(list).set('Authorization', `Token ${TEST_ADMIN_TOKEN}`);
    expect(before.status).toBe(200);
    expect(before.body.count).toBe(await countOf());
    const unit = before.body.results[0] as { id: number; source: string[] };
    const translated = await app.http().patch(`/api/units/${unit.id}/`).set('Authorization', `Token ${TEST_ADMIN_TOKEN}`).send({ target: ['Přeloženo'], state: 20 });
    expect(translated.status).toBe(200);
    const after = await app.http().get(list).set('Authorization', `Token ${TEST_ADMIN_TOKEN}`);
    expect(after.body.count).toBe(before.body.count - 1);
    expect(after.body.count).toBe(await countOf());
    expect(after.body.results.map((result: { id: number }) => result.id)).not.toContain(unit.id);
    const last = await app.http().get(`${list}&page=last`).set('Authorization', `Token ${TEST_ADMIN_TOKEN}`);
    expect(last.status).toBe(200);
    expect(last.body.count).toBe(after.body.count);
  });

  it('a search matching nothing answers count 0 and no results', async () => {
    const response = await app.http().get(`/api/units/?q=${encodeURIComponent('source:"no such words anywhere"')}`).set('Authorization', `Token ${TEST_ADMIN_TOKEN}`);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ count: 0, results: [] });
  });
});

/** PostgreSQL's md5() (lower-case hex). */
function md5(text: string | number): string {
  return createHash('md5').update(String(text)).digest('hex');
}
