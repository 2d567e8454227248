import { apiLink, authHeader, expectApiHeaders } from '../support/contract';
import { createTestApp, TEST_ADMIN_TOKEN, TestApp } from '../support/test-app';
import { PROJECT_KEYS } from '../support/spec-shapes';
import { PATIENCE_MS } from '../support/wait';


describe('projects', () => {
  let app: TestApp;
  let origin: string;
  beforeAll(async () => {
    app = await createTestApp();
    origin = `http://127.0.0.1:${(app.glossa.app.getHttpServer().address() as { port: number }).port}`;
  });
  afterAll(async () => {
    await app.close();
  });

  const create = (body: Record<string, unknown>, token = TEST_ADMIN_TOKEN) =>
    app.http().post('/api/projects/').set(...authHeader(token)).send(body);

  it('creates a project as the bootstrap administrator (201 + Location)', async () => {
    const response = await create({ name: 'Hello', slug: 'hello', web: 'https://hello.example/' }).expect(201);
    expectApiHeaders(response, 'GET, POST, HEAD, OPTIONS');
    expect(Object.keys(response.body)).toEqual(PROJECT_KEYS);
    expect(response.headers['location']).toBe(apiLink(origin, '/api/projects/hello/'));
    expect(response.body).toMatchObject({
      name: 'Hello',
      slug: 'hello',
      web_url: 'http://glossa.test/projects/hello/',
      components_list_url: apiLink(origin, '/api/projects/hello/components/'),
      translation_review: false,
      set_language_team: true,
      enable_hooks: true,
      language_aliases: '',
    });
    expect(typeof response.body.id).toBe('number');
  });

  it('refuses anonymous (401), bad tokens (401) and invalid bodies (400) without creating anything', async () => {
    const anonymous = await app.http().post('/api/projects/').send({ name: 'X', slug: 'x', web: 'https://x.example/' }).expect(401);
    expect(anonymous.body).toEqual({ detail: 'Authentication credentials were not provided.' });
    expect(anonymous.headers['www-authenticate']).toBe('Token');
    const badToken = await create({ name: 'X', slug: 'x', web: 'https://x.example/' }, 'wlu_nope').expect(401);
    expect(badToken.body).toEqual({ detail: 'Invalid token.' });
    const invalid = await create({ name: '', slug: 'bad slug', web: 'https://x.example/' }).expect(400);
    expect(Object.keys(invalid.body).sort()).toEqual(['name', 'slug']);
    const duplicate = await create({ name: 'Hello', slug: 'hello', web: 'https://hello.example/' }).expect(400);
    expect(duplicate.body).toEqual({
      name: ['Project with this Project name already exists.'],
      slug: ['Project with this URL slug already exists.'],
    });
    const malformed = await app.http().post('/api/projects/').set(...authHeader(TEST_ADMIN_TOKEN)).set('Content-Type', 'application/json').send('{"name":').expect(400);
    expect(malformed.body.detail).toMatch(/^JSON parse error/);
    const list = await app.http().get('/api/projects/').expect(200);
    expect(list.body.count).toBe(1);
  });

  it('lists and shows projects', async () => {
    const list = await app.http().get('/api/projects/').expect(200);
    expectApiHeaders(list, 'GET, POST, HEAD, OPTIONS');
    expect(Object.keys(list.body)).toEqual(['count', 'next', 'previous', 'results']);
    expect(list.body.results[0].slug).toBe('hello');
    const detail = await app.http().get('/api/projects/hello/').expect(200);
    expectApiHeaders(detail, 'GET, PUT, PATCH, DELETE, HEAD, OPTIONS');
    expect(detail.body).toEqual(list.body.results[0]);
    await app.http().get('/api/projects/missing/').expect(404, { detail: 'Not found.' });
  });

  it('paginates with next/previous links and rejects pages past the end', async () => {
    await create({ name: 'Second', slug: 'second', web: 'https://second.example/' }).expect(201);
    await create({ name: 'Third', slug: 'third', web: 'https://third.example/' }).expect(201);
    const first = await app.http().get('/api/projects/?page_size=2').expect(200);
    expect(first.body.count).toBe(3);
    expect(first.body.results.map((p: { slug: string }) => p.slug)).toEqual(['hello', 'second']);
    expect(first.body.next).toBe(`${origin}/api/projects/?format=api&page=2&page_size=2`);
    expect(first.body.previous).toBeNull();
    const second = await app.http().get('/api/projects/?page=2&page_size=2').expect(200);
    expect(second.body.results.map((p: { slug: string }) => p.slug)).toEqual(['third']);
    expect(second.body.previous).toBe(`${origin}/api/projects/?format=api&page_size=2`);
    await app.http().get('/api/projects/?page=3&page_size=2').expect(404, { detail: 'Invalid page.' });
  });

  it('updates and deletes as an administrator', async () => {
    const patched = await app.http().patch('/api/projects/third/').set(...authHeader(TEST_ADMIN_TOKEN)).send({ instructions: 'Be nice' }).expect(200);
    expect(patched.body.instructions).toBe('Be nice');
    await app.http().delete('/api/projects/third/').set(...authHeader(TEST_ADMIN_TOKEN)).expect(204);
    // Removal runs as a background task (weblate-api.md §10.4): the project goes once it has run.
    const deadline = Date.now() + PATIENCE_MS;
    while ((await app.http().get('/api/projects/third/')).status !== 404) {
      if (Date.now() > deadline) throw new Error('Project removal did not finish');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  });
});
