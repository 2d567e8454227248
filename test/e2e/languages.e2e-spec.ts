import { DataSource } from 'typeorm';
import { loadLanguageCatalog } from '../../src/modules/languages/language-catalog';
import { Language } from '../../src/modules/languages/language.entity';
import { apiLink, authHeader, expectApiHeaders } from '../support/contract';
import { createComponent, createProject } from '../support/factories';
import { createTestApp, TEST_ADMIN_TOKEN, TestApp } from '../support/test-app';
import { createTranslation, createUserWithToken } from '../support/users-factories';

const LANGUAGE_KEYS = ['code', 'name', 'plural', 'aliases', 'direction', 'population', 'web_url', 'url', 'statistics_url'];
const PLURAL_KEYS = ['id', 'source', 'number', 'formula', 'type'];
const LIST_ALLOW = 'GET, POST, HEAD, OPTIONS';
const DETAIL_ALLOW = 'GET, PUT, PATCH, DELETE, HEAD, OPTIONS';

describe('languages', () => {
  let app: TestApp;
  let origin: string;
  let dataSource: DataSource;
  let userToken: string;

  beforeAll(async () => {
    app = await createTestApp();
    origin = `http://127.0.0.1:${(app.glossa.app.getHttpServer().address() as { port: number }).port}`;
    dataSource = app.glossa.app.get(DataSource);
    userToken = (await createUserWithToken(dataSource, 'translator')).token;
  });
  afterAll(async () => {
    await app.close();
  });

  const admin = authHeader(TEST_ADMIN_TOKEN);
  const user = () => authHeader(userToken);
  const languageByCode = (code: string) => dataSource.getRepository(Language).findOneByOrFail({ code });

  /** Makes `codes` "in use": one component (source English) with a translation per code. */
  async function translateInto(codes: string[]): Promise<void> {
    const component = await createComponent(dataSource, await createProject(dataSource));
    for (const code of codes) await createTranslation(dataSource, component, await languageByCode(code));
  }

  it('lists nothing to anonymous callers while no language has a translation, everything to superusers', async () => {
    const anonymous = await app.http().get('/api/languages/').expect(200);
    expectApiHeaders(anonymous, LIST_ALLOW);
    expect(anonymous.body).toEqual({ count: 0, next: null, previous: null, results: [] });

    const all = await app.http().get('/api/languages/').set(...admin).expect(200);
    const catalogSize = loadLanguageCatalog().length;
    expect(all.body.count).toBe(catalogSize);
    expect(all.body.results).toHaveLength(50);
    expect(all.body.next).toBe(`${origin}/api/languages/?format=api&page=2`);
    const ids = all.body.results.map((l: { plural: { id: number } }) => l.plural.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));

    const last = await app.http().get('/api/languages/?page=last&page_size=1000').set(...admin).expect(200);
    expect(last.body.results).toHaveLength(catalogSize);
    expect(last.body.next).toBeNull();
    await app.http().get('/api/languages/?page=3&page_size=1000').set(...admin).expect(404, { detail: 'Invalid page.' });
  });

  it('lists and shows languages with a translation to everyone, ordered by id, in the spec field order', async () => {
    await translateInto(['en', 'cs']);
    const list = await app.http().get('/api/languages/').expect(200);
    expectApiHeaders(list, LIST_ALLOW);
    expect(Object.keys(list.body)).toEqual(['count', 'next', 'previous', 'results']);
    expect(list.body.count).toBe(2);
    expect(list.body.results.map((l: { code: string }) => l.code)).toEqual(['cs', 'en']);

    const cs = list.body.results[0];
    expect(Object.keys(cs)).toEqual(LANGUAGE_KEYS);
    expect(Object.keys(cs.plural)).toEqual(PLURAL_KEYS);
    const row = await languageByCode('cs');
    expect(cs).toEqual({
      code: 'cs',
      name: 'Czech',
      plural: { id: row.id, source: 0, number: 3, formula: row.pluralFormula, type: row.pluralType },
      aliases: row.aliases,
      direction: 'ltr',
      population: Number(row.population),
      web_url: 'http://glossa.test/languages/cs/',
      url: apiLink(origin, '/api/languages/cs/'),
      statistics_url: apiLink(origin, '/api/languages/cs/statistics/'),
    });
    expect(typeof cs.population).toBe('number');

    const detail = await app.http().get('/api/languages/cs/').expect(200);
    expectApiHeaders(detail, DETAIL_ALLOW);
    expect(detail.body).toEqual(cs);
    const withoutSlash = await app.http().get('/api/languages/cs').expect(200);
    expect(withoutSlash.body).toEqual(cs);
    const head = await app.http().head('/api/languages/cs/').expect(200);
    expectApiHeaders(head, DETAIL_ALLOW);

    // Paging through the visible languages.
    const first = await app.http().get('/api/languages/?page_size=1').expect(200);
    expect(first.body).toMatchObject({ count: 2, next: `${origin}/api/languages/?format=api&page=2&page_size=1`, previous: null });
    const second = await app.http().get('/api/languages/?page=2&page_size=1').expect(200);
    expect(second.body).toMatchObject({ next: null, previous: `${origin}/api/languages/?format=api&page_size=1` });
    expect(second.body.results[0].code).toBe('en');
  });

  it('hides languages without translations from non-superusers (404) and shows them to superusers', async () => {
    const hidden = await app.http().get('/api/languages/de/').expect(404);
    expectApiHeaders(hidden, DETAIL_ALLOW);
    expect(hidden.body).toEqual({ detail: 'Not found.' });
    await app.http().get('/api/languages/de/').set(...user()).expect(404);
    const shown = await app.http().get('/api/languages/de/').set(...admin).expect(200);
    expect(shown.body.name).toBe('German');
    await app.http().get('/api/languages/no-such-code/').set(...admin).expect(404, { detail: 'Not found.' });
    const userList = await app.http().get('/api/languages/').set(...user()).expect(200);
    expect(userList.body.count).toBe(2);
  });

  it('creates a language as superuser: 201, Location, computed plural type', async () => {
    const created = await app
      .http()
      .post('/api/languages/')
      .set(...admin)
      .send({ code: 'xx_test', name: 'Test language', direction: 'rtl', population: 1234, plural: { number: 2, formula: 'n > 1' } })
      .expect(201);
    expectApiHeaders(created, LIST_ALLOW);
    expect(created.headers['location']).toBe(apiLink(origin, '/api/languages/xx_test/'));
    expect(Object.keys(created.body)).toEqual(LANGUAGE_KEYS);
    const row = await languageByCode('xx_test');
    expect(created.body).toEqual({
      code: 'xx_test',
      name: 'Test language',
      plural: { id: row.id, source: 0, number: 2, formula: 'n > 1', type: 1 },
      aliases: [],
      direction: 'rtl',
      population: 1234,
      web_url: 'http://glossa.test/languages/xx_test/',
      url: apiLink(origin, '/api/languages/xx_test/'),
      statistics_url: apiLink(origin, '/api/languages/xx_test/statistics/'),
    });

    // Form-encoded bodies work too (DRF parses them; nested fields as `plural.number`, DRF's parse_html_dict);
    // defaults fill what is left out; unknown formulas are 666.
    const form = await app
      .http()
      .post('/api/languages/')
      .set(...admin)
      .type('form')
      .send('code=yy_test&name=Other&plural.number=3&plural.formula=n%253')
      .expect(201);
    expect(form.body).toMatchObject({ code: 'yy_test', direction: 'ltr', population: 0, plural: { number: 3, formula: 'n%3', type: 666 } });

    // Without translations the new language is visible to superusers only (weblate-api.md §12).
    await app.http().get('/api/languages/xx_test/').expect(404);
    await app.http().get('/api/languages/xx_test/').set(...admin).expect(200);
  });

  it('validates language bodies with DRF messages', async () => {
    const post = (body: unknown) => app.http().post('/api/languages/').set(...admin).send(body as object);
    expect((await post({}).expect(400)).body).toEqual({
      code: ['This field is required.'],
      name: ['This field is required.'],
      plural: ['This field is required.'],
    });
    expect((await post({ code: 'zz', name: 'Zz' }).expect(400)).body).toEqual({ plural: ['This field is required.'] });
    expect((await post({ code: 'cs', name: 'Czech again', plural: { number: 2, formula: 'n != 1' } }).expect(400)).body).toEqual({
      code: ['Language with this Language code already exists.'],
    });
    expect((await post({ code: 'bad code', name: 'X', plural: { number: 2, formula: 'n != 1' } }).expect(400)).body).toEqual({
      code: ['Enter a valid language code.'],
    });
    expect((await post({ code: 'zz', name: '', plural: { number: 0, formula: 'n != x' } }).expect(400)).body).toEqual({
      name: ['This field may not be blank.'],
      plural: {
        number: ['Ensure this value is greater than or equal to 1.'],
        formula: ['Could not evaluate plural formula: invalid token in plural form: x'],
      },
    });
    expect((await post({ code: 'zz', name: 'Zz', plural: 'n != 1' }).expect(400)).body).toEqual({
      plural: ['Invalid data. Expected a dictionary, but got str.'],
    });
    expect((await post({ code: 'zz', name: 'Zz', direction: 'up', population: 'many', plural: { number: 'two', formula: 'n' } }).expect(400)).body).toEqual({
      direction: ['"up" is not a valid choice.'],
      population: ['A valid integer is required.'],
      plural: { number: ['A valid integer is required.'] },
    });
    const missing = await app.http().get('/api/languages/zz/').set(...admin).expect(404);
    expect(missing.body).toEqual({ detail: 'Not found.' });
  });

  it('refuses writes to anonymous (401) and non-superusers (403, checked before the lookup)', async () => {
    const body = { code: 'zz', name: 'Zz', plural: { number: 2, formula: 'n != 1' } };
    const anonymous = await app.http().post('/api/languages/').send(body).expect(401);
    expectApiHeaders(anonymous, LIST_ALLOW);
    expect(anonymous.body).toEqual({ detail: 'Authentication credentials were not provided.' });
    const denied = await app.http().post('/api/languages/').set(...user()).send(body).expect(403);
    expect(denied.body).toEqual({ detail: 'Can not manage languages' });
    await app.http().patch('/api/languages/cs/').send({ name: 'X' }).expect(401);
    expect((await app.http().patch('/api/languages/cs/').set(...user()).send({ name: 'X' }).expect(403)).body).toEqual({
      detail: 'Can not manage languages',
    });
    await app.http().put('/api/languages/nothing/').set(...user()).send(body).expect(403);
    await app.http().delete('/api/languages/cs/').set(...user()).expect(403);
    await app.http().delete('/api/languages/cs/').expect(401);
  });

  it('updates languages with PATCH and PUT, recomputing the plural type', async () => {
    const patched = await app.http().patch('/api/languages/xx_test/').set(...admin).send({ name: 'Renamed' }).expect(200);
    expectApiHeaders(patched, DETAIL_ALLOW);
    expect(patched.body).toMatchObject({ name: 'Renamed', direction: 'rtl', plural: { number: 2, formula: 'n > 1', type: 1 } });

    const formula = await app
      .http()
      .patch('/api/languages/xx_test/')
      .set(...admin)
      .send({ plural: { formula: '(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2', number: 3 } })
      .expect(200);
    expect(formula.body.plural).toMatchObject({ number: 3, type: 22 });

    // PUT accepts a GET body sent back with changes; read-only fields are ignored, as DRF ignores them.
    const current = (await app.http().get('/api/languages/xx_test/').set(...admin).expect(200)).body;
    const put = await app
      .http()
      .put('/api/languages/xx_test/')
      .set(...admin)
      .send({ ...current, name: 'Put name', plural: { ...current.plural, formula: '0', number: 1 } })
      .expect(200);
    expect(put.body).toEqual({ ...current, name: 'Put name', plural: { ...current.plural, formula: '0', number: 1, type: 0 } });
    expect((await app.http().put('/api/languages/xx_test/').set(...admin).send({ name: 'Only name' }).expect(400)).body).toEqual({
      code: ['This field is required.'],
      plural: ['This field is required.'],
    });

    // Renaming the code moves the URL; another language's code is refused.
    const renamed = await app.http().patch('/api/languages/xx_test/').set(...admin).send({ code: 'xx_renamed' }).expect(200);
    expect(renamed.body.url).toBe(apiLink(origin, '/api/languages/xx_renamed/'));
    await app.http().get('/api/languages/xx_test/').set(...admin).expect(404);
    expect((await app.http().patch('/api/languages/xx_renamed/').set(...admin).send({ code: 'cs' }).expect(400)).body).toEqual({
      code: ['Language with this Language code already exists.'],
    });
    await app.http().patch('/api/languages/missing/').set(...admin).send({ name: 'X' }).expect(404);
  });

  it('deletes unused languages (204) and refuses languages in use', async () => {
    const deleted = await app.http().delete('/api/languages/xx_renamed/').set(...admin).expect(204);
    expect(deleted.text).toBe('');
    await app.http().get('/api/languages/xx_renamed/').set(...admin).expect(404);
    await app.http().delete('/api/languages/xx_renamed/').set(...admin).expect(404);
    const inUse = await app.http().delete('/api/languages/cs/').set(...admin).expect(400);
    expect(inUse.body).toEqual({ detail: 'Can not delete a language that is used by translations or components.' });
    await app.http().get('/api/languages/cs/').expect(200);
  });

  it('answers 405 with Allow for unsupported methods and OPTIONS everywhere', async () => {
    const list = await app.http().delete('/api/languages/').set(...admin).expect(405);
    expectApiHeaders(list, LIST_ALLOW);
    expect(list.body).toEqual({ detail: 'Method "DELETE" not allowed.' });
    const detail = await app.http().post('/api/languages/cs/').set(...admin).expect(405);
    expectApiHeaders(detail, DETAIL_ALLOW);
    expect(detail.body).toEqual({ detail: 'Method "POST" not allowed.' });
    const options = await app.http().options('/api/languages/cs/').expect(200);
    expectApiHeaders(options, DETAIL_ALLOW);
  });
});
