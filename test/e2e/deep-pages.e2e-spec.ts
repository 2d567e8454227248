import { DataSource } from 'typeorm';
import { createTranslatedComponent, SeededContent } from '../support/content-factories';
import { authHeader } from '../support/contract';
import { createTestApp, TEST_ADMIN_TOKEN, TestApp } from '../support/test-app';

// Deep pages without OFFSET scans (issue 5): every page must hold exactly what ORDER BY … LIMIT/OFFSET gave,
// and the statistics kept by delta updates must equal a recount after concurrent edits.

describe('deep pages and statistics deltas', () => {
  let app: TestApp;
  let ds: DataSource;
  let content: SeededContent;
  const admin = authHeader(TEST_ADMIN_TOKEN);
  const unitsPath = () => `/api/translations/${content.project.slug}/${content.component.slug}/cs/units/`;
  const cs = () => content.translations.find((t) => t.languageCode === 'cs')!;

  beforeAll(async () => {
    // The embedded database is one session: run it with one connection, as production does (see
    // concurrency.e2e-spec.ts); the harness's pool of four would interleave transactions in that session.
    app = await createTestApp(process.env.GLOSSA_TEST_EMBEDDED_URL ? { DATABASE_POOL_SIZE: '1' } : {});
    ds = app.glossa.app.get(DataSource);
    content = await createTranslatedComponent(ds, { languages: ['cs', 'de'], units: 23, component: { manageUnits: true } });
  });

  afterAll(async () => {
    await app?.close();
  });

  async function pagesOf(path: string, size: number): Promise<number[][]> {
    const pages: number[][] = [];
    for (let page = 1; ; page += 1) {
      const response = await app.http().get(`${path}?page_size=${size}${page > 1 ? `&page=${page}` : ''}`).expect(200);
      pages.push(response.body.results.map((item: { id: number }) => item.id));
      if (response.body.next === null) return pages;
    }
  }

  const chunk = (ids: number[], size: number): number[][] =>
    Array.from({ length: Math.max(1, Math.ceil(ids.length / size)) }, (_, i) => ids.slice(i * size, i * size + size));

  async function expectedUnits(): Promise<number[]> {
    const rows: Array<{ id: string }> = await ds.query('SELECT id FROM units WHERE translation_id = $1 ORDER BY position, id', [cs().id]);
    return rows.map((row) => Number(row.id));
  }

  it('pages a translation\'s units by position exactly as ORDER BY position, id with OFFSET does', async () => {
    const expected = await expectedUnits();
    expect(expected).toHaveLength(23);
    for (const size of [1, 5, 7, 23, 50]) expect(await pagesOf(unitsPath(), size)).toEqual(chunk(expected, size));
    const last = await app.http().get(`${unitsPath()}?page_size=5&page=last`).expect(200);
    expect(last.body.results.map((u: { id: number }) => u.id)).toEqual(expected.slice(20));
    expect(last.body.count).toBe(23);
    await app.http().get(`${unitsPath()}?page_size=5&page=6`).expect(404);
  });

  it('still answers in (position, id) order when positions are not 1..count', async () => {
    // Two units share a position and one position is skipped: the range read no longer fits, the general one is used.
    await ds.query('UPDATE units SET position = position + 1 WHERE translation_id = $1 AND position >= 10', [cs().id]);
    await ds.query('UPDATE units SET position = 5 WHERE translation_id = $1 AND position = 6', [cs().id]);
    try {
      const expected = await expectedUnits();
      for (const size of [3, 4, 10]) expect(await pagesOf(unitsPath(), size)).toEqual(chunk(expected, size));
    } finally {
      await ds.query(
        `UPDATE units u SET position = r.n FROM (SELECT id, row_number() OVER (ORDER BY position, id) AS n FROM units WHERE translation_id = $1) r
          WHERE u.id = r.id`,
        [cs().id],
      );
    }
  });

  it('pages /api/units/ and the changes lists by id exactly as OFFSET does', async () => {
    const units: Array<{ id: string }> = await ds.query('SELECT id FROM units ORDER BY id');
    expect(await pagesOf('/api/units/', 9)).toEqual(chunk(units.map((r) => Number(r.id)), 9));
    const changes: Array<{ id: string }> = await ds.query('SELECT id FROM changes ORDER BY id');
    expect(changes.length).toBeGreaterThan(3);
    expect(await pagesOf('/api/changes/', 2)).toEqual(chunk(changes.map((r) => Number(r.id)), 2));
    const own: Array<{ id: string }> = await ds.query('SELECT id FROM changes WHERE translation_id = $1 ORDER BY id', [cs().id]);
    const path = `/api/translations/${content.project.slug}/${content.component.slug}/cs/changes/`;
    expect(await pagesOf(path, 1)).toEqual(chunk(own.map((r) => Number(r.id)), 1));
  });

  it('keeps the counters exact under concurrent edits of one translation (no lost update)', async () => {
    const ids = cs().unitIds;
    // Every unit twice at once, alternating translated / needs editing / empty, so units move between all counters.
    const bodies = [
      { target: ['Hotovo'], state: 20 },
      { target: ['Upravit'], state: 10 },
      { target: ['Schváleno'], state: 30 },
      { target: [''], state: 0 },
    ];
    const edits = ids.flatMap((id, index) => [bodies[index % 4], bodies[(index + 1) % 4]].map((body) => ({ id, body })));
    const responses = await Promise.all(edits.map(({ id, body }) => app.http().patch(`/api/units/${id}/`).set(...admin).send(body)));
    expect(responses.map((r) => r.status).filter((s) => s !== 200)).toEqual([]);
    const [stored] = await ds.query(
      `SELECT total, total_words, translated, translated_words, translated_chars, fuzzy, fuzzy_words, fuzzy_chars, approved,
              approved_words, approved_chars, readonly, readonly_words FROM translations WHERE id = $1`,
      [cs().id],
    );
    const [recount] = await ds.query(
      `SELECT count(*)::int AS total, sum(num_words)::int AS total_words,
              count(*) FILTER (WHERE state >= 20)::int AS translated,
              coalesce(sum(num_words) FILTER (WHERE state >= 20), 0)::int AS translated_words,
              coalesce(sum(num_chars) FILTER (WHERE state >= 20), 0)::int AS translated_chars,
              count(*) FILTER (WHERE state BETWEEN 10 AND 12)::int AS fuzzy,
              coalesce(sum(num_words) FILTER (WHERE state BETWEEN 10 AND 12), 0)::int AS fuzzy_words,
              coalesce(sum(num_chars) FILTER (WHERE state BETWEEN 10 AND 12), 0)::int AS fuzzy_chars,
              count(*) FILTER (WHERE state = 30)::int AS approved,
              coalesce(sum(num_words) FILTER (WHERE state = 30), 0)::int AS approved_words,
              coalesce(sum(num_chars) FILTER (WHERE state = 30), 0)::int AS approved_chars,
              count(*) FILTER (WHERE state = 100)::int AS readonly,
              coalesce(sum(num_words) FILTER (WHERE state = 100), 0)::int AS readonly_words
         FROM units WHERE translation_id = $1`,
      [cs().id],
    );
    expect(stored).toEqual(recount);
    expect(recount.fuzzy + recount.translated).toBeGreaterThan(0);
    // Each edit that changed something is in the history exactly once.
    const [{ edits: recorded }] = await ds.query(
      'SELECT count(*)::int AS edits FROM changes WHERE translation_id = $1 AND unit_id IS NOT NULL AND action IN (2, 5, 36, 37)',
      [cs().id],
    );
    expect(recorded).toBeGreaterThanOrEqual(ids.length);
    expect(recorded).toBeLessThanOrEqual(edits.length);
  });
});
