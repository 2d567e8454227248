import { DataSource } from 'typeorm';
import { createTranslatedComponent, SeededContent } from '../support/content-factories';
import { authHeader, expectApiHeaders } from '../support/contract';
import { createTeam } from '../support/team-factories';
import { createTestApp, TEST_ADMIN_TOKEN, TestApp } from '../support/test-app';
import { createUserWithToken } from '../support/users-factories';

// The bulk routes (issue 14 item 5): bulk translate of one translation's strings with per-item results, and
// Weblate's bulk edit (state, flags, labels by a search query) over a project, component or translation.

const MAX_ITEMS = 20;

interface ChangeRow {
  action: number;
  unit_id: string | null;
  target: string;
  old: string;
  details: Record<string, unknown>;
}

describe('bulk edits', () => {
  let app: TestApp;
  let ds: DataSource;
  const admin = authHeader(TEST_ADMIN_TOKEN);
  let nobody: { token: string };
  let translator: { token: string; id: number };
  let automator: { token: string };

  beforeAll(async () => {
    // Several connections on PostgreSQL, so that a bulk request and single edits really run at the same time.
    // The embedded database is one session: connections sharing it would interleave their transactions.
    app = await createTestApp({ BULK_MAX_ITEMS: String(MAX_ITEMS), DATABASE_POOL_SIZE: process.env.GLOSSA_TEST_EMBEDDED_URL ? '1' : '4' });
    ds = app.glossa.app.get(DataSource);
    nobody = await createUserWithToken(ds, 'nobody');
    translator = await createUserWithToken(ds, 'translator');
    automator = await createUserWithToken(ds, 'automator');
  });
  afterAll(async () => {
    await app.close();
  });

  /** A fresh component (7 strings; cs and de translated at even positions) the two users may translate. */
  async function seed(options: Parameters<typeof createTranslatedComponent>[1] = {}): Promise<SeededContent> {
    const content = await createTranslatedComponent(ds, { languages: ['cs', 'de'], units: 7, ...options });
    await createTeam(app, TEST_ADMIN_TOKEN, { name: `translators ${content.project.slug}`, roles: ['Translate'], projectIds: [content.project.id], members: ['translator'] });
    await createTeam(app, TEST_ADMIN_TOKEN, {
      name: `automators ${content.project.slug}`,
      roles: ['Translate', 'Automatic translation'],
      projectIds: [content.project.id],
      members: ['automator'],
    });
    return content;
  }

  const translationPath = (content: SeededContent, code: string) => `/api/translations/${content.project.slug}/${content.component.slug}/${code}`;
  const bulkTranslate = (content: SeededContent, code: string) => `${translationPath(content, code)}/units/bulk/`;

  async function units(translationId: number): Promise<Array<{ id: string; state: number; target: string; pending: boolean; extra_flags: string }>> {
    return ds.query('SELECT id, state, target, pending, extra_flags FROM units WHERE translation_id = $1 ORDER BY position', [translationId]);
  }

  async function changesSince(translationId: number, afterId: number): Promise<ChangeRow[]> {
    return ds.query('SELECT action, unit_id, target, old, details FROM changes WHERE translation_id = $1 AND id > $2 ORDER BY id', [translationId, afterId]);
  }

  async function checkNames(unitId: string): Promise<string[]> {
    const rows: Array<{ name: string }> = await ds.query('SELECT name FROM checks WHERE unit_id = $1 ORDER BY name', [unitId]);
    return rows.map((row) => row.name);
  }

  async function lastChangeId(): Promise<number> {
    const [{ id }]: Array<{ id: number }> = await ds.query('SELECT COALESCE(max(id), 0)::int AS id FROM changes');
    return id;
  }

  /** The stored statistics of a translation equal a recount of its units. */
  async function expectExactStatistics(translationId: number): Promise<void> {
    const [stored] = await ds.query(
      `SELECT total, total_words, translated, translated_words, translated_chars, fuzzy, fuzzy_words, approved, approved_words,
              readonly, failing_checks, failing_checks_words FROM translations WHERE id = $1`,
      [translationId],
    );
    const [recount] = await ds.query(
      `SELECT count(*)::int AS total, coalesce(sum(num_words), 0)::int AS total_words,
              count(*) FILTER (WHERE state >= 20)::int AS translated,
              coalesce(sum(num_words) FILTER (WHERE state >= 20), 0)::int AS translated_words,
              coalesce(sum(num_chars) FILTER (WHERE state >= 20), 0)::int AS translated_chars,
              count(*) FILTER (WHERE state BETWEEN 10 AND 12)::int AS fuzzy,
              coalesce(sum(num_words) FILTER (WHERE state BETWEEN 10 AND 12), 0)::int AS fuzzy_words,
              count(*) FILTER (WHERE state = 30)::int AS approved,
              coalesce(sum(num_words) FILTER (WHERE state = 30), 0)::int AS approved_words,
              count(*) FILTER (WHERE state = 100)::int AS readonly,
              count(*) FILTER (WHERE has_failing_check)::int AS failing_checks,
              coalesce(sum(num_words) FILTER (WHERE has_failing_check), 0)::int AS failing_checks_words
         FROM units WHERE translation_id = $1`,
      [translationId],
    );
    const numeric = Object.fromEntries(Object.entries(stored as Record<string, unknown>).map(([key, value]) => [key, Number(value)]));
    expect(numeric).toEqual(recount);
  }

  describe('bulk translate', () => {
    it('applies the valid items, answers every item in input order and records the single edits\' history', async () => {
      const content = await seed();
      const cs = content.translations[0];
      const de = content.translations[1];
      const before = await lastChangeId();
      const response = await app
        .http()
        .post(bulkTranslate(content, 'cs'))
        .set(...authHeader(translator.token))
        .send({
          items: [
            { id: Number(cs.unitIds[1]), target: ['Nový překlad'], state: 20 },
            { id: 999999999, target: ['x'], state: 20 },
            { context: content.strings[3].context, target: 'Podle klíče', state: 10 },
            { id: Number(cs.unitIds[5]), target: ['neprázdný'], state: 0 },
            { id: Number(de.unitIds[1]), target: ['Deutsch'], state: 20 },
            { id: Number(cs.unitIds[0]), target: ['Změna'], state: 'bogus' },
            { id: Number(cs.unitIds[2]), target: ['jedna', 'dvě'], state: 20 },
            { target: ['bez id'], state: 20 },
            'not an object',
            { id: Number(cs.unitIds[0]), target: [`[cs] ${content.strings[0].source}`], state: 20 },
            { id: Number(cs.unitIds[6]), target: ['Změněno'], state: 20 },
          ],
        })
        .expect(200);
      expectApiHeaders(response, 'POST, OPTIONS');
      expect(Object.keys(response.body)).toEqual(['updated', 'failed', 'results']);
      expect(response.body).toMatchObject({ updated: 4, failed: 7 });
      const results = response.body.results as Array<Record<string, unknown>>;
      expect(results.map((r) => r.index)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
      expect(results.map((r) => r.status)).toEqual([200, 404, 200, 400, 404, 400, 400, 400, 400, 200, 200]);
      expect(results[0]).toEqual({ index: 0, id: Number(cs.unitIds[1]), status: 200 });
      expect(Object.keys(results[1])).toEqual(['index', 'status', 'errors']);
      expect(results[1].errors).toEqual({ detail: 'Not found.' });
      expect(results[2]).toEqual({ index: 2, id: Number(cs.unitIds[3]), status: 200 });
      expect(results[3].errors).toEqual({ detail: 'Can not use empty state with non empty target' });
      expect(results[4].errors).toEqual({ detail: 'Not found.' });
      expect(results[5].errors).toEqual({ state: ['"bogus" is not a valid choice.'] });
      expect(results[6].errors).toEqual({ target: ['Number of plurals does not match'] });
      expect(results[7].errors).toEqual({ non_field_errors: ['Either id or context is required.'] });
      expect(results[8].errors).toEqual({ non_field_errors: ['Invalid data. Expected a dictionary, but got str.'] });

      const stored = await units(cs.id);
      expect(stored.map((u) => [u.state, u.target])).toEqual([
        [20, `[cs] ${content.strings[0].source}`],
        [20, 'Nový překlad'],
        [20, `[cs] ${content.strings[2].source}`],
        [10, 'Podle klíče'],
        [20, `[cs] ${content.strings[4].source}`],
        [0, ''],
        [20, 'Změněno'],
      ]);
      expect(stored.map((u) => u.pending)).toEqual([false, true, false, true, false, false, true]);
      expect((await units(de.id)).every((u) => !u.pending)).toBe(true);

      // 45 on the first contribution, then each edit with the single edit's action (5 new, 37 marked for
      // edit, 2 changed) in input order; the identical item (index 9) records nothing.
      const history = await changesSince(cs.id, before);
      expect(history.map((c) => [c.action, c.unit_id === null ? null : String(c.unit_id)])).toEqual([
        [45, null],
        [5, cs.unitIds[1]],
        [37, cs.unitIds[3]],
        [2, cs.unitIds[6]],
      ]);
      expect(history[1]).toMatchObject({ target: 'Nový překlad', old: '' });
      expect(history[1].details).toEqual({ state: 20, old_state: 0, source: content.strings[1].source, context: content.strings[1].context });
      expect(await changesSince(de.id, before)).toEqual([]);
      await expectExactStatistics(cs.id);
      const detail = await app.http().get(`${translationPath(content, 'cs')}/`).expect(200);
      expect(detail.body).toMatchObject({ translated: 5, total: 7 });
    });

    it('records 1 "Translation completed" when the batch completes the translation, and approves only with review rights', async () => {
      const content = await seed();
      const cs = content.translations[0];
      const before = await lastChangeId();
      const approving = await app
        .http()
        .post(bulkTranslate(content, 'cs'))
        .set(...authHeader(translator.token))
        .send({ items: [{ id: Number(cs.unitIds[1]), target: ['Schváleno'], state: 30 }] })
        .expect(200);
      expect(approving.body.results[0]).toEqual({ index: 0, status: 403, errors: { detail: 'Insufficient privileges for approving.' } });
      const items = [1, 3, 5].map((i) => ({ id: Number(cs.unitIds[i]), target: [`Hotovo ${i}`], state: i === 5 ? 30 : 20 }));
      const response = await app.http().post(bulkTranslate(content, 'cs')).set(...admin).send({ items }).expect(200);
      expect(response.body).toMatchObject({ updated: 3, failed: 0 });
      const history = await changesSince(cs.id, before);
      expect(history.map((c) => c.action)).toEqual([45, 5, 5, 36, 1]);
      await expectExactStatistics(cs.id);
      const detail = await app.http().get(`${translationPath(content, 'cs')}/`).expect(200);
      expect(detail.body).toMatchObject({ translated: 7, total: 7 });
      expect(await ds.query('SELECT approved FROM translations WHERE id = $1', [cs.id])).toEqual([{ approved: 1 }]);
    });

    it('refuses read-only strings per item (the source translation)', async () => {
      const content = await seed();
      const response = await app
        .http()
        .post(bulkTranslate(content, 'en'))
        .set(...admin)
        .send({ items: [{ id: Number(content.source.unitIds[0]), target: ['Changed source'], state: 20 }] })
        .expect(200);
      expect(response.body).toEqual({ updated: 0, failed: 1, results: [{ index: 0, status: 403, errors: { detail: 'The string is read-only.' } }] });
    });

    it('atomic: one failed item means nothing is applied and the answer is 400 with the same list', async () => {
      const content = await seed();
      const cs = content.translations[0];
      const before = await lastChangeId();
      const snapshot = await units(cs.id);
      const response = await app
        .http()
        .post(bulkTranslate(content, 'cs'))
        .set(...admin)
        .send({
          atomic: true,
          items: [
            { id: Number(cs.unitIds[1]), target: ['Nepoužito'], state: 20 },
            { id: Number(cs.unitIds[3]), target: [''], state: 20 },
          ],
        })
        .expect(400);
      expectApiHeaders(response, 'POST, OPTIONS');
      expect(response.body).toEqual({
        updated: 0,
        failed: 1,
        results: [
          { index: 0, id: Number(cs.unitIds[1]), status: 200 },
          { index: 1, status: 400, errors: { detail: 'Can not use non empty state with empty target' } },
        ],
      });
      expect(await units(cs.id)).toEqual(snapshot);
      expect(await changesSince(cs.id, before)).toEqual([]);
      await app
        .http()
        .post(bulkTranslate(content, 'cs'))
        .set(...admin)
        .send({ atomic: true, items: [{ id: Number(cs.unitIds[1]), target: ['Použito'], state: 20 }] })
        .expect(200, { updated: 1, failed: 0, results: [{ index: 0, id: Number(cs.unitIds[1]), status: 200 }] });
    });

    it('honours if_match per item: a stale ETag is that item\'s 412, a current one applies', async () => {
      const content = await seed();
      const cs = content.translations[0];
      const [first, second] = [cs.unitIds[1], cs.unitIds[3]];
      const staleTag = (await app.http().get(`/api/units/${first}/`).expect(200)).headers.etag as string;
      await app.http().patch(`/api/units/${first}/`).set(...admin).send({ target: ['Mezitím'], state: 20 }).expect(200);
      const currentTag = (await app.http().get(`/api/units/${second}/`).expect(200)).headers.etag as string;
      expect(staleTag).toMatch(/^".+"$/);
      const response = await app
        .http()
        .post(bulkTranslate(content, 'cs'))
        .set(...admin)
        .send({
          items: [
            { id: Number(first), target: ['Přepsáno'], state: 20, if_match: staleTag },
            { id: Number(second), target: ['Podmíněně'], state: 20, if_match: currentTag },
          ],
        })
        .expect(200);
      expect(response.body.results[0]).toEqual({
        index: 0,
        status: 412,
        errors: { detail: 'Precondition failed: the resource has changed since it was read (If-Match does not match its current ETag).' },
      });
      expect(response.body.results[1]).toEqual({ index: 1, id: Number(second), status: 200 });
      const stored = await units(cs.id);
      expect(stored[1].target).toBe('Mezitím');
      expect(stored[3].target).toBe('Podmíněně');
    });

    it('names a string once per request and refuses more items than BULK_MAX_ITEMS', async () => {
      const content = await seed();
      const cs = content.translations[0];
      const twice = await app
        .http()
        .post(bulkTranslate(content, 'cs'))
        .set(...admin)
        .send({
          items: [
            { id: Number(cs.unitIds[1]), target: ['První'], state: 20 },
            { context: content.strings[1].context, target: ['Druhý'], state: 20 },
          ],
        })
        .expect(200);
      expect(twice.body.results[1]).toEqual({ index: 1, status: 400, errors: { non_field_errors: ['This string is already edited by item 0.'] } });
      const tooMany = Array.from({ length: MAX_ITEMS + 1 }, () => ({ id: Number(cs.unitIds[1]), target: ['x'], state: 20 }));
      await app
        .http()
        .post(bulkTranslate(content, 'cs'))
        .set(...admin)
        .send({ items: tooMany })
        .expect(400, { items: [`Ensure this field has no more than ${MAX_ITEMS} elements.`] });
      await app.http().post(bulkTranslate(content, 'cs')).set(...admin).send({ items: [] }).expect(400, { items: ['This list may not be empty.'] });
      await app.http().post(bulkTranslate(content, 'cs')).set(...admin).send({}).expect(400, { items: ['This field is required.'] });
      await app.http().post(bulkTranslate(content, 'cs')).set(...admin).send({ items: 'x' }).expect(400, { items: ['Expected a list of items but got type "str".'] });
      await app.http().post(bulkTranslate(content, 'cs')).set(...admin).send([1]).expect(400);
    });

    it('stores any text exactly, and keeps the checks of the edited strings and of the same strings in other components', async () => {
      const content = await seed();
      const cs = content.translations[0];
      // The same strings in another component of the project: `inconsistent` ties them to these.
      const other = await createTranslatedComponent(ds, { languages: ['cs'], units: 7, inProject: content.project });
      const otherCs = other.translations[0];
      const send = (items: unknown[]) => app.http().post(bulkTranslate(content, 'cs')).set(...admin).send({ items }).expect(200);
      await send([{ id: Number(cs.unitIds[3]), target: ['Konec!'], state: 20 }]);
      expect(await checkNames(cs.unitIds[3])).toEqual(['end_exclamation']);
      const before = await lastChangeId();
      // Quotes, backslashes, braces, commas and the word NULL: what an array literal has to escape.
      const quoted = 'Řekl "ahoj" \\ {a,b} NULL \\"';
      const response = await send([
        { id: Number(cs.unitIds[1]), target: [quoted], state: 20 },
        { id: Number(cs.unitIds[3]), target: ['Konec'], state: 20 },
        { id: Number(cs.unitIds[0]), target: ['Jiný'], state: 20 },
      ]);
      expect(response.body).toMatchObject({ updated: 3, failed: 0 });
      expect((await units(cs.id)).map((u) => u.target).slice(0, 4)).toEqual(['Jiný', quoted, `[cs] ${content.strings[2].source}`, 'Konec']);
      const history = await changesSince(cs.id, before);
      expect(history.map((c) => [c.action, c.target, c.old])).toEqual([
        [5, quoted, ''],
        [2, 'Konec', 'Konec!'],
        [2, 'Jiný', `[cs] ${content.strings[0].source}`],
      ]);
      expect(history[0].details).toEqual({ state: 20, old_state: 0, source: content.strings[1].source, context: content.strings[1].context });
      // The fixed text lost its check; the changed one now differs from the other component's translation.
      expect(await checkNames(cs.unitIds[3])).toEqual([]);
      expect(await checkNames(cs.unitIds[0])).toEqual(['inconsistent']);
      expect(await checkNames(otherCs.unitIds[0])).toEqual(['inconsistent']);
      await expectExactStatistics(cs.id);
    });

    it('runs alongside single edits of the same translation: every request succeeds and the statistics stay exact', async () => {
      const content = await seed({ units: 40 });
      const cs = content.translations[0];
      const items = cs.unitIds.slice(0, MAX_ITEMS).map((id, i) => ({ id: Number(id), target: [`Hromadně ${i}`], state: i % 3 === 0 ? 10 : 20 }));
      // Single edits of strings in the batch and outside it, sent while the batch runs.
      const patches = [0, 5, 31, 33, 35, 37].map((i) =>
        app.http().patch(`/api/units/${cs.unitIds[i]}/`).set(...admin).send({ target: [`Jednotlivě ${i}`], state: 20 }),
      );
      const [bulk, ...single] = await Promise.all([app.http().post(bulkTranslate(content, 'cs')).set(...admin).send({ items }), ...patches]);
      expect(bulk.status).toBe(200);
      expect(bulk.body).toMatchObject({ updated: MAX_ITEMS, failed: 0 });
      expect(single.map((response) => response.status)).toEqual([200, 200, 200, 200, 200, 200]);
      await expectExactStatistics(cs.id);
      const edited = await ds.query('SELECT count(*)::int AS n FROM changes WHERE translation_id = $1 AND action IN (2, 5, 37)', [cs.id]);
      // Every edit that changed a string is recorded once: the batch's, 4 singles outside it, and the two
      // singles inside it, which change their strings whichever ran first.
      expect(edited).toEqual([{ n: MAX_ITEMS + 6 }]);
    });

    it('permissions: anonymous 401, no rights 403, an invisible project or unknown translation 404, a locked component 403', async () => {
      // Protected: everyone sees it, only its teams may translate (signed-in users hold Power user on public projects).
      const content = await seed({ project: { accessControl: 1 } });
      const items = [{ id: Number(content.translations[0].unitIds[1]), target: ['x'], state: 20 }];
      await app.http().post(bulkTranslate(content, 'cs')).send({ items }).expect(401);
      await app
        .http()
        .post(bulkTranslate(content, 'cs'))
        .set(...authHeader(nobody.token))
        .send({ items })
        .expect(403, { detail: 'You do not have permission to perform this action.' });
      const hidden = await createTranslatedComponent(ds, { project: { accessControl: 100 } });
      await app.http().post(bulkTranslate(hidden, 'cs')).set(...authHeader(nobody.token)).send({ items }).expect(404, { detail: 'Not found.' });
      await app.http().post(bulkTranslate(content, 'fr')).set(...admin).send({ items }).expect(404);
      await ds.query('UPDATE components SET locked = true WHERE id = $1', [content.component.id]);
      await app
        .http()
        .post(bulkTranslate(content, 'cs'))
        .set(...authHeader(translator.token))
        .send({ items })
        .expect(403, { detail: 'This translation is currently locked.' });
      expect((await units(content.translations[0].id))[1].target).toBe('');
    });
  });

  describe('bulk edit', () => {
    const bulkPath = (content: SeededContent, code?: string) =>
      code === undefined ? `/api/components/${content.project.slug}/${content.component.slug}/bulk/` : `${translationPath(content, code)}/bulk/`;

    it('sets the state of matching needs-editing/translated/approved strings, one 32 per string, statistics exact', async () => {
      const content = await seed();
      const [cs, de] = content.translations;
      await ds.query('UPDATE units SET state = 30 WHERE id = $1', [cs.unitIds[2]]);
      await ds.query('UPDATE units SET state = 10, target = $2 WHERE id = $1', [cs.unitIds[1], 'Rozpracováno']);
      const before = await lastChangeId();
      const response = await app.http().post(bulkPath(content, 'cs')).set(...admin).send({ q: 'key:string', state: 10 }).expect(200);
      expectApiHeaders(response, 'POST, OPTIONS');
      expect(response.body).toEqual({ updated: 4 });
      const stored = await units(cs.id);
      // Translated and approved strings become needs editing; the empty ones and the one already there stay.
      expect(stored.map((u) => u.state)).toEqual([10, 10, 10, 0, 10, 0, 10]);
      expect(stored.map((u) => u.pending)).toEqual([true, false, true, false, true, false, true]);
      const history = await changesSince(cs.id, before);
      expect(history.map((c) => [c.action, String(c.unit_id)])).toEqual([
        [32, cs.unitIds[0]],
        [32, cs.unitIds[2]],
        [32, cs.unitIds[4]],
        [32, cs.unitIds[6]],
      ]);
      expect(history[1].details).toMatchObject({ state: 10, old_state: 30 });
      expect(await changesSince(de.id, before)).toEqual([]);
      expect((await units(de.id)).map((u) => u.state)).toEqual([20, 0, 20, 0, 20, 0, 20]);
      await expectExactStatistics(cs.id);
      const action = await app.http().get(`/api/changes/?action=32`).set(...admin).expect(200);
      expect(action.body.results.some((c: { action_name: string }) => c.action_name === 'Bulk status change')).toBe(true);
    });

    it('over a project: every visible translation, source strings untouched, search narrows it', async () => {
      const content = await seed();
      const [cs, de] = content.translations;
      const response = await app
        .http()
        .post(`/api/projects/${content.project.slug}/bulk/`)
        .set(...admin)
        .send({ q: 'key:dialog', state: 30 })
        .expect(200);
      // dialog.string3 and dialog.string6: translated only at index 2 (even) in both languages.
      expect(response.body).toEqual({ updated: 2 });
      expect((await units(cs.id)).map((u) => u.state)).toEqual([20, 0, 30, 0, 20, 0, 20]);
      expect((await units(de.id)).map((u) => u.state)).toEqual([20, 0, 30, 0, 20, 0, 20]);
      expect((await units(content.source.id)).every((u) => u.state === 100)).toBe(true);
      await expectExactStatistics(cs.id);
      await expectExactStatistics(de.id);
    });

    it('takes a regular expression in q (under the search time limit) and answers 400 for an invalid one', async () => {
      const content = await seed();
      const cs = content.translations[0];
      const response = await app.http().post(bulkPath(content, 'cs')).set(...admin).send({ q: 'key:r"string[15]$"', state: 10 }).expect(200);
      expect(response.body).toEqual({ updated: 2 });
      expect((await units(cs.id)).map((u) => u.state)).toEqual([10, 0, 20, 0, 10, 0, 20]);
      const bad = await app.http().post(bulkPath(content, 'cs')).set(...admin).send({ q: 'key:r"(unclosed"', state: 10 }).expect(400);
      expect(bad.body.q[0]).toMatch(/^Could not parse query string: Invalid regular expression/);
      await expectExactStatistics(cs.id);
    });

    it('review rules: without unit.review approved strings stay and nothing is approved', async () => {
      const content = await seed();
      const cs = content.translations[0];
      await ds.query('UPDATE units SET state = 30 WHERE id = $1', [cs.unitIds[0]]);
      await app.http().post(bulkPath(content, 'cs')).set(...authHeader(automator.token)).send({ q: 'key:string', state: 30 }).expect(200, { updated: 0 });
      const response = await app.http().post(bulkPath(content, 'cs')).set(...authHeader(automator.token)).send({ q: 'key:string', state: 10 }).expect(200);
      expect(response.body).toEqual({ updated: 3 });
      expect((await units(cs.id)).map((u) => u.state)).toEqual([30, 0, 10, 0, 10, 0, 10]);
      await expectExactStatistics(cs.id);
    });

    it('adds and removes flags on the source strings of the matches and rechecks their translations', async () => {
      const content = await seed();
      const cs = content.translations[0];
      const added = await app
        .http()
        .post(bulkPath(content))
        .set(...admin)
        .send({ q: 'key:dialog', add_flags: 'max-length:5, ignore-same' })
        .expect(200);
      expect(added.body).toEqual({ updated: 2 });
      const sources = await units(content.source.id);
      expect(sources.map((u) => u.extra_flags)).toEqual(['', '', 'max-length:5, ignore-same', '', '', 'max-length:5, ignore-same', '']);
      // dialog.string3 is translated in cs and longer than 5 characters: max-length now fails there.
      expect(await checkNames(cs.unitIds[2])).toContain('max-length');
      await expectExactStatistics(cs.id);
      await app.http().post(bulkPath(content)).set(...admin).send({ q: 'key:dialog', add_flags: 'ignore-same' }).expect(200, { updated: 0 });
      const removed = await app.http().post(bulkPath(content)).set(...admin).send({ q: 'key:string3', remove_flags: 'max-length' }).expect(200);
      expect(removed.body).toEqual({ updated: 1 });
      expect((await units(content.source.id)).map((u) => u.extra_flags)[2]).toBe('ignore-same');
      expect(await checkNames(cs.unitIds[2])).not.toContain('max-length');
      await expectExactStatistics(cs.id);
      // Flags need source.edit: the automator has translation.auto but not source.edit.
      await app.http().post(bulkPath(content)).set(...authHeader(automator.token)).send({ q: 'key:string', add_flags: 'read-only' }).expect(200, { updated: 0 });
    });

    it('validates the body: q, state, flags and labels', async () => {
      const content = await seed();
      const path = bulkPath(content, 'cs');
      await app.http().post(path).set(...admin).send({ state: 10 }).expect(400, { q: ['This field is required.'] });
      await app
        .http()
        .post(path)
        .set(...admin)
        .send({ q: 'a OR foo:b' })
        .expect(400, { q: ['Could not parse query string: Unknown search field: foo'] });
      await app.http().post(path).set(...admin).send({ q: 'key:x', state: 100 }).expect(400, { state: ['"100" is not a valid choice.'] });
      await app.http().post(path).set(...admin).send({ q: 'key:x', add_flags: ['x'] }).expect(400, { add_flags: ['Not a valid string.'] });
      await app
        .http()
        .post(path)
        .set(...admin)
        .send({ q: 'key:x', add_labels: ['Urgent'] })
        .expect(400, { add_labels: ['“Urgent” is not a valid value.'] });
      // Labels are named by id (ModelMultipleChoiceField); an id of no label of the project is not a choice.
      await app.http().post(path).set(...admin).send({ q: 'key:x', add_labels: [999999] })
        .expect(400, { add_labels: ['Select a valid choice. 999999 is not one of the available choices.'] });
      await app.http().post(path).set(...admin).send({ q: 'key:x', add_labels: [], remove_labels: [] }).expect(200, { updated: 0 });
    });

    it('permissions: anonymous 401, without translation.auto 403, invisible 404', async () => {
      const content = await seed({ project: { accessControl: 1 } });
      const body = { q: 'key:string', state: 10 };
      await app.http().post(bulkPath(content)).send(body).expect(401);
      await app.http().post(bulkPath(content)).set(...authHeader(translator.token)).send(body).expect(403, { detail: 'You do not have permission to perform this action.' });
      await app.http().post(`/api/projects/${content.project.slug}/bulk/`).set(...authHeader(nobody.token)).send(body).expect(403);
      const hidden = await createTranslatedComponent(ds, { project: { accessControl: 100 } });
      await app.http().post(`/api/projects/${hidden.project.slug}/bulk/`).set(...authHeader(nobody.token)).send(body).expect(404, { detail: 'Not found.' });
      await app.http().post('/api/projects/no-such-project/bulk/').set(...admin).send(body).expect(404);
      await app.http().post(`${translationPath(content, 'fr')}/bulk/`).set(...admin).send(body).expect(404);
      expect((await units(content.translations[0].id)).map((u) => u.state)).toEqual([20, 0, 20, 0, 20, 0, 20]);
      await app.http().get(`/api/projects/${content.project.slug}/bulk/`).set(...admin).expect(405);
    });
  });
});
