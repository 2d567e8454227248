import type { Response } from 'supertest';
import { DataSource } from 'typeorm';
import { BUILTIN_ROLES } from '../../src/modules/access/builtin-access';
import { createTranslatedComponent, SeededContent } from '../support/content-factories';
import { apiLink, authHeader, expectApiHeaders } from '../support/contract';
import { createTeam } from '../support/team-factories';
import { createTestApp, TEST_ADMIN_TOKEN, TestApp } from '../support/test-app';
import { createUserWithToken } from '../support/users-factories';

// Issue 13 item 4: comments on units (checks-suggestions-search.md §6): translation, global and report scopes,
// Weblate's shape and messages (§6.5), resolving and deleting (Glossa's own routes, Weblate's permissions,
// §6.3), the permission matrix on public and private projects, `has_comment` and statistics `comments`
// (§6.4, §8.1), and the changes 3, 64 and 65.

type Persona = 'anonymous' | 'plain' | 'translator' | 'projectAdmin' | 'superuser';
const PERSONAS: Persona[] = ['anonymous', 'plain', 'translator', 'projectAdmin', 'superuser'];
const COMMENT_KEYS = ['comment', 'timestamp', 'id', 'user'];
const DENIED = { detail: 'You do not have permission to perform this action.' };
const NOT_FOUND = { detail: 'Not found.' };
const NOT_AUTHENTICATED = { detail: 'Authentication credentials were not provided.' };

const roleHas = (role: string, permission: string): boolean => BUILTIN_ROLES.find((r) => r.name === role)?.permissions.includes(permission) === true;

