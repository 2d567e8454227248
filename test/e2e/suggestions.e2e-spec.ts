import type { Response } from 'supertest';
import { DataSource } from 'typeorm';
import { BUILTIN_ROLES } from '../../src/modules/access/builtin-access';
import { createTranslatedComponent, SeededContent } from '../support/content-factories';
import { apiLink, authHeader, expectApiHeaders } from '../support/contract';
import { createTeam } from '../support/team-factories';
import { createTestApp, TEST_ADMIN_TOKEN, TestApp } from '../support/test-app';
import { createUserWithToken } from '../support/users-factories';

// Issue 13 item 3: suggestions with Weblate 2026.8's API shapes (checks-suggestions-search.md §5.9), the
// permission matrix (anonymous, a signed-in user, a translator, a project admin, a superuser; public and
// private projects), the statistics they move (§8.1) and the changes they record (4, 7, 26).

type Persona = 'anonymous' | 'plain' | 'translator' | 'projectAdmin' | 'superuser';
const PERSONAS: Persona[] = ['anonymous', 'plain', 'translator', 'projectAdmin', 'superuser'];
const SIGNED_IN: Persona[] = ['plain', 'translator', 'projectAdmin', 'superuser'];
const SUGGESTION_KEYS = ['id', 'unit', 'target', 'user', 'timestamp', 'votes'];
const DENIED = { detail: 'You do not have permission to perform this action.' };
const NOT_FOUND = { detail: 'Not found.' };
const NOT_AUTHENTICATED = { detail: 'Authentication credentials were not provided.' };

/** Whether a built-in role holds a permission: the matrix follows the role definitions, whatever they grant. */
const roleHas = (role: string, permission: string): boolean => BUILTIN_ROLES.find((r) => r.name === role)?.permissions.includes(permission) === true;

/** A nested JSON file (json-nested) setting the given dotted keys. */
function jsonFile(entries: Record<string, string>): Buffer {
  const root: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(entries)) {
    const parts = key.split('.');
    let node = root;
    for (const part of parts.slice(0, -1)) node = (node[part] ??= {}) as Record<string, unknown>;
    node[parts[parts.length - 1]] = value;
  }
  return Buffer.from(JSON.stringify(root));
}

