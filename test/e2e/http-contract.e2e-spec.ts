import { createTestApp, TestApp } from '../support/test-app';

describe('HTTP contract', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp();
  });
  afterAll(async () => {
    await app.close();
  });

  it('GET /api/ lists the list endpoints with format=api links', async () => {
    const response = await app.http().get('/api/').expect(200);
    expect(response.headers['content-type']).toBe('application/json');
    expect(response.headers['vary']).toBe('Accept');
    expect(response.headers['allow']).toBe('GET, HEAD, OPTIONS');
    expect(Object.keys(response.body)).toEqual(['users', 'projects', 'components', 'translations', 'languages', 'changes', 'units']);
    const origin = `http://127.0.0.1:${(app.glossa.app.getHttpServer().address() as { port: number }).port}`;
    expect(response.body.projects).toBe(`${origin}/api/projects/?format=api`);
  });

  it('HEAD answers like GET without a body', async () => {
    const response = await app.http().head('/api/').expect(200);
    expect(response.headers['allow']).toBe('GET, HEAD, OPTIONS');
    expect(response.headers['vary']).toBe('Accept');
    expect(response.text ?? '').toBe('');
  });

  it('OPTIONS describes the route', async () => {
    const response = await app.http().options('/api/').expect(200);
    expect(response.headers['allow']).toBe('GET, HEAD, OPTIONS');
    expect(Object.keys(response.body)).toEqual(['name', 'description', 'renders', 'parses']);
  });

  it('answers 405 with Allow for an unsupported method on a known route', async () => {
    const response = await app.http().delete('/api/').set('Authorization', 'Token x').expect(405);
    expect(response.body).toEqual({ detail: 'Method "DELETE" not allowed.' });
    expect(response.headers['allow']).toBe('GET, HEAD, OPTIONS');
    expect(response.headers['vary']).toBe('Accept');
  });

  it('answers 404 in JSON for unknown API paths', async () => {
    const response = await app.http().get('/api/nothing-here/').expect(404);
    expect(response.body).toEqual({ detail: 'Not found.' });
    expect(response.headers['content-type']).toBe('application/json');
    expect(response.headers['vary']).toBe('Accept');
  });

  it('serves the OpenAPI document and Swagger UI', async () => {
    const schema = await app.http().get('/api/schema/').expect(200);
    expect(schema.body.openapi).toMatch(/^3\./);
    expect(schema.headers['allow']).toBe('GET, HEAD, OPTIONS');
    const ui = await app.http().get('/api/docs/').expect(200);
    expect(ui.headers['content-type']).toMatch(/text\/html/);
  });
});
