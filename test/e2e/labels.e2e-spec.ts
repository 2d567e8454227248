import type { Response } from 'supertest';
import { DataSource } from 'typeorm';
import { createTranslatedComponent, SeededContent } from '../support/content-factories';
import { authHeader, expectApiHeaders } from '../support/contract';
import { createTeam } from '../support/team-factories';
import { createTestApp, TEST_ADMIN_TOKEN, TestApp } from '../support/test-app';
import { createUserWithToken } from '../support/users-factories';

// Issues 13/14: Weblate's labels. The project labels routes (weblate-api.md §5: GET/POST 5.3+, DELETE 5.14+)
// with their permission matrix on public and private projects, the unit `labels` field (5.3+ objects, own
// labels: source units carry them, §6.5), PATCH `labels` as ids on source units with changes 86/87 (§10.2),
// the `label:`/`has:label`/`labels_count:` searches (checks-suggestions-search.md §7.4), bulk add/remove
// (integration.md §6.1), and the `report` comment side effect (checks-suggestions-search.md §6.2).

type Persona = 'anonymous' | 'plain' | 'translator' | 'projectAdmin' | 'superuser';
const PERSONAS: Persona[] = ['anonymous', 'plain', 'translator', 'projectAdmin', 'superuser'];
const LABEL_KEYS = ['id', 'name', 'description', 'color'];
const DETAILS: Record<number, object> = {
  401: { detail: 'Authentication credentials were not provided.' },
  403: { detail: 'You do not have permission to perform this action.' },
  404: { detail: 'Not found.' },
};

