import { DataSource } from 'typeorm';
import { createTranslatedComponent } from '../support/content-factories';
import { authHeader } from '../support/contract';
import { createTestApp, TEST_ADMIN_TOKEN, TestApp } from '../support/test-app';

// Bulk translate written in several statements (BULK_WRITE_CHUNK, bulk-translate.service.ts): with chunks of two
// edits, one request of seven items spans four write statements queued on one transaction. What the caller
// sees must not depend on the chunk size: the history in input order (45 first, 1 last), a chunk whose edits
// all change nothing, atomic requests writing nothing, and statistics equal to a recount.

describe('bulk translate in chunks', () => {
  let app: TestApp;
  let ds: DataSource;
  const admin = authHeader(TEST_ADMIN_TOKEN);

  beforeAll(async () => {
    app = await createTestApp({ BULK_WRITE_CHUNK: '2' });
    ds = app.glossa.app.get(DataSource);
  });
  afterAll(async () => {
    await app.close();
  });

  async function lastChangeId(): Promise<number> {
    const [{ id }]: Array<{ id: number }> = await ds.query('SELECT COALESCE(max(id), 0)::int AS id FROM changes');
    return id;
  }

  it('writes every chunk in input order, skips a chunk that changes nothing and completes the translation once', async () => {
    const content = await createTranslatedComponent(ds, { languages: ['cs'], units: 7 });
    const cs = content.translations[0];
    const path = `/api/translations/${content.project.slug}/${content.component.slug}/cs/units/bulk/`;
    const before = await lastChangeId();
    // Positions 0, 2, 4, 6 are translated as `[cs] <source>`; items 2 and 3 (the second chunk) repeat what is
    // stored, so that chunk has nothing to write. The order of the items is not the order of the ids.
    const same = (i: number) => ({ id: Number(cs.unitIds[i]), target: [`[cs] ${content.strings[i].source}`], state: 20 });
    const items = [
      { id: Number(cs.unitIds[5]), target: ['Pět'], state: 20 },
      { id: Number(cs.unitIds[1]), target: ['Jedna'], state: 10 },
      same(0),
      same(2),
      { id: Number(cs.unitIds[3]), target: ['Tři'], state: 20 },
      { id: Number(cs.unitIds[6]), target: ['Šest'], state: 20 },
      { id: Number(cs.unitIds[4]), target: ['Čtyři'], state: 20 },
    ];
    const response = await app.http().post(path).set(...admin).send({ items }).expect(200);
    expect(response.body).toMatchObject({ updated: 7, failed: 0 });
    const history: Array<{ action: number; unit_id: string | null; target: string }> = await ds.query(
      'SELECT action, unit_id, target FROM changes WHERE translation_id = $1 AND id > $2 ORDER BY id',
      [cs.id, before],
    );
    expect(history.map((c) => [c.action, c.unit_id === null ? null : String(c.unit_id), c.target])).toEqual([
      [45, null, ''],
      [5, cs.unitIds[5], 'Pět'],
      [37, cs.unitIds[1], 'Jedna'],
      [5, cs.unitIds[3], 'Tři'],
      [2, cs.unitIds[6], 'Šest'],
      [2, cs.unitIds[4], 'Čtyři'],
    ]);
    const [stored] = await ds.query('SELECT translated::int, fuzzy::int, total::int FROM translations WHERE id = $1', [cs.id]);
    const [recount] = await ds.query(
      `SELECT count(*) FILTER (WHERE state >= 20)::int AS translated, count(*) FILTER (WHERE state BETWEEN 10 AND 12)::int AS fuzzy, count(*)::int AS total
         FROM units WHERE translation_id = $1`,
      [cs.id],
    );
    expect(stored).toEqual(recount);
    expect(recount).toEqual({ translated: 6, fuzzy: 1, total: 7 });

    // The last needs-editing string translated: "Translation completed" follows the edit, once.
    const mark = await lastChangeId();
    await app
      .http()
      .post(path)
      .set(...admin)
      .send({ items: [same(0), same(2), { id: Number(cs.unitIds[4]), target: ['Čtyři'], state: 20 }, { id: Number(cs.unitIds[1]), target: ['Jedna'], state: 20 }] })
      .expect(200);
    const completed: Array<{ action: number }> = await ds.query('SELECT action FROM changes WHERE translation_id = $1 AND id > $2 ORDER BY id', [cs.id, mark]);
    expect(completed.map((c) => c.action)).toEqual([2, 1]);
  });

  it('atomic: a failed item in the last chunk means no chunk is written', async () => {
    const content = await createTranslatedComponent(ds, { languages: ['cs'], units: 7 });
    const cs = content.translations[0];
    const path = `/api/translations/${content.project.slug}/${content.component.slug}/cs/units/bulk/`;
    const before = await lastChangeId();
    const snapshot = await ds.query('SELECT id, target, state, pending FROM units WHERE translation_id = $1 ORDER BY id', [cs.id]);
    const items = [0, 1, 2, 3, 4].map((i) => ({ id: Number(cs.unitIds[i]), target: [`Nové ${i}`], state: 20 }));
    items.push({ id: Number(cs.unitIds[5]), target: [''], state: 20 });
    const response = await app.http().post(path).set(...admin).send({ atomic: true, items }).expect(400);
    expect(response.body).toMatchObject({ updated: 0, failed: 1 });
    expect(await ds.query('SELECT id, target, state, pending FROM units WHERE translation_id = $1 ORDER BY id', [cs.id])).toEqual(snapshot);
    expect(await ds.query('SELECT id FROM changes WHERE translation_id = $1 AND id > $2', [cs.id, before])).toEqual([]);
  });
});
