import { DataSource } from 'typeorm';
import { createTranslatedComponent, SeededContent } from '../support/content-factories';
import { apiLink, authHeader, expectApiHeaders } from '../support/contract';
import { createTestApp, TEST_ADMIN_TOKEN, TestApp } from '../support/test-app';

const CHANGE_KEYS = ['id', 'unit', 'component', 'translation', 'user', 'author', 'timestamp', 'action', 'action_name', 'target', 'url'];

interface Change {
  id: number;
  unit: string | null;
  component: string | null;
  translation: string | null;
  user: string | null;
  author: string | null;
  timestamp: string;
  action: number;
  action_name: string;
  target: string;
  url: string;
}

/** Routes of modules not registered in every tree yet (users): skipped while they answer 404. */
const OPTIONAL_ROUTES = /^\/api\/users\/[^/]+\/$/;

describe('changes', () => {
  let app: TestApp;
  let origin: string;
  let content: SeededContent;
  let other: SeededContent;
  const admin = authHeader(TEST_ADMIN_TOKEN);

  beforeAll(async () => {
    app = await createTestApp();
    origin = `http://127.0.0.1:${(app.glossa.app.getHttpServer().address() as { port: number }).port}`;
    const ds = app.glossa.app.get(DataSource);
    content = await createTranslatedComponent(ds, { languages: ['cs', 'de'], units: 4 });
    other = await createTranslatedComponent(ds, { languages: ['fr'], units: 2 });
    // One change made by a user: admin translates the second Czech string (45 + 5; the fourth stays empty).
    await app.http().patch(`/api/units/${content.translations[0].unitIds[1]}/`).set(...admin).send({ target: ['Druhý'], state: 20 }).expect(200);
  });
  afterAll(async () => {
    await app.close();
  });

  const translationPath = (code: string) => `/api/translations/${content.project.slug}/${content.component.slug}/${code}/`;
  const componentPath = () => `/api/components/${content.project.slug}/${content.component.slug}/`;

  it('lists every change in ascending id order with the spec\'s fields', async () => {
    const response = await app.http().get('/api/changes/').expect(200);
    expectApiHeaders(response, 'GET, HEAD, OPTIONS');
    expect(Object.keys(response.body)).toEqual(['count', 'next', 'previous', 'results']);
    // Seeded: en 0; cs 59 + 0; de 59 + 0; other: en 0, fr 59 + 0; then 45 and 5 by admin.
    expect(response.body.count).toBe(10);
    const changes: Change[] = response.body.results;
    for (const change of changes) expect(Object.keys(change)).toEqual(CHANGE_KEYS);
    const ids = changes.map((c) => c.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    const timestamps = changes.map((c) => c.timestamp);
    expect(timestamps).toEqual([...timestamps].sort());
    for (const timestamp of timestamps) expect(timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
  });

  it('shows resource updates and repository updates as the spec observed them', async () => {
    const response = await app.http().get(`${translationPath('cs')}changes/`).expect(200);
    expectApiHeaders(response, 'GET, HEAD, OPTIONS');
    const [update, resource] = response.body.results as Change[];
    expect(update).toEqual({
      id: update.id,
      unit: apiLink(origin, `/api/units/${content.translations[0].unitIds[0]}/`),
      component: apiLink(origin, componentPath()),
      translation: apiLink(origin, translationPath('cs')),
      user: null,
      author: null,
      timestamp: update.timestamp,
      action: 59,
      action_name: 'String updated in the repository',
      target: '[cs] Sample string number 1',
      url: apiLink(origin, `/api/changes/${update.id}/`),
    });
    expect(resource).toMatchObject({ unit: null, action: 0, action_name: 'Resource update', target: '', user: null, author: null });
  });

  it('limits the sub-lists to their project, component and translation', async () => {
    const project = await app.http().get(`/api/projects/${content.project.slug}/changes/`).expect(200);
    expectApiHeaders(project, 'GET, HEAD, OPTIONS');
    expect(project.body.count).toBe(7);
    const component = await app.http().get(`${componentPath()}changes/`).expect(200);
    expectApiHeaders(component, 'GET, HEAD, OPTIONS');
    expect(component.body.count).toBe(7);
    const translation = await app.http().get(`${translationPath('cs')}changes/`).expect(200);
    expect(translation.body.count).toBe(4);
    // Spec rule 2: every item of a translation's list carries that translation.
    for (const change of translation.body.results as Change[]) expect(change.translation).toBe(apiLink(origin, translationPath('cs')));
    const otherProject = await app.http().get(`/api/projects/${other.project.slug}/changes/`).expect(200);
    expect(otherProject.body.count).toBe(3);
    await app.http().get('/api/projects/missing/changes/').expect(404);
    await app.http().get(`/api/components/${content.project.slug}/missing/changes/`).expect(404);
    await app.http().get(`${translationPath('ja')}changes/`).expect(404);
  });

  it('links user and author of changes made through the API', async () => {
    const response = await app.http().get('/api/changes/?user=admin').expect(200);
    expect(response.body.results.map((c: Change) => [c.action, c.action_name])).toEqual([
      [45, 'New contributor'],
      [5, 'New translation'],
    ]);
    for (const change of response.body.results as Change[]) {
      expect(change.user).toBe(apiLink(origin, '/api/users/admin/'));
      expect(change.author).toBe(apiLink(origin, '/api/users/admin/'));
    }
    expect((await app.http().get('/api/changes/?user=nonexisting').expect(200)).body.count).toBe(0);
  });

  it('filters by repeated action codes and rejects unknown ones', async () => {
    const response = await app.http().get('/api/changes/?action=59&action=5').expect(200);
    expect(response.body.results.map((c: Change) => c.action)).toEqual([59, 59, 59, 5]);
    const invalid = await app.http().get('/api/changes/?action=999').expect(400);
    expectApiHeaders(invalid, 'GET, HEAD, OPTIONS');
    expect(invalid.body).toEqual({ action: ['Select a valid choice. 999 is not one of the available choices.'] });
  });

  it('filters by inclusive timestamp bounds and rejects invalid ones', async () => {
    const all = (await app.http().get('/api/changes/').expect(200)).body.results as Change[];
    const middle = all[4].timestamp;
    const after = await app.http().get(`/api/changes/?timestamp_after=${encodeURIComponent(middle)}`).expect(200);
    expect(after.body.results.map((c: Change) => c.id)).toEqual(all.slice(4).map((c) => c.id));
    const before = await app.http().get(`/api/changes/?timestamp_before=${encodeURIComponent(middle)}`).expect(200);
    expect(before.body.results.map((c: Change) => c.id)).toEqual(all.slice(0, 5).map((c) => c.id));
    expect((await app.http().get('/api/changes/?timestamp_before=2000-01-01').expect(200)).body.count).toBe(0);
    const invalid = await app.http().get('/api/changes/?timestamp_after=yesterday').expect(400);
    expect(invalid.body).toEqual({ timestamp: ['Enter a valid date/time.'] });
  });

  it('paginates with the standard envelope', async () => {
    const first = await app.http().get('/api/changes/?page_size=4').expect(200);
    expect(first.body.next).toBe(`${origin}/api/changes/?format=api&page=2&page_size=4`);
    const last = await app.http().get('/api/changes/?page_size=4&page=2&action=0&action=59').expect(200);
    expect(last.body.count).toBe(8);
    expect(last.body.next).toBeNull();
    expect(last.body.previous).toBe(`${origin}/api/changes/?action=0&action=59&format=api&page_size=4`);
    await app.http().get('/api/changes/?page=9').expect(404, { detail: 'Invalid page.' });
  });

  it('shows one change, 404 for unknown ids and 405 for writes', async () => {
    const list = await app.http().get('/api/changes/').expect(200);
    const change = list.body.results[1] as Change;
    const detail = await app.http().get(`/api/changes/${change.id}/`).expect(200);
    expectApiHeaders(detail, 'GET, HEAD, OPTIONS');
    expect(detail.body).toEqual(change);
    await app.http().get('/api/changes/99999999/').expect(404, { detail: 'Not found.' });
    await app.http().get('/api/changes/abc/').expect(404);
    const post = await app.http().post('/api/changes/').set(...admin).send({}).expect(405);
    expectApiHeaders(post, 'GET, HEAD, OPTIONS');
  });

  it('resolves every link of a change (user links are skipped until the users routes exist)', async () => {
    const response = await app.http().get('/api/changes/?user=admin').expect(200);
    const change = response.body.results[1] as Change;
    for (const link of [change.url, change.unit, change.translation, change.component, change.user, change.author]) {
      const pathname = new URL(link!).pathname;
      const status = (await app.http().get(pathname).set(...admin)).status;
      if (status === 404 && OPTIONAL_ROUTES.test(pathname)) continue;
      expect([pathname, status]).toEqual([pathname, 200]);
    }
  });
});
