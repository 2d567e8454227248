import { DataSource } from 'typeorm';
import type { Component } from '../../src/modules/components/component.entity';
import { apiLink, authHeader, expectApiHeaders } from '../support/contract';
import { createComponent, createLanguages, createProject } from '../support/factories';
import { createTestApp, TEST_ADMIN_TOKEN, TestApp } from '../support/test-app';
import { createUserWithToken } from '../support/users-factories';

// Statistics (weblate-api.md §5.5–§5.8, §6.9, §11): translation, component (paginated), project and language
// objects, and the project's per-language array, all from the translations' stored counters.

const STATISTICS_KEYS = [
  'total', 'total_words', 'last_change', 'recent_changes', 'translated', 'translated_words', 'translated_percent',
  'translated_words_percent', 'translated_chars', 'translated_chars_percent', 'total_chars', 'fuzzy', 'fuzzy_percent',
  'failing', 'failing_percent', 'approved', 'approved_percent', 'readonly', 'readonly_percent', 'suggestions', 'comments',
];
const TRANSLATION_KEYS = [...STATISTICS_KEYS, 'code', 'name', 'url', 'translate_url', 'last_author'];
const NAMED_KEYS = [...STATISTICS_KEYS, 'name', 'url'];
const LANGUAGE_ITEM_KEYS = [
  'language', 'code', 'total', 'translated', 'translated_percent', 'total_words', 'translated_words',
  'translated_words_percent', 'total_chars', 'translated_chars', 'translated_chars_percent',
];
const READ_ONLY = 'GET, HEAD, OPTIONS';

interface Counters {
  total: number;
  words: number;
  chars: number;
  translated?: number;
  translatedWords?: number;
  translatedChars?: number;
  fuzzy?: number;
  approved?: number;
  readonly?: number;
  failing?: number;
  suggestions?: number;
  comments?: number;
  lastChange?: string | null;
  lastAuthorId?: number | null;
}

/** A translation row with its statistics columns set as the scan or the API would keep them. */
async function insertTranslation(db: DataSource, component: Component, languageId: number, code: string, c: Counters): Promise<number> {
  const [{ id }] = await db.query(
    `INSERT INTO translations (component_id, language_id, language_code, filename, is_source, total, total_words, total_chars,
        translated, translated_words, translated_chars, fuzzy, approved, readonly, failing_checks, have_suggestion,
        have_comment, last_change, last_author_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19) RETURNING id`,
    [
      component.id, languageId, code, `translations/${code}/app.json`, languageId === component.sourceLanguageId, c.total, c.words, c.chars,
      c.translated ?? 0, c.translatedWords ?? 0, c.translatedChars ?? 0, c.fuzzy ?? 0, c.approved ?? 0, c.readonly ?? 0,
      c.failing ?? 0, c.suggestions ?? 0, c.comments ?? 0, c.lastChange ?? null, c.lastAuthorId ?? null,
    ],
  );
  return id;
}

async function insertChange(db: DataSource, action: number, timestamp: string, scope: { projectId: number; componentId: number; translationId: number }): Promise<void> {
  await db.query(
    'INSERT INTO changes (action, timestamp, project_id, component_id, translation_id) VALUES ($1, $2, $3, $4, $5)',
    [action, timestamp, scope.projectId, scope.componentId, scope.translationId],
  );
}

