import { DataSource } from 'typeorm';
import { createTranslatedComponent, SeededContent } from '../support/content-factories';
import { authHeader, expectApiHeaders } from '../support/contract';
import { createTestApp, TEST_ADMIN_TOKEN, TestApp } from '../support/test-app';

// Conditional requests (issue 5, src/common/http/preconditions.ts): ETag on every 200 GET, If-None-Match → 304,
// If-Match on unit and component writes → 412 when stale.

const STRONG_TAG = /^"v?[A-Za-z0-9_-]{27}"$/;
/** A tag derived from row versions before the body is built (the units page of a translation). */
const VERSION_TAG = /^"v[A-Za-z0-9_-]{27}"$/;

describe('caching: ETag, If-None-Match and If-Match', () => {
  let app: TestApp;
  let ds: DataSource;
  let content: SeededContent;
  const admin = authHeader(TEST_ADMIN_TOKEN);
  const translationPath = () => `/api/translations/${content.project.slug}/${content.component.slug}/cs/`;
  const componentPath = () => `/api/components/${content.project.slug}/${content.component.slug}/`;
  const csUnit = (index: number) => content.translations.find((t) => t.languageCode === 'cs')!.unitIds[index];

  beforeAll(async () => {
    app = await createTestApp();
    ds = app.glossa.app.get(DataSource);
    content = await createTranslatedComponent(ds, { languages: ['cs', 'de'], units: 6, component: { manageUnits: true } });
  });

  afterAll(async () => {
    await app?.close();
  });

  describe('GET: ETag and If-None-Match', () => {
    it('sends a strong ETag on details and lists, stable while nothing changes', async () => {
      for (const path of [translationPath(), `${translationPath()}units/`, '/api/projects/', componentPath(), `/api/units/${csUnit(0)}/`, '/api/']) {
        const first = await app.http().get(path).expect(200);
        expect(first.headers['etag']).toMatch(STRONG_TAG);
        const second = await app.http().get(path).expect(200);
        expect(second.headers['etag']).toBe(first.headers['etag']);
      }
    });

    it('tags a translation units page by its rows\' versions: 304 without building it, a new tag after any change on it', async () => {
      const units = `${translationPath()}units/?page_size=3`;
      const first = await app.http().get(units).expect(200);
      const etag = first.headers['etag'];
      expect(etag).toMatch(VERSION_TAG);
      expect(first.body.results).toHaveLength(3);
      const cached = await app.http().get(units).set('If-None-Match', etag).expect(304);
      expect(cached.text ?? '').toBe('');
      expect(cached.headers['etag']).toBe(etag);
      expect(cached.headers['vary']).toBe('Accept');
      expect(cached.headers['allow']).toBe(first.headers['allow']);
      await app.http().head(units).set('If-None-Match', `W/${etag}`).expect(304);
      // Another page, another page size, another link host or format: other bodies, other tags.
      const page2 = await app.http().get(`${units}&page=2`).expect(200);
      const wider = await app.http().get(`${translationPath()}units/?page_size=4`).expect(200);
      const otherHost = await app.http().get(units).set('Host', 'glossa.example:8080').expect(200);
      expect(new Set([etag, page2.headers['etag'], wider.headers['etag'], otherHost.headers['etag']]).size).toBe(4);
      // A unit of the page changes: the old tag gets the full, new body.
      await app.http().patch(`/api/units/${csUnit(2)}/`).set(...admin).send({ target: ['Nové znění'], state: 20 }).expect(200);
      const changed = await app.http().get(units).set('If-None-Match', etag).expect(200);
      expect(changed.headers['etag']).toMatch(VERSION_TAG);
      expect(changed.headers['etag']).not.toBe(etag);
      expect(changed.body.results[2].target).toEqual(['Nové znění']);
      // A unit outside the page changes: page 1 keeps its tag, page 2 gets a new one.
      const pageOneTag = changed.headers['etag'];
      await app.http().patch(`/api/units/${csUnit(4)}/`).set(...admin).send({ target: ['Jinde'], state: 20 }).expect(200);
      await app.http().get(units).set('If-None-Match', pageOneTag).expect(304);
      await app.http().get(`${units}&page=2`).set('If-None-Match', page2.headers['etag']).expect(200);
    });

    it('answers 304 without a body when If-None-Match names the current tag (also weak form, lists and *)', async () => {
      const first = await app.http().get(translationPath()).expect(200);
      const etag = first.headers['etag'];
      const cached = await app.http().get(translationPath()).set('If-None-Match', etag).expect(304);
      expect(cached.text ?? '').toBe('');
      expect(cached.headers['etag']).toBe(etag);
      expect(cached.headers['vary']).toBe('Accept');
      expect(cached.headers['content-length'] ?? '0').toBe('0');
      await app.http().get(translationPath()).set('If-None-Match', `"other", W/${etag}`).expect(304);
      await app.http().get(translationPath()).set('If-None-Match', '*').expect(304);
      await app.http().head(translationPath()).set('If-None-Match', etag).expect(304);
      const other = await app.http().get(translationPath()).set('If-None-Match', '"something-else"').expect(200);
      expect(other.body.language_code).toBe('cs');
      expectApiHeaders(other, 'GET, DELETE, HEAD, OPTIONS');
    });

    it('gives a different tag once the resource changes, so the old one gets the full body again', async () => {
      const before = (await app.http().get(translationPath()).expect(200)).headers['etag'];
      await app.http().patch(`/api/units/${csUnit(1)}/`).set(...admin).send({ target: ['Změněno'], state: 20 }).expect(200);
      const after = await app.http().get(translationPath()).set('If-None-Match', before).expect(200);
      expect(after.headers['etag']).toMatch(STRONG_TAG);
      expect(after.headers['etag']).not.toBe(before);
    });

    it('puts no ETag on errors and never answers 304 to them', async () => {
      const missing = await app.http().get('/api/translations/nope/nope/cs/').set('If-None-Match', '*').expect(404);
      expect(missing.headers['etag']).toBeUndefined();
      expect(missing.body).toEqual({ detail: 'Not found.' });
    });
  });

  describe('writes: If-Match', () => {
    it('PATCH of a unit succeeds with the current tag and fails with 412 once it is stale, changing nothing', async () => {
      const path = `/api/units/${csUnit(2)}/`;
      const etag = (await app.http().get(path).expect(200)).headers['etag'];
      await app.http().patch(path).set(...admin).set('If-Match', etag).send({ target: ['První'], state: 20 }).expect(200);
      const stale = await app.http().patch(path).set(...admin).set('If-Match', etag).send({ target: ['Druhá'], state: 20 }).expect(412);
      expect(stale.body).toEqual({
        detail: 'Precondition failed: the resource has changed since it was read (If-Match does not match its current ETag).',
      });
      expect(stale.headers['content-type']).toBe('application/json');
      expect((await app.http().get(path).expect(200)).body.target).toEqual(['První']);
      // A weak tag never matches If-Match (strong comparison); * matches any current representation.
      await app.http().put(path).set(...admin).set('If-Match', `W/${etag}`).send({ target: ['Třetí'], state: 20 }).expect(412);
      await app.http().put(path).set(...admin).set('If-Match', '*').send({ target: ['Třetí'], state: 20 }).expect(200);
      const fresh = (await app.http().get(path).expect(200)).headers['etag'];
      await app.http().put(path).set(...admin).set('If-Match', `"x", ${fresh}`).send({ target: ['Čtvrtá'], state: 20 }).expect(200);
    });

    it('DELETE of a unit honours If-Match', async () => {
      const path = `/api/units/${content.source.unitIds[5]}/`;
      const etag = (await app.http().get(path).expect(200)).headers['etag'];
      await app.http().delete(path).set(...admin).set('If-Match', '"stale"').expect(412);
      await app.http().get(path).expect(200);
      await app.http().delete(path).set(...admin).set('If-Match', etag).expect(204);
      await app.http().get(path).expect(404);
    });

    it('PATCH and DELETE of a component honour If-Match; without the header writes stay unconditional', async () => {
      const etag = (await app.http().get(componentPath()).expect(200)).headers['etag'];
      const changed = await app.http().patch(componentPath()).set(...admin).set('If-Match', etag).send({ priority: 80 }).expect(200);
      expect(changed.body.priority).toBe(80);
      const stale = await app.http().patch(componentPath()).set(...admin).set('If-Match', etag).send({ priority: 120 }).expect(412);
      expect(Object.keys(stale.body)).toEqual(['detail']);
      expect((await app.http().get(componentPath()).expect(200)).body.priority).toBe(80);
      await app.http().patch(componentPath()).set(...admin).send({ priority: 120 }).expect(200);
      await app.http().delete(componentPath()).set(...admin).set('If-Match', etag).expect(412);
      await app.http().get(componentPath()).expect(200);
    });

    it('checks authentication before the precondition', async () => {
      await app.http().patch(`/api/units/${csUnit(3)}/`).set('If-Match', '"stale"').send({ target: ['x'], state: 20 }).expect(401);
    });
  });
});
