import { Client } from 'pg';
import type { Response } from 'supertest';
import { DataSource } from 'typeorm';
import { createTranslatedComponent, type SeededContent } from '../support/content-factories';
import { expectApiHeaders } from '../support/contract';
import { createTestApp, TestApp } from '../support/test-app';
import { createUserWithToken } from '../support/users-factories';
import { refreshTranslationStatistics } from '../../src/sync/translation-statistics';

// Issue 13 item 5: Weblate's search language (checks-suggestions-search.md §7), one table of queries with the
// units each must find, run against /api/units/ and against a translation's units (where only the cs rows
// of the expectation apply), plus bad queries with their 400 messages. The fixture: five strings k1..k5 in
// an English source and a Czech translation, with their own texts, states, notes and history.

interface Fixture {
  content: SeededContent;
  /** Unit ids by `<language>:<key>`. */
  ids: Record<string, string>;
}

const EN = ['en:k1', 'en:k2', 'en:k3', 'en:k4', 'en:k5'];
const CS = ['cs:k1', 'cs:k2', 'cs:k3', 'cs:k4', 'cs:k5'];
const ALL = [...EN, ...CS];

/** [query, expected matches]; a query may depend on the fixture (ids, slugs). */
const TABLE: Array<[string | ((f: Fixture) => string), string[]]> = [
  // bare words and phrases: source, target or context, case-insensitive; words ANDed
  ['hello', ['en:k1', 'cs:k1']],
  ['"HELLO world"', ['en:k1', 'cs:k1']],
  ['"world hello"', []],
  ['hello ahoj', ['cs:k1']],
  ['https://example.com', ['en:k5', 'cs:k5']],
  ['k3', ['en:k3', 'cs:k3']],
  ['r"^Open <b>"', ['en:k3', 'cs:k3']],
  // boolean operators, precedence (NOT > AND > OR; juxtaposition is AND, 5.10.2+) and parentheses
  ['Ahoj OR chyba', ['cs:k1', 'cs:k4']],
  ['ahoj and world', ['cs:k1']],
  ['Ahoj file OR ERROR', ['en:k4', 'cs:k4']],
  ['Ahoj (file OR world)', ['cs:k1']],
  ['NOT state:>=translated', ['cs:k2', 'cs:k3']],
  ['(hello OR save) AND NOT language:en', ['cs:k1', 'cs:k2']],
  ['not (is:translated or has:plural)', ['cs:k3']],
  // text fields: substring, exact (case-sensitive), regular expression, operators as text
  ['source:FILE', ['en:k2', 'en:k3', 'cs:k2', 'cs:k3']],
  ['source:=ERROR', ['en:k4', 'cs:k4']],
  ['source:=error', []],
  ['source:r"^[A-Z]+$"', ['en:k4', 'cs:k4']],
  ['target:r"(?i)^chyba$"', ['cs:k4']],
  ['target:r"^chyba$"', []],
  ['target:<b>', ['en:k3', 'cs:k3']],
  ["target:'světe'", ['cs:k1']],
  ['context:k1', ['en:k1', 'cs:k1']],
  ['key:=k2', ['en:k2', 'cs:k2']],
  ['note:GREETING', ['cs:k1']],
  ['location:app.c', ['en:k1', 'cs:k1']],
  ['explanation:start', ['en:k1', 'cs:k1']],
  // numbers: comparisons, ranges, id lists
  ['priority:<100', ['en:k2', 'cs:k2']],
  ['priority:>=100', ['en:k1', 'en:k3', 'en:k4', 'en:k5', 'cs:k1', 'cs:k3', 'cs:k4', 'cs:k5']],
  [(f) => `id:${f.ids['cs:k1']},${f.ids['en:k4']}`, ['en:k4', 'cs:k1']],
  [(f) => `id:${f.ids['cs:k5']}`, ['cs:k5']],
  ['position:[2 to 3]', ['en:k2', 'en:k3', 'cs:k2', 'cs:k3']],
  ['position:>4', ['en:k5', 'cs:k5']],
  ['labels_count:0', ALL],
  // states (§7.5) with comparisons and ranges
  ['state:>=translated', [...EN, 'cs:k1', 'cs:k4', 'cs:k5']],
  ['state:<translated', ['cs:k2', 'cs:k3']],
  ['state:needs-editing', ['cs:k3']],
  ['state:fuzzy', ['cs:k3']],
  ['state:empty', ['cs:k2']],
  ['state:approved', ['cs:k4']],
  ['state:read-only', EN],
  ['state:[10 to 20]', ['cs:k1', 'cs:k3', 'cs:k5']],
  ['state:<=20 state:>0', ['cs:k1', 'cs:k3', 'cs:k5']],
  ['source_state:read-only', ALL],
  ['source_state:<translated', []],
  // has: (§7.6)
  ['has:plural', ['en:k2', 'cs:k2']],
  ['has:context', ALL],
  ['has:note', ['cs:k1']],
  ['has:location', ['en:k1', 'cs:k1']],
  ['has:explanation', ['en:k1', 'cs:k1']],
  ['has:translation', [...EN, 'cs:k1', 'cs:k4', 'cs:k5']],
  ['has:flags', []],
  // is: (§7.7) and pending:
  ['is:translated', [...EN, 'cs:k1', 'cs:k4', 'cs:k5']],
  ['is:untranslated', ['cs:k2', 'cs:k3']],
  ['is:fuzzy', ['cs:k3']],
  ['is:approved', ['cs:k4']],
  ['is:read-only', EN],
  ['is:pending', ['cs:k3']],
  ['pending:yes', ['cs:k3']],
  ['pending:OFF', [...EN, 'cs:k1', 'cs:k2', 'cs:k4', 'cs:k5']],
  ['is:automatically-translated', ['cs:k5']],
  ['is:translated AND NOT has:check', [...EN, 'cs:k1', 'cs:k4', 'cs:k5']],
  // dates (§7.3) and change filters: one AND group = one change event
  ['changed:2024', ['cs:k1', 'cs:k4', 'cs:k5']],
  ['changed:2024-03', ['cs:k1']],
  ['changed:2024-03-01', ['cs:k1']],
  ['changed:>2024-03-01', ['cs:k1', 'cs:k4']],
  ['changed:<2024-03-01', ['en:k2', 'cs:k1', 'cs:k3', 'cs:k5']],
  ['changed:<2024-03-01T10:00', ['en:k2', 'cs:k3', 'cs:k5']],
  ['changed:"March 1, 2024"', ['cs:k1']],
  ['changed:[2024-01-01 to 2024-03-01]', ['cs:k1', 'cs:k5']],
  ['changed:>=yesterday', []],
  ['changed_by:JANE', ['cs:k1']],
  ['changed_by:=Jane', []],
  ['changed_by:""', ['en:k2', 'cs:k4', 'cs:k5']],
  ['changed:2024 changed_by:jane', ['cs:k1']],
  ['changed:2023 changed_by:jane', []],
  ['changed:2023 OR changed_by:jane', ['cs:k1', 'cs:k3']],
  ['change_time:2023', ['cs:k3']],
  ['change_action:marked-for-edit', ['cs:k3']],
  ['change_action:"Automatic translation"', ['cs:k5']],
  ['change_time:2024 change_action:marked-for-edit', []],
  ['last_changed:>=2024-06-01', ['cs:k4']],
  // The source string of k2 changed in 2022 (30 on its source unit): its translations match too.
  ['source_changed:2022', ['en:k2', 'cs:k2']],
  ['source_changed:>=2000', ALL],
  ['source_changed:<2000', []],
  ['source_changed:>=2022-06-01 AND language:cs', ['cs:k1', 'cs:k3', 'cs:k4', 'cs:k5']],
  ['added:>=2000', ALL],
  ['added:<2000', []],
  // scope: language, project, component, path
  ['language:CS', CS],
  ['language:=cs', CS],
  [(f) => `project:${f.content.project.slug.toUpperCase()}`, ALL],
  [(f) => `component:${f.content.component.slug.slice(1, -1)}`, ALL],
  [(f) => `component:=${f.content.component.slug}x`, []],
  [(f) => `path:${f.content.project.slug}/${f.content.component.slug}/cs`, CS],
  [(f) => `path:${f.content.project.slug}/-/en`, EN],
  [(f) => `path:${f.content.project.slug}`, ALL],
  ['path:no-such-project', []],
  // features whose data lives in other modules (checks, suggestions, comments, labels, screenshots):
  // there is none, so nothing matches (the field registry's defaults)
  ['has:suggestion', []],
  ['has:comment', []],
  ['has:check', []],
  ['has:dismissed-check', []],
  ['has:label', []],
  ['check:same', []],
  ['dismissed_check:same', []],
  ['suggestion:hello', []],
  ['suggestion_author:jane', []],
  ['comment:"please check"', []],
  ['resolved_comment:x', []],
  ['comment_author:jane', []],
  ['label:x', []],
  ['screenshot:x', []],
  ['NOT check:same', ALL],
];