describe('comments', () => {
  let app: TestApp;
  let ds: DataSource;
  let origin: string;
  let pub: SeededContent;
  let priv: SeededContent;
  const tokens: Partial<Record<Persona, string>> = { superuser: TEST_ADMIN_TOKEN };
  const usernames: Record<Persona, string> = { anonymous: '', plain: 'plain', translator: 'translator', projectAdmin: 'projectAdmin', superuser: 'admin' };

  const call = (persona: Persona, method: 'get' | 'post' | 'delete', path: string) => {
    const test = app.http()[method](path);
    const token = tokens[persona];
    return token === undefined ? test : test.set(...authHeader(token));
  };
  const unitOf = (content: SeededContent, index: number): string => content.translations[0].unitIds[index];
  const comment = (persona: Persona, unitId: string, body: object) => call(persona, 'post', `/api/units/${unitId}/comments/`).send(body);
  const hasComment = async (id: string): Promise<boolean> => (await app.http().get(`/api/units/${id}/`).set(...authHeader(TEST_ADMIN_TOKEN)).expect(200)).body.has_comment;
  const stats = async (content: SeededContent, language = 'cs') =>
    (await app.http().get(`/api/translations/${content.project.slug}/${content.component.slug}/${language}/statistics/`).set(...authHeader(TEST_ADMIN_TOKEN)).expect(200)).body;
  const actions = async (unitId: string): Promise<Array<{ action: number; user: string; details: Record<string, unknown> }>> =>
    ds.query('SELECT ch.action, us.username AS user, ch.details FROM changes ch LEFT JOIN users us ON us.id = ch.user_id WHERE ch.unit_id = $1 AND ch.action IN (3, 64, 65) ORDER BY ch.id', [unitId]);

  function expectAnswer(label: string, response: Response, status: number): void {
    expect({ label, status: response.status }).toEqual({ label, status });
    if (status === 401) expect({ label, body: response.body }).toEqual({ label, body: NOT_AUTHENTICATED });
    if (status === 403) expect({ label, body: response.body }).toEqual({ label, body: DENIED });
    if (status === 404) expect({ label, body: response.body }).toEqual({ label, body: NOT_FOUND });
  }

  beforeAll(async () => {
    app = await createTestApp();
    ds = app.glossa.app.get(DataSource);
    origin = `http://127.0.0.1:${(app.glossa.app.getHttpServer().address() as { port: number }).port}`;
    pub = await createTranslatedComponent(ds, { project: { name: 'Public', slug: 'pub' }, component: { name: 'Main', slug: 'main' }, languages: ['cs', 'de'], units: 8 });
    priv = await createTranslatedComponent(ds, { project: { name: 'Private', slug: 'priv', accessControl: 100 }, component: { name: 'Hidden', slug: 'hidden' }, languages: ['cs'], units: 4 });
    for (const persona of ['plain', 'translator', 'projectAdmin'] as const) tokens[persona] = (await createUserWithToken(ds, persona)).token;
    await createTeam(app, TEST_ADMIN_TOKEN, { name: 'Translators', roles: ['Translate'], members: ['translator'], projectIds: [pub.project.id, priv.project.id] });
    await createTeam(app, TEST_ADMIN_TOKEN, { name: 'Admins', roles: ['Administration'], members: ['projectAdmin'], projectIds: [pub.project.id, priv.project.id] });
  });

  afterAll(async () => {
    await app?.close();
  });

  it('adds translation comments per persona on public and private projects, in Weblate’s shape, moving has_comment and statistics', async () => {
    const unitId = unitOf(pub, 1);
    for (const persona of PERSONAS) {
      const response = await comment(persona, unitId, { scope: 'translation', comment: `Poznámka **${persona}**` });
      // Power user (the public project's Users team) and Translate hold comment.add (§5.8).
      expectAnswer(`comment as ${persona}`, response, persona === 'anonymous' ? 401 : 201);
      if (response.status !== 201) continue;
      expect(Object.keys(response.body)).toEqual(COMMENT_KEYS);
      expect(response.body).toMatchObject({ comment: `Poznámka **${persona}**`, user: apiLink(origin, `/api/users/${usernames[persona]}/`) });
      expect(response.body.timestamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/);
    }
    expect(await hasComment(unitId)).toBe(true);
    expect((await stats(pub)).comments).toBe(1);
    expect((await app.http().get('/api/translations/pub/main/cs/').expect(200)).body.have_comment).toBe(1);
    expect((await stats(pub, 'de')).comments).toBe(0);
    const found = await app.http().get('/api/translations/pub/main/cs/units/?q=has:comment').expect(200);
    expect(found.body.results.map((u: { id: number }) => String(u.id))).toEqual([unitId]);
    expect((await actions(unitId)).map((c) => [c.action, c.user, c.details.comment])).toEqual(
      ['plain', 'translator', 'projectAdmin', 'superuser'].map((p) => [3, usernames[p as Persona], `Poznámka **${p}**`]),
    );
    const list = await app.http().get(`/api/units/${unitId}/comments/`).expect(200);
    expectApiHeaders(list, 'GET, POST, HEAD, OPTIONS');
    expect(list.body.count).toBe(4);
    expect(list.body.results.map((c: { comment: string }) => c.comment)).toEqual(['plain', 'translator', 'projectAdmin', 'superuser'].map((p) => `Poznámka **${p}**`));
    // Private project: anonymous and plain users cannot see the unit (404), its teams can comment.
    const secret = unitOf(priv, 1);
    const expected: Record<Persona, number> = { anonymous: 401, plain: 404, translator: 201, projectAdmin: 201, superuser: 201 };
    for (const persona of PERSONAS) {
      expectAnswer(`priv comment as ${persona}`, await comment(persona, secret, { scope: 'translation', comment: 'Tajné' }), expected[persona]);
      expectAnswer(`priv list as ${persona}`, await call(persona, 'get', `/api/units/${secret}/comments/`), persona === 'anonymous' || persona === 'plain' ? 404 : 200);
    }
  });

  it('global and report comments live on the source unit', async () => {
    const unitId = unitOf(pub, 2);
    const sourceId = pub.source.unitIds[2];
    const global = await comment('translator', unitId, { scope: 'global', comment: 'Pro všechny jazyky' }).expect(201);
    expect(await hasComment(unitId)).toBe(false);
    expect(await hasComment(sourceId)).toBe(true);
    expect((await app.http().get(`/api/units/${sourceId}/comments/`).expect(200)).body.results).toEqual([global.body]);
    expect((await app.http().get(`/api/units/${unitId}/comments/`).expect(200)).body.count).toBe(0);
    expect((await stats(pub, 'en')).comments).toBe(1);
    expect((await comment('translator', sourceId, { scope: 'translation', comment: 'x' }).expect(400)).body).toEqual({ scope: ['"translation" is not a valid choice for source units.'] });
    expect((await comment('translator', unitId, { scope: 'report', comment: 'x' }).expect(400)).body).toEqual({ scope: ['"report" is not a valid choice as source review is disabled.'] });
    await ds.query('UPDATE projects SET source_review = true WHERE id = $1', [pub.project.id]);
    try {
      await comment('translator', unitOf(pub, 3), { scope: 'report', comment: 'Chyba ve zdroji' }).expect(201);
      expect(await hasComment(pub.source.unitIds[3])).toBe(true);
    } finally {
      await ds.query('UPDATE projects SET source_review = false WHERE id = $1', [pub.project.id]);
    }
    expect((await stats(pub, 'en')).comments).toBe(2);
  });

  it('validates with DRF’s messages; timestamp and user_email only for project admins', async () => {
    const unitId = unitOf(pub, 4);
    const cases: Array<[object, object]> = [
      [{}, { scope: ['This field is required.'], comment: ['This field is required.'] }],
      [{ scope: 'bogus', comment: 'x' }, { scope: ['"bogus" is not a valid choice.'] }],
      [{ scope: 'translation', comment: '' }, { comment: ['This field may not be blank.'] }],
      [{ scope: 'translation', comment: 'x'.repeat(1001) }, { comment: ['Ensure this field has no more than 1000 characters.'] }],
      [{ scope: 'translation', comment: 'x', timestamp: 'yesterday' }, { timestamp: ['Datetime has wrong format. Use one of these formats instead: YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z].'] }],
      [{ scope: 'translation', comment: 'x', user_email: 'nope' }, { user_email: ['Enter a valid email address.'] }],
    ];
    for (const [body, errors] of cases) expect((await comment('translator', unitId, body).expect(400)).body).toEqual(errors);
    expect((await comment('translator', unitId, { scope: 'translation', comment: 'x', timestamp: '2024-01-02T03:04:05Z' }).expect(403)).body).toEqual(DENIED);
    expect((await comment('translator', unitId, { scope: 'translation', comment: 'x', user_email: 'plain@example.org' }).expect(403)).body).toEqual(DENIED);
    expect((await comment('projectAdmin', unitId, { scope: 'translation', comment: 'x', user_email: 'ghost@example.org' }).expect(400)).body).toEqual({
      user_email: ['Object with email=ghost@example.org does not exist.'],
    });
    expect(await hasComment(unitId)).toBe(false);
    const attributed = await comment('projectAdmin', unitId, { scope: 'translation', comment: 'Za uživatele', timestamp: '2024-01-02T03:04:05.123456Z', user_email: 'plain@example.org' }).expect(201);
    expect(attributed.body).toEqual({ comment: 'Za uživatele', timestamp: '2024-01-02T03:04:05.123456Z', id: attributed.body.id, user: apiLink(origin, '/api/users/plain/') });
    // The change is the attributed user's: their `commented` counter moves (weblate-api.md users statistics).
    expect((await actions(unitId)).map((c) => [c.action, c.user])).toEqual([[3, 'plain']]);
    expect((await app.http().get('/api/users/plain/statistics/').set(...authHeader(TEST_ADMIN_TOKEN)).expect(200)).body.commented).toBe(2);
  });

  it('resolving needs comment.resolve or authorship, records 65 once and clears has_comment', async () => {
    const unitId = unitOf(pub, 5);
    const ids = {} as Record<Persona, number>;
    for (const persona of PERSONAS) ids[persona] = (await comment('superuser', unitId, { scope: 'translation', comment: `Vyřeš ${persona}` }).expect(201)).body.id;
    const expected: Record<Persona, number> = {
      anonymous: 401,
      plain: roleHas('Power user', 'comment.resolve') ? 200 : 403,
      translator: roleHas('Translate', 'comment.resolve') ? 200 : 403,
      projectAdmin: 200,
      superuser: 200,
    };
    for (const persona of PERSONAS) {
      const response = await call(persona, 'post', `/api/units/${unitId}/comments/${ids[persona]}/resolve/`);
      expectAnswer(`resolve as ${persona}`, response, expected[persona]);
      if (response.status === 200) expect(Object.keys(response.body)).toEqual(COMMENT_KEYS);
    }
    const before = (await stats(pub)).comments;
    // The author resolves their own; resolving again changes nothing and records nothing.
    const own = (await comment('translator', unitId, { scope: 'translation', comment: 'Moje' }).expect(201)).body.id;
    await call('translator', 'post', `/api/units/${unitId}/comments/${own}/resolve/`).expect(200);
    await call('translator', 'post', `/api/units/${unitId}/comments/${own}/resolve/`).expect(200);
    expect((await actions(unitId)).filter((c) => c.action === 65 && c.details.comment === 'Moje')).toHaveLength(1);
    // Resolve everything left: has_comment and the counter drop; the list still shows resolved comments.
    for (const persona of PERSONAS) await call('superuser', 'post', `/api/units/${unitId}/comments/${ids[persona]}/resolve/`).expect(200);
    expect(await hasComment(unitId)).toBe(false);
    expect((await stats(pub)).comments).toBe(before - 1);
    expect((await app.http().get(`/api/units/${unitId}/comments/`).expect(200)).body.count).toBe(6);
    // A comment is addressed through the unit it is stored on.
    await call('superuser', 'post', `/api/units/${unitOf(pub, 1)}/comments/${own}/resolve/`).expect(404);
    await call('superuser', 'post', `/api/units/${unitId}/comments/999999/resolve/`).expect(404);
  });

  it('deleting needs comment.delete or authorship and records 64', async () => {
    const unitId = unitOf(pub, 6);
    const ids = {} as Record<Persona, number>;
    for (const persona of PERSONAS) ids[persona] = (await comment('superuser', unitId, { scope: 'translation', comment: `Smaž ${persona}` }).expect(201)).body.id;
    const expected: Record<Persona, number> = {
      anonymous: 401,
      plain: roleHas('Power user', 'comment.delete') ? 204 : 403,
      translator: roleHas('Translate', 'comment.delete') ? 204 : 403,
      projectAdmin: 204,
      superuser: 204,
    };
    for (const persona of PERSONAS) expectAnswer(`delete as ${persona}`, await call(persona, 'delete', `/api/units/${unitId}/comments/${ids[persona]}/`), expected[persona]);
    const own = (await comment('plain', unitId, { scope: 'translation', comment: 'Omyl' }).expect(201)).body.id;
    await call('plain', 'delete', `/api/units/${unitId}/comments/${own}/`).expect(204);
    await call('plain', 'delete', `/api/units/${unitId}/comments/${own}/`).expect(404);
    const deleted = (await actions(unitId)).filter((c) => c.action === 64);
    const allowed = PERSONAS.filter((persona) => expected[persona] === 204);
    expect(deleted.map((c) => [c.user, c.details.comment])).toEqual([...allowed.map((p) => [usernames[p], `Smaž ${p}`]), ['plain', 'Omyl']]);
    for (const persona of PERSONAS) if (expected[persona] !== 204) await call('superuser', 'delete', `/api/units/${unitId}/comments/${ids[persona]}/`).expect(204);
    expect(await hasComment(unitId)).toBe(false);
    expect((await app.http().get(`/api/units/${unitId}/comments/`).expect(200)).body.count).toBe(0);
  });
});