describe('statistics', () => {
  let app: TestApp;
  let origin: string;

  beforeAll(async () => {
    app = await createTestApp();
    origin = `http://127.0.0.1:${(app.glossa.app.getHttpServer().address() as { port: number }).port}`;
    const db = app.glossa.app.get(DataSource);
    const languages = await createLanguages(db, ['en', 'cs', 'de', 'fr']);
    const [en, cs, de] = ['en', 'cs', 'de'].map((code) => languages.get(code)!.id);
    const jane = await createUserWithToken(db, 'jane', { fullName: 'Jane Doe' });

    const stats = await createProject(db, { name: 'Stats', slug: 'stats' });
    const one = await createComponent(db, stats, { name: 'One', slug: 'one' });
    const two = await createComponent(db, stats, { name: 'Two', slug: 'two' });
    await insertTranslation(db, one, en, 'en', { total: 4, words: 10, chars: 50, translated: 4, translatedWords: 10, translatedChars: 50, readonly: 4 });
    const oneCs = await insertTranslation(db, one, cs, 'cs', {
      total: 4, words: 10, chars: 50, translated: 3, translatedWords: 7, translatedChars: 30, fuzzy: 1, approved: 1, failing: 1,
      suggestions: 1, comments: 2, lastChange: '2024-05-03 10:00:00.123456+00', lastAuthorId: jane.id,
    });
    await insertTranslation(db, two, en, 'en', { total: 2, words: 3, chars: 20, translated: 2, translatedWords: 3, translatedChars: 20, readonly: 2 });
    const twoCs = await insertTranslation(db, two, cs, 'cs', { total: 2, words: 3, chars: 20 });

    const elsewhere = await createProject(db, { name: 'Elsewhere', slug: 'elsewhere' });
    const three = await createComponent(db, elsewhere, { name: 'Three', slug: 'three' });
    const threeCs = await insertTranslation(db, three, cs, 'cs', {
      total: 6, words: 6, chars: 60, translated: 6, translatedWords: 6, translatedChars: 60, lastChange: '2024-06-01 00:00:00+00',
    });
    await insertTranslation(db, three, de, 'de', { total: 6, words: 6, chars: 60 });
    await createProject(db, { name: 'Empty', slug: 'empty' });

    // Content changes (2) inside the six hours before each last change count, others and older ones do not.
    const inOne = { projectId: stats.id, componentId: one.id, translationId: oneCs };
    await insertChange(db, 2, '2024-05-03 10:00:00.123456+00', inOne);
    await insertChange(db, 2, '2024-05-03 09:00:00+00', inOne);
    await insertChange(db, 0, '2024-05-03 09:30:00+00', inOne);
    await insertChange(db, 2, '2024-05-03 03:00:00+00', inOne);
    await insertChange(db, 5, '2024-05-03 08:00:00+00', { projectId: stats.id, componentId: two.id, translationId: twoCs });
    const inThree = { projectId: elsewhere.id, componentId: three.id, translationId: threeCs };
    await insertChange(db, 2, '2024-05-03 09:59:00+00', inThree);
    await insertChange(db, 2, '2024-05-31 20:00:00+00', inThree);
  });

  afterAll(async () => {
    await app?.close();
  });

  describe('translation', () => {
    it('answers the statistics object with the translation keys', async () => {
      const response = await app.http().get('/api/translations/stats/one/cs/statistics/').expect(200);
      expectApiHeaders(response, READ_ONLY);
      expect(Object.keys(response.body)).toEqual(TRANSLATION_KEYS);
      expect(response.body).toEqual({
        total: 4, total_words: 10, last_change: '2024-05-03T10:00:00.123456Z', recent_changes: 2,
        translated: 3, translated_words: 7, translated_percent: 75, translated_words_percent: 70,
        translated_chars: 30, translated_chars_percent: 60, total_chars: 50, fuzzy: 1, fuzzy_percent: 25,
        failing: 1, failing_percent: 25, approved: 1, approved_percent: 25, readonly: 0, readonly_percent: 0,
        suggestions: 1, comments: 2, code: 'cs', name: 'Czech',
        url: 'http://glossa.test/projects/stats/one/cs/', translate_url: 'http://glossa.test/translate/stats/one/cs/',
        last_author: 'Jane Doe',
      });
      // Percentages keep their decimal point on the wire.
      expect(response.text).toContain('"translated_percent":75.0,"translated_words_percent":70.0,');
      expect(response.text).toContain('"readonly":0,"readonly_percent":0.0,');
    });

    it('is 404 for unknown translations and 405 for writes', async () => {
      for (const url of ['/api/translations/stats/one/de/statistics/', '/api/translations/stats/nope/cs/statistics/', '/api/translations/nope/one/cs/statistics/']) {
        const response = await app.http().get(url).expect(404);
        expect(response.body).toEqual({ detail: 'Not found.' });
        expectApiHeaders(response, READ_ONLY);
      }
      const post = await app.http().post('/api/translations/stats/one/cs/statistics/').set(...authHeader(TEST_ADMIN_TOKEN)).expect(405);
      expect(post.body).toEqual({ detail: 'Method "POST" not allowed.' });
      expectApiHeaders(post, READ_ONLY);
    });
  });

  describe('component', () => {
    it('answers a paginated list of per-translation objects ordered by translation id', async () => {
      const response = await app.http().get('/api/components/stats/one/statistics/').expect(200);
      expectApiHeaders(response, READ_ONLY);
      expect(Object.keys(response.body)).toEqual(['count', 'next', 'previous', 'results']);
      expect(response.body).toMatchObject({ count: 2, next: null, previous: null });
      expect(response.body.results.map((item: { code: string }) => item.code)).toEqual(['en', 'cs']);
      const [english, czech] = response.body.results;
      expect(Object.keys(english)).toEqual(TRANSLATION_KEYS);
      expect(english).toEqual({
        total: 4, total_words: 10, last_change: null, recent_changes: 0, translated: 4, translated_words: 10,
        translated_percent: 100, translated_words_percent: 100, translated_chars: 50, translated_chars_percent: 100,
        total_chars: 50, fuzzy: 0, fuzzy_percent: 0, failing: 0, failing_percent: 0, approved: 0, approved_percent: 0,
        readonly: 4, readonly_percent: 100, suggestions: 0, comments: 0, code: 'en', name: 'English',
        url: 'http://glossa.test/projects/stats/one/en/', translate_url: 'http://glossa.test/translate/stats/one/en/',
        last_author: null,
      });
      const single = await app.http().get('/api/translations/stats/one/cs/statistics/').expect(200);
      expect(czech).toEqual(single.body);
    });

    it('pages with next/previous and 404 past the end or for unknown components', async () => {
      const first = await app.http().get('/api/components/stats/one/statistics/?page_size=1').expect(200);
      expect(first.body.results.map((item: { code: string }) => item.code)).toEqual(['en']);
      expect(first.body.next).toBe(`${origin}/api/components/stats/one/statistics/?format=api&page=2&page_size=1`);
      const second = await app.http().get(new URL(first.body.next).pathname + new URL(first.body.next).search).expect(200);
      expect(second.body.results.map((item: { code: string }) => item.code)).toEqual(['cs']);
      expect(second.body.next).toBeNull();
      expect(second.body.previous).toBe(`${origin}/api/components/stats/one/statistics/?format=api&page_size=1`);
      await app.http().get('/api/components/stats/one/statistics/?page=3').expect(404, { detail: 'Invalid page.' });
      const missing = await app.http().get('/api/components/stats/nope/statistics/').expect(404);
      expectApiHeaders(missing, READ_ONLY);
    });
  });

  describe('project', () => {
    it('sums every translation of the project', async () => {
      const response = await app.http().get('/api/projects/stats/statistics/').expect(200);
      expectApiHeaders(response, READ_ONLY);
      expect(Object.keys(response.body)).toEqual(NAMED_KEYS);
      expect(response.body).toEqual({
        total: 12, total_words: 26, last_change: '2024-05-03T10:00:00.123456Z', recent_changes: 3,
        translated: 9, translated_words: 20, translated_percent: 75, translated_words_percent: 76.9,
        translated_chars: 100, translated_chars_percent: 71.4, total_chars: 140, fuzzy: 1, fuzzy_percent: 8.3,
        failing: 1, failing_percent: 8.3, approved: 1, approved_percent: 8.3, readonly: 6, readonly_percent: 50,
        suggestions: 1, comments: 2, name: 'Stats', url: 'http://glossa.test/projects/stats/',
      });
      expect(response.text).toContain('"readonly_percent":50.0,');
    });

    it('reports an empty project as complete, and 404 for unknown projects', async () => {
      const response = await app.http().get('/api/projects/empty/statistics/').expect(200);
      expect(response.text).toBe(
        '{"total":0,"total_words":0,"last_change":null,"recent_changes":0,"translated":0,"translated_words":0,' +
          '"translated_percent":100.0,"translated_words_percent":100.0,"translated_chars":0,"translated_chars_percent":100.0,' +
          '"total_chars":0,"fuzzy":0,"fuzzy_percent":0.0,"failing":0,"failing_percent":0.0,"approved":0,"approved_percent":0.0,' +
          '"readonly":0,"readonly_percent":0.0,"suggestions":0,"comments":0,"name":"Empty","url":"http://glossa.test/projects/empty/"}',
      );
      await app.http().get('/api/projects/nope/statistics/').expect(404, { detail: 'Not found.' });
    });
  });

  describe('language', () => {
    it('sums every translation into the language across projects', async () => {
      const response = await app.http().get('/api/languages/cs/statistics/').expect(200);
      expectApiHeaders(response, READ_ONLY);
      expect(Object.keys(response.body)).toEqual(NAMED_KEYS);
      expect(response.body).toEqual({
        total: 12, total_words: 19, last_change: '2024-06-01T00:00:00.000000Z', recent_changes: 1,
        translated: 9, translated_words: 13, translated_percent: 75, translated_words_percent: 68.4,
        translated_chars: 90, translated_chars_percent: 69.2, total_chars: 130, fuzzy: 1, fuzzy_percent: 8.3,
        failing: 1, failing_percent: 8.3, approved: 1, approved_percent: 8.3, readonly: 0, readonly_percent: 0,
        suggestions: 1, comments: 2, name: 'Czech', url: 'http://glossa.test/languages/cs/',
      });
    });

    it('hides languages nobody translates into from non-administrators, like the language itself', async () => {
      await app.http().get('/api/languages/fr/statistics/').expect(404, { detail: 'Not found.' });
      const admin = await app.http().get('/api/languages/fr/statistics/').set(...authHeader(TEST_ADMIN_TOKEN)).expect(200);
      expect(admin.body).toMatchObject({ total: 0, translated_percent: 100, name: 'French', url: 'http://glossa.test/languages/fr/' });
      await app.http().get('/api/languages/xx-nope/statistics/').set(...authHeader(TEST_ADMIN_TOKEN)).expect(404);
    });
  });

  describe('project languages', () => {
    it('answers a plain array of per-language sums, ordered by language name', async () => {
      const response = await app.http().get('/api/projects/stats/languages/').expect(200);
      expectApiHeaders(response, READ_ONLY);
      expect(Array.isArray(response.body)).toBe(true);
      expect(response.body.map((item: object) => Object.keys(item))).toEqual([LANGUAGE_ITEM_KEYS, LANGUAGE_ITEM_KEYS]);
      expect(response.text).toBe(
        '[{"language":"Czech","code":"cs","total":6,"translated":3,"translated_percent":50.0,"total_words":13,' +
          '"translated_words":7,"translated_words_percent":53.8,"total_chars":70,"translated_chars":30,' +
          '"translated_chars_percent":42.8},' +
          '{"language":"English","code":"en","total":6,"translated":6,"translated_percent":100.0,"total_words":13,' +
          '"translated_words":13,"translated_words_percent":100.0,"total_chars":70,"translated_chars":70,' +
          '"translated_chars_percent":100.0}]',
      );
    });

    it('answers [] for a project without translations and 404 for unknown projects', async () => {
      const empty = await app.http().get('/api/projects/empty/languages/').expect(200);
      expect(empty.text).toBe('[]');
      const missing = await app.http().get('/api/projects/nope/languages/').expect(404);
      expectApiHeaders(missing, READ_ONLY);
      await app.http().post('/api/projects/stats/languages/').set(...authHeader(TEST_ADMIN_TOKEN)).expect(405);
    });
  });

  it('links statistics from the objects that own them', async () => {
    const project = await app.http().get('/api/projects/stats/').expect(200);
    expect(project.body.statistics_url).toBe(apiLink(origin, '/api/projects/stats/statistics/'));
    expect(project.body.languages_url).toBe(apiLink(origin, '/api/projects/stats/languages/'));
    const component = await app.http().get('/api/components/stats/one/').expect(200);
    expect(component.body.statistics_url).toBe(apiLink(origin, '/api/components/stats/one/statistics/'));
  });
});