/** [query, 400 message after "Could not parse query string: "]. */
const BAD: Array<[string, string]> = [
  ['foo:bar', 'Unknown search field: foo'],
  ['state:bogus', 'Unsupported state: bogus'],
  ['state:constructor', 'Unsupported state: constructor'],
  ['source_state:>=__proto__', 'Unsupported state: __proto__'],
  ['is:nothing', 'Unsupported lookup for is: nothing'],
  ['has:nothing', 'Unsupported lookup for has: nothing'],
  ['priority:high', 'Could not parse numeric value: high'],
  ['id:1,x', 'Could not parse numeric value: x'],
  ['pending:maybe', 'Could not parse boolean value: maybe'],
  ['changed:soon', 'Could not parse timestamp: soon'],
  ['changed:2024-02-30', 'Could not parse timestamp: 2024-02-30'],
  ['change_action:dance', 'Unknown change action: dance'],
  ['(hello OR world', 'Failed to parse the query string: unbalanced parenthesis at position 1'],
  ['hello)', 'Failed to parse the query string: unbalanced parenthesis at position 6'],
  ['"hello', 'Failed to parse the query string: unterminated quoted string at position 1'],
  ['hello OR', 'Failed to parse the query string: unexpected end of the query'],
  ['source:', 'Failed to parse the query string: expected a value after "source:" at position 8'],
  ['source:r"("', 'Invalid regular expression: invalid regular expression: parentheses () not balanced'],
  [`source:r"${'a'.repeat(501)}"`, 'Invalid regular expression: longer than 500 characters'],
  ['a '.repeat(1001), 'Search query is too complex.'],
  [`${'('.repeat(17)}a${')'.repeat(17)}`, 'Search query is too complex.'],
  [Array.from({ length: 65 }, (_, i) => `w${i}`).join(' '), 'Search query is too complex.'],
];

