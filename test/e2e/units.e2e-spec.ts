import { DataSource } from 'typeorm';
import { calculateHash, hashToChecksum } from '../../src/common/hashing/weblate-hash';
import { createTranslatedComponent, SeededContent } from '../support/content-factories';
import { apiLink, authHeader, expectApiHeaders } from '../support/contract';
import { createTestApp, TEST_ADMIN_TOKEN, TestApp } from '../support/test-app';
import { createUserWithToken } from '../support/users-factories';

const UNIT_KEYS = [
  'id', 'translation', 'source', 'previous_source', 'target', 'id_hash', 'content_hash', 'location', 'context', 'note',
  'flags', 'extra_flags', 'explanation', 'labels', 'state', 'fuzzy', 'translated', 'approved', 'pending', 'position',
  'has_suggestion', 'has_comment', 'has_failing_check', 'num_words', 'source_unit', 'priority', 'web_url', 'url', 'timestamp',
];

interface Unit {
  id: number;
  position: number;
  state: number;
  target: string[];
  source: string[];
  context: string;
  source_unit: string;
  url: string;
  translation: string;
  pending: boolean;
}

describe('units', () => {
  let app: TestApp;
  let origin: string;
  let ds: DataSource;
  let content: SeededContent;
  let user: { token: string };
  const admin = authHeader(TEST_ADMIN_TOKEN);

  beforeAll(async () => {
    app = await createTestApp();
    origin = `http://127.0.0.1:${(app.glossa.app.getHttpServer().address() as { port: number }).port}`;
    ds = app.glossa.app.get(DataSource);
    content = await createTranslatedComponent(ds, { languages: ['cs', 'de'], units: 7, component: { manageUnits: true } });
    user = await createUserWithToken(ds, 'translator');
  });
  afterAll(async () => {
    await app.close();
  });

  const base = () => `/api/translations/${content.project.slug}/${content.component.slug}`;

  describe('reading', () => {
    it('lists a source translation\'s units: spec fields in order, positions 1..count, read-only state', async () => {
      const response = await app.http().get(`${base()}/en/units/`).expect(200);
      expectApiHeaders(response, 'GET, POST, HEAD, OPTIONS');
      expect(Object.keys(response.body)).toEqual(['count', 'next', 'previous', 'results']);
      const translation = await app.http().get(`${base()}/en/`).expect(200);
      expect(response.body.count).toBe(translation.body.total);
      const units: Unit[] = response.body.results;
      expect(units.map((u) => u.position)).toEqual([1, 2, 3, 4, 5, 6, 7]);
      for (const unit of units) {
        expect(Object.keys(unit)).toEqual(UNIT_KEYS);
        expect(unit).toMatchObject({ state: 100, translated: true, fuzzy: false, approved: false, pending: false, labels: [], priority: 100 });
        expect(unit.target).toEqual(unit.source);
        expect(unit.source_unit).toBe(unit.url);
        expect(unit.translation).toBe(apiLink(origin, `${base()}/en/`));
      }
    });

    it('writes id_hash and content_hash as exact 64-bit integers and builds web_url from the checksum', async () => {
      const response = await app.http().get(`${base()}/cs/units/`).expect(200);
      const first = response.body.results[0];
      const string = content.strings[0];
      expect(first.context).toBe(string.context);
      expect(response.text).toContain(`"id_hash":${calculateHash(string.context)},`);
      expect(response.text).toContain(`"content_hash":${calculateHash(string.source, string.context)},`);
      expect(first.web_url).toBe(
        `http://glossa.test/translate/${content.project.slug}/${content.component.slug}/cs/?checksum=${hashToChecksum(string.idHash)}`,
      );
      expect(first.url).toBe(apiLink(origin, `/api/units/${first.id}/`));
      expect(first.source_unit).toBe(apiLink(origin, `/api/units/${content.source.unitIds[0]}/`));
      expect(first.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
      expect(response.body.results.map((u: Unit) => u.state)).toEqual([20, 0, 20, 0, 20, 0, 20]);
      expect(response.body.results[1]).toMatchObject({ target: [''], translated: false });
      expect(typeof first.num_words).toBe('number');
    });

    it('paginates (50 by default) and keeps position order across pages', async () => {
      const first = await app.http().get(`${base()}/cs/units/?page_size=3`).expect(200);
      expect(first.body.next).toBe(`${origin}${base()}/cs/units/?format=api&page=2&page_size=3`);
      const third = await app.http().get(`${base()}/cs/units/?page_size=3&page=3`).expect(200);
      expect(third.body.results.map((u: Unit) => u.position)).toEqual([7]);
      await app.http().get(`${base()}/cs/units/?page=4&page_size=3`).expect(404, { detail: 'Invalid page.' });
      await app.http().get(`${base()}/fr/units/`).expect(404);
    });

    // The plain page is read by the auth guard's statement (UNITS_PAGE_READ, docs/performance.md "Units pages
    // read with the access statement"): the guard's answers come first, whatever the query says.
    it('answers a bad token and a bad page as before the page is read with the access statement', async () => {
      const bad = authHeader('not-a-token');
      for (const query of ['', '?page=2&page_size=3', '?page=abc', '?page=99', '?page=last', '?q=is:translated']) {
        await app.http().get(`${base()}/cs/units/${query}`).set(...bad).expect(401, { detail: 'Invalid token.' });
      }
      await app.http().get(`${base()}/cs/units/?page=abc`).expect(404, { detail: 'Invalid page.' });
      await app.http().get(`${base()}/cs/units/?page=0`).set(...admin).expect(404, { detail: 'Invalid page.' });
      await app.http().get(`${base()}/cs/units/?page=4&page_size=3`).set(...admin).expect(404, { detail: 'Invalid page.' });
      await app.http().get(`${base()}/fr/units/?page=2`).set(...admin).expect(404, { detail: 'Not found.' });
      const all = await app.http().get(`${base()}/cs/units/?page_size=1000`).set(...admin).expect(200);
      const last = await app.http().get(`${base()}/cs/units/?page=last&page_size=3`).set(...admin).expect(200);
      const second = await app.http().get(`${base()}/cs/units/?page=2&page_size=3`).set(...admin).expect(200);
      expect(second.body.results).toEqual(all.body.results.slice(3, 6));
      expect(last.body.results).toEqual(all.body.results.slice(6));
      expect(Object.keys(second.body)).toEqual(['count', 'next', 'previous', 'results']);
      expect(second.body.previous).toBe(`${origin}${base()}/cs/units/?format=api&page_size=3`);
      // The version tag of a page read by the guard names the same rows as before: 304 for the current tag.
      const tagged = await app.http().get(`${base()}/cs/units/?page=2&page_size=3`).set('If-None-Match', second.headers.etag).expect(304);
      expect(tagged.headers.etag).toBe(second.headers.etag);
    });

    it('filters with q and rejects what it cannot parse', async () => {
      const translated = await app.http().get(`${base()}/cs/units/?q=is:translated`).expect(200);
      expect(translated.body.count).toBe(4);
      const state = await app.http().get(`${base()}/cs/units/?q=${encodeURIComponent('state:<translated')}`).expect(200);
      expect(state.body.count).toBe(3);
      const word = await app.http().get(`${base()}/cs/units/?q=${encodeURIComponent('"more words" key:dialog')}`).expect(200);
      expect(word.body.results.map((u: Unit) => u.context)).toEqual(['dialog.string6']);
      const bad = await app.http().get(`${base()}/cs/units/?q=${encodeURIComponent('a OR foo:b')}`).expect(400);
      expectApiHeaders(bad, 'GET, POST, HEAD, OPTIONS');
      expect(bad.body).toEqual({ q: ['Could not parse query string: Unknown search field: foo'] });
    });

    it('lists all units by id with large pagination and shows one unit', async () => {
      const all = await app.http().get('/api/units/').expect(200);
      expectApiHeaders(all, 'GET, HEAD, OPTIONS');
      expect(all.body.count).toBe(21);
      expect(all.body.results).toHaveLength(21);
      const ids = all.body.results.map((u: Unit) => u.id);
      expect(ids).toEqual([...ids].sort((a, b) => a - b));
      const filtered = await app.http().get('/api/units/?q=is:untranslated').expect(200);
      expect(filtered.body.count).toBe(6);
      const big = await app.http().get('/api/units/?page_size=20000').expect(200);
      expect(big.body.results).toHaveLength(21);
      const one = await app.http().get(`/api/units/${ids[0]}/`).expect(200);
      expectApiHeaders(one, 'GET, PUT, PATCH, DELETE, HEAD, OPTIONS');
      expect(one.body).toEqual(all.body.results[0]);
      await app.http().get('/api/units/999999/').expect(404, { detail: 'Not found.' });
      await app.http().get('/api/units/abc/').expect(404);
      await app.http().post('/api/units/').set(...admin).send({}).expect(405);
    });

    it('resolves every link of a unit', async () => {
      const { body } = await app.http().get(`${base()}/de/units/?page_size=1`).expect(200);
      const unit = body.results[0];
      for (const link of [unit.url, unit.translation, unit.source_unit, body.next]) {
        const response = await app.http().get(new URL(link).pathname + new URL(link).search);
        expect([link, response.status]).toEqual([link, 200]);
      }
    });
  });

  describe('editing (PATCH/PUT)', () => {
    const unitUrl = (index: number, code = 'cs') => `/api/units/${content.translations.find((t) => t.languageCode === code)!.unitIds[index]}/`;

    it('needs target and state together, valid states and matching text', async () => {
      const onlyState = await app.http().patch(unitUrl(1)).set(...admin).send({ state: 20 }).expect(400);
      expect(onlyState.body).toEqual({ detail: 'Please provide both state and target for a partial update' });
      await app.http().patch(unitUrl(1)).set(...admin).send({ target: ['x'] }).expect(400);
      expect((await app.http().patch(unitUrl(1)).set(...admin).send({ target: ['x'], state: 100 }).expect(400)).body).toEqual({ detail: 'Invalid state' });
      expect((await app.http().patch(unitUrl(1)).set(...admin).send({ target: ['x'], state: 5 }).expect(400)).body).toEqual({ state: ['"5" is not a valid choice.'] });
      expect((await app.http().patch(unitUrl(1)).set(...admin).send({ target: ['x'], state: 0 }).expect(400)).body).toEqual({
        detail: 'Can not use empty state with non empty target',
      });
      expect((await app.http().patch(unitUrl(1)).set(...admin).send({ target: [''], state: 20 }).expect(400)).body).toEqual({
        detail: 'Can not use non empty state with empty target',
      });
      expect((await app.http().patch(unitUrl(1)).set(...admin).send({ target: ['a', 'b'], state: 20 }).expect(400)).body).toEqual({
        target: ['Number of plurals does not match'],
      });
      expect((await app.http().patch(unitUrl(1)).set(...admin).send({ target: 'x', state: 20 }).expect(400)).body).toEqual({
        target: ['Expected a list of items but got type "str".'],
      });
    });

    it('refuses anonymous callers, non-superusers, read-only source units and source properties on translations', async () => {
      await app.http().patch(unitUrl(1)).send({ target: ['x'], state: 20 }).expect(401);
      // Issue 3: on a public project every signed-in user may translate (built-in Users team, weblate-api.md
      // §2.5); a protected project needs a team, so an ordinary user gets the plain 403 there.
      await ds.query('UPDATE projects SET access_control = 1 WHERE id = $1', [content.project.id]);
      const normal = await app.http().patch(unitUrl(1)).set(...authHeader(user.token)).send({ target: ['x'], state: 20 }).expect(403);
      await ds.query('UPDATE projects SET access_control = 0 WHERE id = $1', [content.project.id]);
      expect(normal.body).toEqual({ detail: 'You do not have permission to perform this action.' });
      const readOnly = await app.http().patch(`/api/units/${content.source.unitIds[0]}/`).set(...admin).send({ target: ['x'], state: 20 }).expect(403);
      expect(readOnly.body).toEqual({ detail: 'The string is read-only.' });
      const explanation = await app.http().patch(unitUrl(1)).set(...admin).send({ explanation: 'Why' }).expect(403);
      expect(explanation.body).toEqual({ detail: 'Source strings properties can be set only on source strings' });
    });

    it('translates a string: write representation, pending, history and statistics in one go', async () => {
      const before = await app.http().get(`${base()}/cs/`).expect(200);
      const response = await app.http().patch(unitUrl(1)).set(...admin).send({ target: ['Nový text'], state: 20 }).expect(200);
      expectApiHeaders(response, 'GET, PUT, PATCH, DELETE, HEAD, OPTIONS');
      expect(response.body).toEqual({ target: ['Nový text'], state: 20, explanation: '', extra_flags: '', labels: [] });
      expect(Object.keys(response.body)).toEqual(['target', 'state', 'explanation', 'extra_flags', 'labels']);
      const unit = await app.http().get(unitUrl(1)).expect(200);
      expect(unit.body).toMatchObject({ target: ['Nový text'], state: 20, translated: true, pending: true });
      const after = await app.http().get(`${base()}/cs/`).expect(200);
      expect(after.body.translated).toBe(before.body.translated + 1);
      expect(after.body.translated_words).toBe(before.body.translated_words + content.strings[1].numWords);
      expect(after.body.last_author).toBe('admin');
      expect(after.body.last_change).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
      const changes = await app.http().get(`${base()}/cs/changes/`).expect(200);
      const mine = changes.body.results.filter((c: { user: string | null }) => c.user !== null);
      expect(mine.map((c: { action: number; action_name: string }) => [c.action, c.action_name])).toEqual([
        [45, 'New contributor'],
        [5, 'New translation'],
      ]);
      expect(mine[1]).toMatchObject({ unit: unit.body.url, target: 'Nový text', author: mine[1].user });
      // The same text and state again changes nothing and records nothing.
      await app.http().put(unitUrl(1)).set(...admin).send({ target: ['Nový text'], state: 20 }).expect(200);
      expect((await app.http().get(`${base()}/cs/changes/`).expect(200)).body.count).toBe(changes.body.count);
      // A further edit of a translated string is 2 "Translation changed"; needs editing is 37.
      await app.http().patch(unitUrl(1)).set(...admin).send({ target: ['Jiný text'], state: 10 }).expect(200);
      const fuzzy = await app.http().get(unitUrl(1)).expect(200);
      expect(fuzzy.body).toMatchObject({ state: 10, fuzzy: true, translated: false });
      const last = await app.http().get(`${base()}/cs/changes/?action=37`).expect(200);
      expect(last.body.count).toBe(1);
    });

    it('records 1 "Translation completed" when the last string gets translated', async () => {
      const de = content.translations.find((t) => t.languageCode === 'de')!;
      for (const index of [1, 3, 5]) {
        await app.http().patch(unitUrl(index, 'de')).set(...admin).send({ target: [`DE ${index}`], state: 20 }).expect(200);
      }
      const translation = await app.http().get(`${base()}/de/`).expect(200);
      expect(translation.body.translated).toBe(de.total);
      expect(translation.text).toContain('"translated_percent":100.0,');
      const completed = await app.http().get(`${base()}/de/changes/?action=1`).expect(200);
      expect(completed.body.count).toBe(1);
    });

    it('sets explanation and extra flags on source units', async () => {
      const response = await app.http().patch(`/api/units/${content.source.unitIds[2]}/`).set(...admin).send({ explanation: 'Shown in the title bar', extra_flags: 'max-length:20' }).expect(200);
      expect(response.body).toMatchObject({ explanation: 'Shown in the title bar', extra_flags: 'max-length:20', state: 100 });
    });
  });

  describe('adding and removing strings', () => {
    it('adds to the source language only, and only where the component manages strings', async () => {
      const onTarget = await app.http().post(`${base()}/cs/units/`).set(...admin).send({ key: 'new.key', value: ['New'] }).expect(403);
      expect(onTarget.body).toEqual({ detail: 'Add the string to the source language instead.' });
      const normal = await app.http().post(`${base()}/en/units/`).set(...authHeader(user.token)).send({ key: 'new.key', value: ['New'] }).expect(403);
      expect(normal.body).toEqual({ detail: 'Can not add unit' });
      const other = await createTranslatedComponent(ds, { languages: ['cs'], units: 1 });
      const disabled = await app.http()
        .post(`/api/translations/${other.project.slug}/${other.component.slug}/en/units/`)
        .set(...admin)
        .send({ key: 'x', value: ['X'] })
        .expect(403);
      expect(disabled.body).toEqual({ detail: 'Adding strings is disabled in the component configuration.' });
    });

    it('validates the body: required fields, lists, plurals, duplicates and key conflicts', async () => {
      const url = `${base()}/en/units/`;
      expect((await app.http().post(url).set(...admin).send({}).expect(400)).body).toEqual({
        key: ['This field is required.'],
        value: ['This field is required.'],
      });
      expect((await app.http().post(url).set(...admin).send({ key: 'k', value: 'v' }).expect(400)).body).toEqual({
        value: ['Expected a list of items but got type "str".'],
      });
      expect((await app.http().post(url).set(...admin).send({ key: 'k', value: ['a', 'b'] }).expect(400)).body).toEqual({
        value: ['Plurals are not supported by the file format.'],
      });
      expect((await app.http().post(url).set(...admin).send({ key: content.strings[0].context, value: ['Again'] }).expect(400)).body).toEqual({
        non_field_errors: ['This string seems to already exist.'],
      });
      const conflict = await app.http().post(url).set(...admin).send({ key: `${content.strings[0].context}.child`, value: ['Deeper'] }).expect(400);
      expect(Object.keys(conflict.body)).toEqual(['key']);
      expect((await app.http().post(url).set(...admin).send({ key: 'a..b', value: ['x'] }).expect(400)).body).toEqual({
        key: ['The key is not valid for this file format.'],
      });
      expect((await app.http().post(url).set(...admin).send({ key: 'k', value: ['v'], state: 100 }).expect(400)).body).toEqual({
        state: ['"100" is not a valid choice.'],
      });
    });

    it('adds a string to every translation and answers 200 with the new unit', async () => {
      const response = await app.http().post(`${base()}/en/units/`).set(...admin).send({ key: 'added.greeting', value: ['Hello there'] }).expect(200);
      expectApiHeaders(response, 'GET, POST, HEAD, OPTIONS');
      expect(Object.keys(response.body)).toEqual(UNIT_KEYS);
      expect(response.body).toMatchObject({ context: 'added.greeting', source: ['Hello there'], target: ['Hello there'], state: 100, position: 8, num_words: 2, pending: true });
      expect(response.text).toContain(`"id_hash":${calculateHash('added.greeting')},`);
      expect(response.body.source_unit).toBe(response.body.url);
      const cs = await app.http().get(`${base()}/cs/units/?q=key:added.greeting`).expect(200);
      expect(cs.body.results[0]).toMatchObject({ position: 8, state: 0, target: [''], source: ['Hello there'], source_unit: response.body.url });
      const translation = await app.http().get(`${base()}/cs/`).expect(200);
      expect(translation.body.total).toBe(8);
      const changes = await app.http().get(`/api/components/${content.project.slug}/${content.component.slug}/changes/?action=31`).expect(200);
      expect(changes.body.count).toBe(3);
    });

    it('removes a source string from every translation, renumbering the following positions', async () => {
      const normal = await app.http().delete(`/api/units/${content.source.unitIds[1]}/`).set(...authHeader(user.token)).expect(403);
      expect(normal.body).toEqual({ detail: 'Can not remove string' });
      const target = await app.http().delete(`/api/units/${content.translations[0].unitIds[1]}/`).set(...admin).expect(403);
      expect(target.body).toEqual({ detail: 'Add the string to the source language instead.' });
      await app.http().delete(`/api/units/${content.source.unitIds[1]}/`).set(...admin).expect(204);
      await app.http().get(`/api/units/${content.source.unitIds[1]}/`).expect(404);
      for (const code of ['en', 'cs', 'de']) {
        const units = await app.http().get(`${base()}/${code}/units/`).expect(200);
        expect(units.body.count).toBe(7);
        expect(units.body.results.map((u: Unit) => u.position)).toEqual([1, 2, 3, 4, 5, 6, 7]);
        expect(units.body.results.map((u: Unit) => u.context)).not.toContain(content.strings[1].context);
        expect((await app.http().get(`${base()}/${code}/`).expect(200)).body.total).toBe(7);
      }
      const removed = await app.http().get(`/api/components/${content.project.slug}/${content.component.slug}/changes/?action=63`).expect(200);
      expect(removed.body.count).toBe(3);
      expect(removed.body.results[0]).toMatchObject({ action_name: 'Removed string', unit: null });
    });
  });
});