describe('suggestions', () => {
  let app: TestApp;
  let ds: DataSource;
  let origin: string;
  let pub: SeededContent;
  let priv: SeededContent;
  const tokens: Partial<Record<Persona, string>> = { superuser: TEST_ADMIN_TOKEN };
  const usernames: Record<Persona, string> = { anonymous: '', plain: 'plain', translator: 'translator', projectAdmin: 'projectAdmin', superuser: 'admin' };

  const call = (persona: Persona, method: 'get' | 'post' | 'delete' | 'patch', path: string) => {
    const test = app.http()[method](path);
    const token = tokens[persona];
    return token === undefined ? test : test.set(...authHeader(token));
  };
  const unitOf = (content: SeededContent, index: number): string => content.translations[0].unitIds[index];
  const suggest = (persona: Persona, unitId: string, target: string[]) => call(persona, 'post', `/api/units/${unitId}/suggestions/`).send({ target });
  const unitRow = async (id: string) => (await app.http().get(`/api/units/${id}/`).set(...authHeader(TEST_ADMIN_TOKEN)).expect(200)).body;
  const translationStats = async (content: SeededContent) =>
    (await app.http().get(`/api/translations/${content.project.slug}/${content.component.slug}/cs/statistics/`).set(...authHeader(TEST_ADMIN_TOKEN)).expect(200)).body;
  const changesOf = async (unitId: string): Promise<Array<{ action: number; user: string | null; author: string | null; target: string; details: Record<string, unknown> }>> =>
    ds.query(
      `SELECT ch.action, us.username AS user, au.username AS author, ch.target, ch.details
         FROM changes ch LEFT JOIN users us ON us.id = ch.user_id LEFT JOIN users au ON au.id = ch.author_id
        WHERE ch.unit_id = $1 ORDER BY ch.id`,
      [unitId],
    );

  function expectAnswer(label: string, response: Response, status: number, deniedBody: object = DENIED): void {
    expect({ label, status: response.status }).toEqual({ label, status });
    if (status === 401) expect({ label, body: response.body }).toEqual({ label, body: NOT_AUTHENTICATED });
    if (status === 403) expect({ label, body: response.body }).toEqual({ label, body: deniedBody });
    if (status === 404) expect({ label, body: response.body }).toEqual({ label, body: NOT_FOUND });
  }

  beforeAll(async () => {
    app = await createTestApp();
    ds = app.glossa.app.get(DataSource);
    origin = `http://127.0.0.1:${(app.glossa.app.getHttpServer().address() as { port: number }).port}`;
    pub = await createTranslatedComponent(ds, { project: { name: 'Public', slug: 'pub' }, component: { name: 'Main', slug: 'main' }, languages: ['cs'], units: 12 });
    priv = await createTranslatedComponent(ds, {
      project: { name: 'Private', slug: 'priv', accessControl: 100 },
      component: { name: 'Hidden', slug: 'hidden' },
      languages: ['cs'],
      units: 12,
    });
    for (const persona of ['plain', 'translator', 'projectAdmin'] as const) tokens[persona] = (await createUserWithToken(ds, persona)).token;
    await createTeam(app, TEST_ADMIN_TOKEN, { name: 'Translators', roles: ['Translate'], members: ['translator'], projectIds: [pub.project.id, priv.project.id] });
    await createTeam(app, TEST_ADMIN_TOKEN, { name: 'Admins', roles: ['Administration'], members: ['projectAdmin'], projectIds: [pub.project.id, priv.project.id] });
  });

  afterAll(async () => {
    await app?.close();
  });

  it('adds a suggestion per persona on a public project, in Weblate’s shape, moving has_suggestion and the statistics', async () => {
    const unitId = unitOf(pub, 1);
    const before = await translationStats(pub);
    expect(before.suggestions).toBe(0);
    for (const persona of PERSONAS) {
      const response = await suggest(persona, unitId, [`Návrh ${persona}`]);
      // Anonymous writes are 401; the public project's Users team ("Power user") and every role here may suggest.
      const expected = persona === 'anonymous' ? 401 : 201;
      expectAnswer(`POST suggestion as ${persona}`, response, expected);
      if (expected !== 201) continue;
      expect(Object.keys(response.body)).toEqual(SUGGESTION_KEYS);
      expect(response.body).toMatchObject({
        unit: apiLink(origin, `/api/units/${unitId}/`),
        target: [`Návrh ${persona}`],
        user: apiLink(origin, `/api/users/${usernames[persona]}/`),
        votes: 0,
      });
      expect(response.body.timestamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/);
    }
    expect((await unitRow(unitId)).has_suggestion).toBe(true);
    // Four suggestions on one unit count once (§8.1: units with at least one suggestion).
    const after = await translationStats(pub);
    expect(after.suggestions).toBe(1);
    const translation = await app.http().get(`/api/translations/pub/main/cs/`).expect(200);
    expect(translation.body.have_suggestion).toBe(1);
    expect((await app.http().get('/api/projects/pub/statistics/').expect(200)).body.suggestions).toBe(1);
    expect((await changesOf(unitId)).filter((c) => c.action === 4).map((c) => [c.user, c.target])).toEqual(SIGNED_IN.map((p) => [usernames[p], `Návrh ${p}`]));
    expect((await app.http().get('/api/users/plain/statistics/').set(...authHeader(TEST_ADMIN_TOKEN)).expect(200)).body.suggested).toBe(1);
    // The existing `has:suggestion` search reads the same flag.
    const found = await app.http().get('/api/translations/pub/main/cs/units/?q=has:suggestion').expect(200);
    expect(found.body.results.map((u: { id: number }) => String(u.id))).toEqual([unitId]);
  });

  it('lists a unit’s suggestions newest first, and the site-wide list only what the caller may see', async () => {
    const list = await app.http().get(`/api/units/${unitOf(pub, 1)}/suggestions/`).expect(200);
    expectApiHeaders(list, 'GET, POST, HEAD, OPTIONS');
    expect(list.body.count).toBe(4);
    expect(list.body.results.map((s: { target: string[] }) => s.target[0])).toEqual([...SIGNED_IN].reverse().map((p) => `Návrh ${p}`));
    const secret = await suggest('translator', unitOf(priv, 1), ['Tajné']).expect(201);
    const detail = `/api/suggestions/${secret.body.id}/`;
    // Private project: invisible to anonymous and plain users (404), visible to its teams and the superuser.
    for (const persona of PERSONAS) {
      const expected = persona === 'anonymous' || persona === 'plain' ? 404 : 200;
      expectAnswer(`GET ${detail} as ${persona}`, await call(persona, 'get', detail), expected);
      expectAnswer(`GET priv unit suggestions as ${persona}`, await call(persona, 'get', `/api/units/${unitOf(priv, 1)}/suggestions/`), expected);
      const all = await call(persona, 'get', '/api/suggestions/').expect(200);
      expect({ persona, count: all.body.count }).toEqual({ persona, count: expected === 404 ? 4 : 5 });
      expect(all.body.results[0].id).toBe(expected === 404 ? list.body.results[0].id : secret.body.id);
    }
    expect((await app.http().get(`/api/suggestions/${list.body.results[0].id}/`).expect(200)).body).toEqual(list.body.results[0]);
    await app.http().get('/api/suggestions/999999/').expect(404);
    await app.http().get('/api/suggestions/abc/').expect(404);
    // Writes on the private project's suggestion: anonymous 401, plain users cannot see it (404).
    expectAnswer('accept priv as anonymous', await call('anonymous', 'post', `${detail}accept/`).send({}), 401);
    expectAnswer('accept priv as plain', await call('plain', 'post', `${detail}accept/`).send({}), 404);
    expectAnswer('delete priv as plain', await call('plain', 'delete', detail), 404);
    expectAnswer('add on priv as plain', await suggest('plain', unitOf(priv, 3), ['x']), 404);
  });

  it('validates a new suggestion with Weblate’s messages, changing nothing', async () => {
    const unitId = unitOf(pub, 3);
    const cases: Array<[unknown, object]> = [
      [{}, { target: ['This field is required.'] }],
      [{ target: 'text' }, { target: ['Expected a list of items but got type "str".'] }],
      [{ target: [''] }, { target: ['Please provide a suggestion'] }],
      [{ target: ['a', 'b'] }, { target: ['Number of plurals does not match'] }],
      [{ target: ['x'.repeat(5000)] }, { target: ['Translation text too long!'] }],
    ];
    for (const [body, errors] of cases) {
      const response = await call('translator', 'post', `/api/units/${unitId}/suggestions/`).send(body as object).expect(400);
      expect(response.body).toEqual(errors);
    }
    // Same text as the current translation of a translated unit: "similar" (§5.2 step 3).
    const translated = unitOf(pub, 2);
    expect((await suggest('translator', translated, ['[cs] Sample string number 3']).expect(400)).body).toEqual({ target: ['Your suggestion is similar to the current translation!'] });
    await suggest('translator', unitId, ['Jednou']).expect(201);
    // The same text again by the same user: duplicate; by another user with voting off: duplicate too.
    expect((await suggest('translator', unitId, ['Jednou']).expect(400)).body).toEqual({ target: ['Your suggestion already exists!'] });
    expect((await suggest('projectAdmin', unitId, ['Jednou']).expect(400)).body).toEqual({ target: ['Your suggestion already exists!'] });
    // Source strings are read-only; 404 for units that do not exist.
    expect((await suggest('translator', pub.source.unitIds[0], ['x']).expect(403)).body).toEqual({ detail: 'The string is read-only.' });
    await suggest('translator', '99999999', ['x']).expect(404);
    expect((await ds.query('SELECT count(*)::int AS n FROM suggestions WHERE unit_id = $1', [unitId]))[0].n).toBe(1);
    // Suggestions turned off for the component: 403 with Weblate's reason.
    await ds.query('UPDATE components SET enable_suggestions = false WHERE id = $1', [pub.component.id]);
    try {
      expect((await suggest('translator', unitOf(pub, 5), ['Ne']).expect(403)).body).toEqual({
        detail: 'Suggestions are turned off for this language. Ask a project administrator to enable them.',
      });
    } finally {
      await ds.query('UPDATE components SET enable_suggestions = true WHERE id = $1', [pub.component.id]);
    }
  });

  it('accepting translates the unit, credits the author, records 7 and keeps the other suggestions', async () => {
    const personas: Persona[] = ['plain', 'translator', 'projectAdmin', 'superuser'];
    // A fresh untranslated unit per persona, each with the translator's suggestion and one by the admin.
    const units = [5, 7, 9, 11].map((i) => unitOf(pub, i));
    const ids: number[] = [];
    for (const unitId of units) {
      ids.push((await suggest('translator', unitId, [`Přijmi ${unitId}`]).expect(201)).body.id);
      await suggest('projectAdmin', unitId, [`Jiný ${unitId}`]).expect(201);
    }
    const before = await translationStats(pub);
    expectAnswer('accept as anonymous', await call('anonymous', 'post', `/api/suggestions/${ids[0]}/accept/`).send({}), 401);
    for (const [index, persona] of personas.entries()) {
      // Power user and Translate hold suggestion.accept (checks-suggestions-search.md §5.8).
      const response = await call(persona, 'post', `/api/suggestions/${ids[index]}/accept/`).send({});
      expectAnswer(`accept as ${persona}`, response, 200);
      expect(response.body).toEqual({ result: 'accepted' });
      const unit = await unitRow(units[index]);
      expect(unit).toMatchObject({ target: [`Přijmi ${units[index]}`], state: 20, translated: true, pending: true, has_suggestion: true });
      const accepted = (await changesOf(units[index])).filter((c) => c.action === 7);
      expect(accepted).toEqual([{ action: 7, user: usernames[persona], author: 'translator', target: `Přijmi ${units[index]}`, details: expect.objectContaining({ state: 20, old_state: 0 }) }]);
      await app.http().get(`/api/suggestions/${ids[index]}/`).expect(404);
    }
    const after = await translationStats(pub);
    expect(after.translated - before.translated).toBe(4);
    // The admin's suggestions remain on every unit (§5.3: other suggestions are kept).
    expect(after.suggestions).toBe(before.suggestions);
    // approve=true needs a review workflow and unit.review.
    const another = (await suggest('translator', unitOf(pub, 3), ['Schválit']).expect(201)).body.id;
    expect((await call('translator', 'post', `/api/suggestions/${another}/accept/`).send({ approve: true }).expect(403)).body).toEqual({ detail: 'Insufficient privileges for approving.' });
    expect((await call('translator', 'post', `/api/suggestions/${another}/accept/`).send({ approve: 'maybe' }).expect(400)).body).toEqual({ approve: ['Must be a valid boolean.'] });
  });

  it('deleting needs suggestion.delete or authorship, records 26 with the reason, and clears has_suggestion', async () => {
    const unitId = unitOf(pub, 10);
    const own = (await suggest('plain', unitId, ['Moje']).expect(201)).body.id;
    const others: Record<Persona, number> = {} as Record<Persona, number>;
    // By the project admin: nobody else in the matrix is their author.
    for (const persona of PERSONAS) others[persona] = (await suggest('projectAdmin', unitId, [`Cizí ${persona}`]).expect(201)).body.id;
    const expected: Record<Persona, number> = {
      anonymous: 401,
      // The public project's Users team, which every signed-in user belongs to, holds "Power user" (§5.8).
      plain: roleHas('Power user', 'suggestion.delete') ? 204 : 403,
      translator: roleHas('Translate', 'suggestion.delete') || roleHas('Power user', 'suggestion.delete') ? 204 : 403,
      projectAdmin: 204,
      superuser: 204,
    };
    for (const persona of PERSONAS) {
      expectAnswer(`delete another's as ${persona}`, await call(persona, 'delete', `/api/suggestions/${others[persona]}/`), expected[persona]);
    }
    // Authors may always delete their own; the reason is kept in the change.
    await call('plain', 'delete', `/api/suggestions/${own}/`).send({ rejection_reason: 'Changed my mind' }).expect(204);
    const removed = (await changesOf(unitId)).filter((c) => c.action === 26);
    expect(removed.map((c) => c.target)).toContain('Moje');
    expect(removed.find((c) => c.target === 'Moje')).toMatchObject({ user: 'plain', author: 'plain', details: expect.objectContaining({ rejection_reason: 'Changed my mind' }) });
    expect((await call('superuser', 'delete', `/api/suggestions/${own}/`).expect(404)).body).toEqual(NOT_FOUND);
    const remaining: Array<{ id: number }> = await ds.query('SELECT id FROM suggestions WHERE unit_id = $1', [unitId]);
    for (const { id } of remaining) await call('superuser', 'delete', `/api/suggestions/${id}/`).expect(204);
    expect((await unitRow(unitId)).has_suggestion).toBe(false);
  });

  it('voting: 403 while voting is off, then votes, replaces a vote and auto-accepts at the threshold', async () => {
    const unitId = unitOf(pub, 8);
    const id = (await suggest('plain', unitId, ['Hlasuj']).expect(201)).body.id;
    expect((await call('translator', 'post', `/api/suggestions/${id}/vote/`).send({ value: 1 }).expect(403)).body).toEqual({ detail: 'Suggestion voting is disabled.' });
    await app.http().patch('/api/components/pub/main/').set(...authHeader(TEST_ADMIN_TOKEN)).send({ suggestion_voting: true, suggestion_autoaccept: 3 }).expect(200);
    expectAnswer('vote as anonymous', await call('anonymous', 'post', `/api/suggestions/${id}/vote/`).send({ value: 1 }), 401);
    expect((await call('translator', 'post', `/api/suggestions/${id}/vote/`).send({ value: 2 }).expect(400)).body).toEqual({ value: ['"2" is not a valid choice.'] });
    let vote = await call('translator', 'post', `/api/suggestions/${id}/vote/`).send({ value: -1 }).expect(200);
    expect(Object.keys(vote.body)).toEqual(['result', 'suggestion']);
    expect(vote.body.result).toBe('voted');
    expect(vote.body.suggestion).toMatchObject({ id, votes: -1 });
    vote = await call('translator', 'post', `/api/suggestions/${id}/vote/`).send({ value: 1 }).expect(200);
    expect(vote.body.suggestion.votes).toBe(1);
    // A new suggestion by a voter carries its author's +1; the same text by another voter upvotes it (200).
    const second = await suggest('translator', unitOf(pub, 6), ['Spolu']).expect(201);
    expect(second.body.votes).toBe(1);
    const upvoted = await suggest('projectAdmin', unitOf(pub, 6), ['Spolu']).expect(200);
    expect(upvoted.body).toEqual({ result: 'voted', suggestion: { ...second.body, votes: 2 } });
    vote = await call('projectAdmin', 'post', `/api/suggestions/${id}/vote/`).send({ value: 1 }).expect(200);
    expect(vote.body.suggestion.votes).toBe(2);
    // The third vote reaches suggestion_autoaccept: accepted, crediting the author.
    vote = await call('superuser', 'post', `/api/suggestions/${id}/vote/`).send({ value: 1 }).expect(200);
    expect(vote.body).toEqual({ result: 'accepted', suggestion: null });
    expect(await unitRow(unitId)).toMatchObject({ target: ['Hlasuj'], state: 20, has_suggestion: false });
    expect((await changesOf(unitId)).filter((c) => c.action === 7)).toEqual([expect.objectContaining({ user: 'admin', author: 'plain', target: 'Hlasuj' })]);
    await app.http().patch('/api/components/pub/main/').set(...authHeader(TEST_ADMIN_TOKEN)).send({ suggestion_voting: false, suggestion_autoaccept: 0 }).expect(200);
  });

  it('upload with method=suggest stores suggestions and leaves the units alone', async () => {
    const url = '/api/translations/priv/hidden/cs/file/';
    const strings = priv.strings;
    const file = jsonFile({
      [strings[5].context]: 'Nahraný návrh',
      // Already the current translation of a translated unit: skipped.
      [strings[2].context]: `[cs] ${strings[2].source}`,
      // Untranslated: not suggested and not counted as skipped, as Weblate's merge counts only translated entries.
      [strings[6].context]: '',
      'no.such.key': 'Nic',
    });
    const before = await translationStats(priv);
    const expected: Record<Persona, number> = { anonymous: 401, plain: 404, translator: 200, projectAdmin: 200, superuser: 200 };
    for (const persona of PERSONAS) {
      const response = await call(persona, 'post', url).field('method', 'suggest').attach('file', file, 'cs.json');
      expectAnswer(`upload suggest as ${persona}`, response, expected[persona]);
      if (persona === 'translator') expect(response.body).toEqual({ not_found: 1, skipped: 1, accepted: 1, total: 4, result: true, count: 4 });
      // The same text again is not repeated.
      if (persona === 'projectAdmin') expect(response.body).toEqual({ not_found: 1, skipped: 2, accepted: 0, total: 4, result: false, count: 4 });
    }
    const unitId = unitOf(priv, 5);
    expect(await unitRow(unitId)).toMatchObject({ target: [''], state: 0, has_suggestion: true, pending: false });
    const listed = await call('translator', 'get', `/api/units/${unitId}/suggestions/`).expect(200);
    expect(listed.body.results.map((s: { target: string[]; user: string }) => [s.target, s.user])).toEqual([[['Nahraný návrh'], apiLink(origin, '/api/users/translator/')]]);
    expect((await translationStats(priv)).suggestions).toBe(before.suggestions + 1);
    expect((await changesOf(unitId)).map((c) => c.action)).toEqual([4]);
  });

  it('upload with method=suggest auto-accepts at suggestion_autoaccept: an upvote by upload accepts, crediting the author', async () => {
    const admin = authHeader(TEST_ADMIN_TOKEN);
    const url = '/api/translations/priv/hidden/cs/file/';
    const strings = priv.strings;
    // Weblate refuses a threshold of 1 (its validator); 2 is the lowest.
    expect((await app.http().patch('/api/components/priv/hidden/').set(...admin).send({ suggestion_voting: true, suggestion_autoaccept: 1 }).expect(400)).body).toEqual({
      suggestion_autoaccept: ['A value of 1 is not allowed.'],
    });
    await app.http().patch('/api/components/priv/hidden/').set(...admin).send({ suggestion_voting: true, suggestion_autoaccept: 2 }).expect(200);
    const [upvoted, waiting] = [unitOf(priv, 11), unitOf(priv, 7)];
    expect((await suggest('projectAdmin', upvoted, ['Dva hlasy']).expect(201)).body.votes).toBe(1);
    const before = await translationStats(priv);
    // The translator's upload upvotes the project admin's suggestion (2 votes: accepted, crediting its author)
    // and adds its own (1 vote: it waits).
    const first = await call('translator', 'post', url)
      .field('method', 'suggest')
      .attach('file', jsonFile({ [strings[11].context]: 'Dva hlasy', [strings[7].context]: 'Jeden hlas' }), 'cs.json');
    expect([first.status, first.body]).toEqual([200, { not_found: 0, skipped: 1, accepted: 1, total: 2, result: true, count: 2 }]);
    expect(await unitRow(upvoted)).toMatchObject({ target: ['Dva hlasy'], state: 20, has_suggestion: false, pending: true });
    expect((await changesOf(upvoted)).map((c) => [c.action, c.user, c.author])).toEqual([
      [4, 'projectAdmin', 'projectAdmin'],
      [7, 'translator', 'projectAdmin'],
    ]);
    expect(await unitRow(waiting)).toMatchObject({ target: [''], state: 0, has_suggestion: true });
    const listed = await call('translator', 'get', `/api/units/${waiting}/suggestions/`).expect(200);
    expect(listed.body.results.map((row: { target: string[]; votes: number }) => [row.target, row.votes])).toEqual([[['Jeden hlas'], 1]]);
    const middle = await translationStats(priv);
    expect([middle.translated, middle.suggestions]).toEqual([before.translated + 1, before.suggestions]);
    // The project admin's upload of the same text upvotes the translator's: accepted, crediting the translator.
    const second = await call('projectAdmin', 'post', url).field('method', 'suggest').attach('file', jsonFile({ [strings[7].context]: 'Jeden hlas' }), 'cs.json');
    expect([second.status, second.body]).toEqual([200, { not_found: 0, skipped: 1, accepted: 0, total: 1, result: false, count: 1 }]);
    expect(await unitRow(waiting)).toMatchObject({ target: ['Jeden hlas'], state: 20, has_suggestion: false });
    expect((await changesOf(waiting)).map((c) => [c.action, c.user, c.author])).toEqual([
      [4, 'translator', 'translator'],
      [7, 'projectAdmin', 'translator'],
    ]);
    const after = await translationStats(priv);
    expect([after.translated, after.suggestions]).toEqual([before.translated + 2, before.suggestions - 1]);
    // Counters equal a recount after the acceptances (statistics and checks moved in the same transaction).
    const [translation] = await ds.query(
      `SELECT t.translated, t.have_suggestion, t.failing_checks,
              (SELECT count(*)::int FROM units u WHERE u.translation_id = t.id AND u.state >= 20) AS units_translated,
              (SELECT count(*)::int FROM units u WHERE u.translation_id = t.id AND u.has_suggestion) AS units_suggested,
              (SELECT count(*)::int FROM units u WHERE u.translation_id = t.id AND u.has_failing_check) AS units_failing
         FROM translations t WHERE t.id = $1`,
      [priv.translations[0].id],
    );
    expect([translation.translated, translation.have_suggestion, translation.failing_checks]).toEqual([
      translation.units_translated,
      translation.units_suggested,
      translation.units_failing,
    ]);
    await app.http().patch('/api/components/priv/hidden/').set(...admin).send({ suggestion_voting: false, suggestion_autoaccept: 0 }).expect(200);
  });

  it('accepting is a translation save: checks rerun, automatic fixes and enforced checks apply', async () => {
    const unitId = unitOf(pub, 10);
    const id = (await suggest('plain', unitId, ['Konec!']).expect(201)).body.id;
    await call('translator', 'post', `/api/suggestions/${id}/accept/`).send({}).expect(200);
    expect(await unitRow(unitId)).toMatchObject({ target: ['Konec!'], has_failing_check: true });
    const checks = (await app.http().get(`/api/units/${unitId}/checks/`).set(...authHeader(TEST_ADMIN_TOKEN)).expect(200)).body.results;
    expect(checks.map((check: { id: string }) => check.id)).toEqual(['end_exclamation']);
    // Automatic fixes apply (trailing whitespace follows the source), and a failing enforced check lowers
    // the state to needs editing, recorded in the change's details.
    const admin = authHeader(TEST_ADMIN_TOKEN);
    await app.http().patch('/api/components/pub/main/').set(...admin).send({ enforced_checks: ['end_exclamation'] }).expect(200);
    const [fixed, enforced] = [unitOf(pub, 11), unitOf(pub, 9)];
    const fixedId = (await suggest('plain', fixed, ['Opraveno  ']).expect(201)).body.id;
    const enforcedId = (await suggest('plain', enforced, ['Vynuceno!']).expect(201)).body.id;
    await call('translator', 'post', `/api/suggestions/${fixedId}/accept/`).send({}).expect(200);
    await call('translator', 'post', `/api/suggestions/${enforcedId}/accept/`).send({}).expect(200);
    expect(await unitRow(fixed)).toMatchObject({ target: ['Opraveno'], state: 20, has_failing_check: false });
    expect(await unitRow(enforced)).toMatchObject({ target: ['Vynuceno!'], state: 10, has_failing_check: true });
    expect((await changesOf(fixed)).filter((c) => c.action === 7).slice(-1).map((c) => [c.target, c.details.fixups])).toEqual([['Opraveno', ['end-whitespace']]]);
    expect((await changesOf(enforced)).filter((c) => c.action === 7).slice(-1).map((c) => [c.details.state, c.details.enforced_checks])).toEqual([[10, ['end_exclamation']]]);
    await app.http().patch('/api/components/pub/main/').set(...admin).send({ enforced_checks: [] }).expect(200);
  });
});