describe('search language (issue 13 item 5)', () => {
  let app: TestApp;
  const fixture = {} as Fixture;
  const key = (unit: { translation: string; context: string }): string => `${/\/translations\/[^/]+\/[^/]+\/([^/?]+)/.exec(unit.translation)![1]}:${unit.context}`;
  const base = (): string => `/api/translations/${fixture.content.project.slug}/${fixture.content.component.slug}/cs/units/`;

  beforeAll(async () => {
    app = await createTestApp();
    const ds = app.glossa.app.get(DataSource);
    fixture.content = await createTranslatedComponent(ds, { languages: ['cs'], units: 5 });
    const { source, translations } = fixture.content;
    const cs = translations[0];
    fixture.ids = {};
    // Texts per string: [source, cs target, cs state, priority]; plural forms are joined with \x1e\x1e.
    const strings: Array<[string, string, number, number]> = [
      ['Hello world', 'Ahoj světe', 20, 100],
      ['Save file\x1e\x1eSave files', '', 0, 50],
      ['Open <b>file</b>', 'Otevřít <b>soubor</b>', 10, 100],
      ['ERROR', 'CHYBA', 30, 100],
      ['Visit https://example.com', 'Navštivte https://example.com', 20, 100],
    ];
    for (let i = 0; i < 5; i += 1) {
      const [text, target, state, priority] = strings[i];
      const [enId, csId] = [source.unitIds[i], cs.unitIds[i]];
      fixture.ids[`en:k${i + 1}`] = enId;
      fixture.ids[`cs:k${i + 1}`] = csId;
      await ds.query(`UPDATE units SET context = $2, source = $3, target = $3, state = 100, priority = $4, position = $5, note = '', location = '', explanation = '', extra_flags = '', pending = false WHERE id = $1`, [enId, `k${i + 1}`, text, priority, i + 1]);
      await ds.query(`UPDATE units SET context = $2, source = $3, target = $4, state = $5, priority = $6, position = $7, note = '', location = '', explanation = '', extra_flags = '', pending = $8 WHERE id = $1`, [
        csId,
        `k${i + 1}`,
        text,
        target,
        state,
        priority,
        i + 1,
        i === 2,
      ]);
    }
    await ds.query(`UPDATE units SET location = 'app.c:10' WHERE id = ANY($1::bigint[])`, [[fixture.ids['en:k1'], fixture.ids['cs:k1']]]);
    await ds.query(`UPDATE units SET note = 'Greeting note' WHERE id = $1`, [fixture.ids['cs:k1']]);
    await ds.query(`UPDATE units SET explanation = 'Shown at start' WHERE id = $1`, [fixture.ids['en:k1']]);
    // The states were written directly: the translations' statistics follow, as every write path keeps them
    // (searches such as state:approved take their count from them, units-read.service.ts readCountedPage).
    await refreshTranslationStatistics(ds.manager, [source.id, cs.id]);
    // History: jane edits k1, bob marks k3 for edit, an authorless edit of k4, an automatic translation of k5,
    // and the source string of k2 changed (a rescan's 30 on the source unit).
    const jane = await createUserWithToken(ds, 'jane');
    const bob = await createUserWithToken(ds, 'bob');
    await ds.query('DELETE FROM changes WHERE unit_id = ANY($1::bigint[])', [Object.values(fixture.ids)]);
    const history: Array<[string, number, number | null, string]> = [
      ['cs:k1', 2, jane.id, '2024-03-01T10:00:00Z'],
      ['cs:k3', 37, bob.id, '2023-06-01T08:00:00Z'],
      ['cs:k4', 2, null, '2024-06-01T12:00:00Z'],
      ['cs:k5', 6, null, '2024-02-01T09:00:00Z'],
      ['en:k2', 30, null, '2022-05-01T00:00:00Z'],
    ];
    for (const [unit, action, user, at] of history) {
      await ds.query('INSERT INTO changes (action, unit_id, translation_id, user_id, author_id, timestamp) VALUES ($1, $2, $3, $4, $4, $5)', [action, fixture.ids[unit], cs.id, user, at]);
    }
  });
  afterAll(async () => {
    await app?.close();
  });

  async function search(path: string, q: string): Promise<Response> {
    return app.http().get(`${path}?page_size=100&q=${encodeURIComponent(q)}`);
  }

  for (const [query, expected] of TABLE) {
    const label = typeof query === 'string' ? query : query.toString().replace(/^\(f\) => /, '');
    it(`${label} -> ${expected.length === ALL.length ? 'all' : expected.join(' ') || 'nothing'}`, async () => {
      const q = typeof query === 'string' ? query : query(fixture);
      const all = await search('/api/units/', q);
      expect({ status: all.status, body: all.status === 200 ? undefined : all.body }).toEqual({ status: 200, body: undefined });
      expect(all.body.results.map(key).sort()).toEqual([...expected].sort());
      expect(all.body.count).toBe(expected.length);
      const inTranslation = await search(base(), q);
      expect(inTranslation.status).toBe(200);
      const csExpected = expected.filter((name) => name.startsWith('cs:'));
      expect(inTranslation.body.results.map(key)).toEqual(CS.filter((name) => csExpected.includes(name)));
    });
  }

  for (const [query, message] of BAD) {
    it(`rejects ${query.slice(0, 40)} with 400 "${message}"`, async () => {
      for (const path of ['/api/units/', base()]) {
        const response = await search(path, query);
        expect({ path, status: response.status, body: response.body }).toEqual({ path, status: 400, body: { q: [`Could not parse query string: ${message}`] } });
        expectApiHeaders(response, path === '/api/units/' ? 'GET, HEAD, OPTIONS' : 'GET, POST, HEAD, OPTIONS');
      }
    });
  }

  it('filters file downloads with the same language, and rejects the same bad queries', async () => {
    const file = `/api/translations/${fixture.content.project.slug}/${fixture.content.component.slug}/cs/file/?format=csv&q=`;
    const found = await app.http().get(file + encodeURIComponent('target:r"(?i)chyba" OR changed_by:jane')).expect(200);
    expect(found.text).toContain('CHYBA');
    expect(found.text).toContain('Ahoj');
    expect(found.text).not.toContain('Otevřít');
    const bad = await app.http().get(file + encodeURIComponent('source:r"("')).expect(400);
    expect(bad.body).toEqual({ q: ['Could not parse query string: Invalid regular expression: invalid regular expression: parentheses () not balanced'] });
  });
});