describe('labels', () => {
  let app: TestApp;
  let ds: DataSource;
  let pub: SeededContent;
  let priv: SeededContent;
  let bilingual: SeededContent;
  const tokens: Partial<Record<Persona, string>> = { superuser: TEST_ADMIN_TOKEN };

  const call = (persona: Persona, method: 'get' | 'post' | 'delete' | 'patch', path: string) => {
    const test = app.http()[method](path);
    const token = tokens[persona];
    return token === undefined ? test : test.set(...authHeader(token));
  };
  const admin = (method: 'get' | 'post' | 'delete' | 'patch', path: string) => call('superuser', method, path);
  const expectAnswer = (label: string, response: Response, status: number): void => {
    expect({ label, status: response.status }).toEqual({ label, status });
    if (DETAILS[status]) expect({ label, body: response.body }).toEqual({ label, body: DETAILS[status] });
  };
  const createLabel = async (project: string, name: string, color = 'blue'): Promise<number> =>
    (await admin('post', `/api/projects/${project}/labels/`).send({ name, color, description: `${name} strings` }).expect(201)).body.id;
  const unit = async (id: string) => (await admin('get', `/api/units/${id}/`).expect(200)).body;
  const labelChanges = async (unitId: string): Promise<Array<{ action: number; target: string }>> =>
    ds.query('SELECT action, target FROM changes WHERE unit_id = $1 AND action IN (86, 87) ORDER BY id', [unitId]);

  beforeAll(async () => {
    app = await createTestApp();
    ds = app.glossa.app.get(DataSource);
    pub = await createTranslatedComponent(ds, { project: { name: 'Public', slug: 'pub' }, component: { name: 'Main', slug: 'main' }, languages: ['cs', 'de'], units: 6 });
    priv = await createTranslatedComponent(ds, { project: { name: 'Private', slug: 'priv', accessControl: 100 }, component: { name: 'Hidden', slug: 'hidden' }, languages: ['cs'], units: 2 });
    bilingual = await createTranslatedComponent(ds, {
      project: { name: 'Gettext', slug: 'po', sourceReview: true },
      component: { name: 'Po', slug: 'po', template: '', fileFormat: 'po', filemask: 'po/*.po' },
      languages: ['cs'],
      units: 2,
    });
    for (const persona of ['plain', 'translator', 'projectAdmin'] as const) tokens[persona] = (await createUserWithToken(ds, persona)).token;
    await createTeam(app, TEST_ADMIN_TOKEN, { name: 'Translators', roles: ['Translate'], members: ['translator'], projectIds: [pub.project.id, priv.project.id] });
    await createTeam(app, TEST_ADMIN_TOKEN, { name: 'Admins', roles: ['Administration'], members: ['projectAdmin'], projectIds: [pub.project.id, priv.project.id] });
  });

  afterAll(async () => {
    await app?.close();
  });

  it('lists, creates and deletes labels per persona on public and private projects (project.edit manages them)', async () => {
    for (const [project, hidden] of [['pub', false], ['priv', true]] as const) {
      for (const persona of PERSONAS) {
        const invisible = hidden && (persona === 'anonymous' || persona === 'plain');
        const list = await call(persona, 'get', `/api/projects/${project}/labels/`);
        expectAnswer(`${project} list as ${persona}`, list, invisible ? 404 : 200);
        const manager = persona === 'projectAdmin' || persona === 'superuser';
        const writeStatus = persona === 'anonymous' ? 401 : invisible ? 404 : manager ? 201 : 403;
        const created = await call(persona, 'post', `/api/projects/${project}/labels/`).send({ name: `By ${persona}`, color: 'green' });
        expectAnswer(`${project} create as ${persona}`, created, writeStatus);
        if (created.status !== 201) continue;
        expect(Object.keys(created.body)).toEqual(LABEL_KEYS);
        expect(created.body).toMatchObject({ name: `By ${persona}`, description: '', color: 'green' });
        expectApiHeaders(created, 'GET, POST, HEAD, OPTIONS');
        const victim = await createLabel(project, `Doomed by ${persona}`);
        // The others who may not delete it are refused (the other manager would delete it: not asked).
        for (const other of ['anonymous', 'plain', 'translator'] as const) {
          const status = other === 'anonymous' ? 401 : hidden && other === 'plain' ? 404 : 403;
          expectAnswer(`${project} delete as ${other}`, await call(other, 'delete', `/api/projects/${project}/labels/${victim}/`), status);
        }
        const deleted = await call(persona, 'delete', `/api/projects/${project}/labels/${victim}/`);
        expectAnswer(`${project} delete as ${persona}`, deleted, 204);
        expectAnswer(`${project} delete again as ${persona}`, await call(persona, 'delete', `/api/projects/${project}/labels/${victim}/`), 404);
      }
    }
    const listed = await app.http().get('/api/projects/pub/labels/').expect(200);
    expectApiHeaders(listed, 'GET, POST, HEAD, OPTIONS');
    expect(Object.keys(listed.body)).toEqual(['count', 'next', 'previous', 'results']);
    expect(listed.body.results.map((label: { name: string }) => label.name)).toEqual(['By projectAdmin', 'By superuser']);
    // The project object keeps the spec's fields: no labels_url (api-spec.md).
    expect((await app.http().get('/api/projects/pub/').expect(200)).body).not.toHaveProperty('labels_url');
  });

  it('validates names (unique per project, max 190) and colours (weblate-api.md §8.11)', async () => {
    const post = (body: object) => admin('post', '/api/projects/pub/labels/').send(body);
    const cases: Array<[object, object]> = [
      [{}, { name: ['This field is required.'], color: ['This field is required.'] }],
      [{ name: 'x', color: 'pink' }, { color: ['"pink" is not a valid choice.'] }],
      [{ name: '', color: 'red' }, { name: ['This field may not be blank.'] }],
      [{ name: 'n'.repeat(191), color: 'red' }, { name: ['Ensure this field has no more than 190 characters.'] }],
      [{ name: 'By superuser', color: 'red' }, { name: ['Label with this Project and Name already exists.'] }],
    ];
    await post({ name: 'Shared', color: 'red' }).expect(201);
    for (const [body, errors] of cases) expect({ body, response: (await post(body).expect(400)).body }).toEqual({ body, response: errors });
    // The same name in another project is fine.
    await admin('post', '/api/projects/priv/labels/').send({ name: 'Shared', color: 'red' }).expect(201);
    expect((await admin('delete', '/api/projects/pub/labels/abc/')).status).toBe(404);
    const foreign = (await admin('get', '/api/projects/priv/labels/').expect(200)).body.results[0].id;
    expect((await admin('delete', `/api/projects/pub/labels/${foreign}/`)).status).toBe(404);
  });

  it('PATCH sets labels on source units only, as ids of the project’s labels, recording 86/87', async () => {
    const sourceId = pub.source.unitIds[0];
    const translationId = pub.translations[0].unitIds[0];
    const ui = await createLabel('pub', 'UI');
    const legal = await createLabel('pub', 'Legal', 'red');
    const foreign = await createLabel('priv', 'Secret');
    const patch = (id: string, body: object, persona: Persona = 'superuser') => call(persona, 'patch', `/api/units/${id}/`).send(body);
    const refused = await patch(translationId, { labels: [ui] });
    expect({ status: refused.status, body: refused.body }).toEqual({ status: 403, body: { detail: 'Source strings properties can be set only on source strings' } });
    expect((await patch(sourceId, { labels: [foreign] }).expect(400)).body).toEqual({ labels: [`Invalid pk "${foreign}" - object does not exist.`] });
    expect((await patch(sourceId, { labels: ['abc'] }).expect(400)).body).toEqual({ labels: ['Incorrect type. Expected pk value, received str.'] });
    expect((await patch(sourceId, { labels: [ui] }, 'translator')).status).toBe(403);
    const set = await patch(sourceId, { labels: [legal, ui] }).expect(200);
    expect(set.body).toEqual({ target: expect.any(Array), state: 100, explanation: '', extra_flags: '', labels: [ui, legal] });
    const source = await unit(sourceId);
    expect(source.labels).toEqual([
      { id: ui, name: 'UI', description: 'UI strings', color: 'blue' },
      { id: legal, name: 'Legal', description: 'Legal strings', color: 'red' },
    ]);
    // Own labels only (§6.5): the translation unit of the labelled string carries none.
    expect((await unit(translationId)).labels).toEqual([]);
    await patch(sourceId, { labels: [legal] }).expect(200);
    await patch(sourceId, { labels: [legal] }).expect(200);
    expect(await labelChanges(sourceId)).toEqual([
      { action: 86, target: 'Added label UI' },
      { action: 86, target: 'Added label Legal' },
      { action: 87, target: 'Removed label UI' },
    ]);
    // The label is shown in lists too (the units page of the source translation and /api/units/).
    const page = (await admin('get', '/api/translations/pub/main/en/units/').expect(200)).body.results;
    expect(page[0].labels.map((label: { name: string }) => label.name)).toEqual(['Legal']);
    // A translator's write of a translation unit answers its own (empty) labels.
    const translated = await patch(translationId, { target: ['Nový'], state: 20 }).expect(200);
    expect(translated.body.labels).toEqual([]);
    // Deleting a label removes it from the units, and the units page's entity tag (derived from its units' row
    // versions) changes with it: a client holding the old tag gets the page without the label, not a 304.
    const before = await admin('get', '/api/translations/pub/main/en/units/').expect(200);
    await admin('delete', `/api/projects/pub/labels/${legal}/`).expect(204);
    expect((await unit(sourceId)).labels).toEqual([]);
    const after = await admin('get', '/api/translations/pub/main/en/units/').set('If-None-Match', before.headers.etag).expect(200);
    expect(after.headers.etag).not.toBe(before.headers.etag);
    expect(after.body.results[0].labels).toEqual([]);
  });

  it('searches label:, has:label and labels_count: through the source string, on /api/units/ and a translation', async () => {
    const docs = await createLabel('pub', 'Docs');
    const web = await createLabel('pub', 'Web');
    await admin('patch', `/api/units/${pub.source.unitIds[1]}/`).send({ labels: [docs, web] }).expect(200);
    await admin('patch', `/api/units/${pub.source.unitIds[2]}/`).send({ labels: [docs] }).expect(200);
    const [s1, s2] = [pub.source.unitIds[1], pub.source.unitIds[2]];
    const [cs1, cs2] = [pub.translations[0].unitIds[1], pub.translations[0].unitIds[2]];
    const [de1, de2] = [pub.translations[1].unitIds[1], pub.translations[1].unitIds[2]];
    const table: Array<[string, string[]]> = [
      ['label:docs', [s1, s2, cs1, cs2, de1, de2]],
      ['label:=Docs', [s1, s2, cs1, cs2, de1, de2]],
      ['label:=docs', []],
      ['label:Doc', []],
      ['label:r"^W"', [s1, cs1, de1]],
      ['has:label', [s1, s2, cs1, cs2, de1, de2]],
      ['labels_count:2', [s1, cs1, de1]],
      ['labels_count:>=1 AND NOT label:web', [s2, cs2, de2]],
      ['label:docs AND language:cs', [cs1, cs2]],
    ];
    for (const [q, expected] of table) {
      const all = await admin('get', `/api/units/?page_size=1000&q=${encodeURIComponent(`project:pub AND (${q})`)}`);
      expect({ q, status: all.status, ids: all.body.results?.map((u: { id: number }) => String(u.id)).sort() }).toEqual({ q, status: 200, ids: [...expected].sort() });
      const inCs = await admin('get', `/api/translations/pub/main/cs/units/?q=${encodeURIComponent(q)}`);
      expect({ q, ids: inCs.body.results.map((u: { id: number }) => String(u.id)) }).toEqual({ q, ids: expected.filter((id) => [cs1, cs2].includes(id)) });
    }
    const unlabelled = await admin('get', `/api/units/?page_size=1000&q=${encodeURIComponent('project:pub AND labels_count:0')}`).expect(200);
    expect(unlabelled.body.count).toBe(3 * 6 - 6);
  });

  it('bulk edit adds and removes project labels on the matches’ source strings', async () => {
    const bulk = await createLabel('pub', 'Bulk');
    const foreign = (await admin('get', '/api/projects/priv/labels/').expect(200)).body.results[0].id;
    const refused = await admin('post', '/api/projects/pub/bulk/').send({ q: 'x', add_labels: [foreign], remove_labels: ['nope'] }).expect(400);
    expect(refused.body).toEqual({ remove_labels: ['“nope” is not a valid value.'] });
    expect((await admin('post', '/api/projects/pub/bulk/').send({ q: 'x', add_labels: [foreign] }).expect(400)).body).toEqual({
      add_labels: [`Select a valid choice. ${foreign} is not one of the available choices.`],
    });
    const target = pub.translations[0].unitIds[4];
    const sourceId = pub.source.unitIds[4];
    const q = `id:${target}`;
    expect((await admin('post', '/api/projects/pub/bulk/').send({ q, add_labels: [bulk] }).expect(200)).body).toEqual({ updated: 1 });
    expect((await unit(sourceId)).labels.map((label: { name: string }) => label.name)).toEqual(['Bulk']);
    expect((await admin('post', '/api/projects/pub/bulk/').send({ q, add_labels: [bulk] }).expect(200)).body).toEqual({ updated: 0 });
    // A translator holds translation.auto? No: Translate lacks it, so the bulk edit is refused (403).
    expect((await call('translator', 'post', '/api/projects/pub/bulk/').send({ q, remove_labels: [bulk] })).status).toBe(403);
    expect((await admin('post', '/api/projects/pub/bulk/').send({ q, remove_labels: [bulk] }).expect(200)).body).toEqual({ updated: 1 });
    expect((await unit(sourceId)).labels).toEqual([]);
    expect(await labelChanges(sourceId)).toEqual([
      { action: 86, target: 'Added label Bulk' },
      { action: 87, target: 'Removed label Bulk' },
    ]);
  });

  it('a report comment labels a bilingual source string "Source needs review" and marks a monolingual one for edit', async () => {
    const report = (unitId: string) => admin('post', `/api/units/${unitId}/comments/`).send({ scope: 'report', comment: 'Typo in the source' }).expect(201);
    await report(bilingual.translations[0].unitIds[0]);
    await report(bilingual.translations[0].unitIds[1]);
    const labelled = await unit(bilingual.source.unitIds[0]);
    expect(labelled.labels).toEqual([{ id: expect.any(Number), name: 'Source needs review', description: '', color: 'red' }]);
    expect((await unit(bilingual.source.unitIds[1])).labels).toEqual(labelled.labels);
    expect((await admin('get', '/api/projects/po/labels/').expect(200)).body.count).toBe(1);
    expect(await labelChanges(bilingual.source.unitIds[0])).toEqual([{ action: 86, target: 'Added label Source needs review' }]);
    // Monolingual with an editable template: the source string needs editing ([4.x] 10) with 37, no label.
    await ds.query('UPDATE projects SET source_review = true WHERE id = $1', [pub.project.id]);
    const sourceId = pub.source.unitIds[5];
    await report(pub.translations[0].unitIds[5]);
    const marked = await unit(sourceId);
    expect({ state: marked.state, fuzzy: marked.fuzzy, labels: marked.labels }).toEqual({ state: 10, fuzzy: true, labels: [] });
    const history: Array<{ action: number }> = await ds.query('SELECT action FROM changes WHERE unit_id = $1 AND action IN (3, 37, 86) ORDER BY id', [sourceId]);
    expect(history.map((row) => row.action)).toEqual([3, 37]);
    expect((await admin('get', '/api/translations/pub/main/en/statistics/').expect(200)).body.fuzzy).toBe(1);
  });
});