// The embedded PGlite enforces no statement timeout: the time limit of regular expressions needs PostgreSQL.
(process.env.GLOSSA_TEST_SERVER_URL ? describe : describe.skip)('time limit of regular-expression searches', () => {
  let app: TestApp;
  let content: SeededContent;

  beforeAll(async () => {
    app = await createTestApp({ SEARCH_REGEX_TIMEOUT_MS: '300', STATEMENT_TIMEOUT_MS: '60000' });
    content = await createTranslatedComponent(app.glossa.app.get(DataSource), { languages: ['cs'], units: 3 });
  });
  afterAll(async () => {
    await app?.close();
  });

  it('answers 400 "Invalid regular expression: …" when a regex search outlives SEARCH_REGEX_TIMEOUT_MS, then serves it', async () => {
    // A lock the test holds on units keeps the search waiting as long as the test wants: deterministic on any machine.
    const holder = new Client({ connectionString: app.database.url });
    await holder.connect();
    const q = encodeURIComponent('source:r"^Sample string number [0-9]+"');
    const paths = [`/api/units/?q=${q}`, `/api/translations/${content.project.slug}/${content.component.slug}/cs/units/?q=${q}`];
    try {
      await holder.query('BEGIN');
      await holder.query('LOCK TABLE units IN ACCESS EXCLUSIVE MODE');
      for (const path of paths) {
        const response = await app.http().get(path);
        expect({ path, status: response.status, body: response.body }).toEqual({
          path,
          status: 400,
          body: { q: ['Could not parse query string: Invalid regular expression: canceling statement due to statement timeout'] },
        });
      }
    } finally {
      await holder.query('ROLLBACK');
      await holder.end();
    }
    expect((await app.http().get(paths[0]).expect(200)).body.count).toBe(6);
    expect((await app.http().get(paths[1]).expect(200)).body.count).toBe(3);
    // The lowered limit was local to the search's transaction: the connection keeps the API's limit.
    expect(await app.glossa.app.get(DataSource).query('SHOW statement_timeout')).toEqual([{ statement_timeout: '1min' }]);
  });
});
