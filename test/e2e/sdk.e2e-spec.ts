import { createGlossaClient, type GlossaClient } from '../../openapi/sdk';
import { createTestApp, TEST_ADMIN_TOKEN, TestApp } from '../support/test-app';
import { PATIENCE_MS } from '../support/wait';

/**
 * Drives a running Glossa (demo data) through the committed TypeScript SDK (openapi/sdk: types generated
 * from openapi/openapi.json by openapi-typescript, calls made by openapi-fetch), the way a user's generated
 * client would: list, read, translate a unit, commit. Also checks what Swagger UI is given, so "Authorize"
 * with `Token <key>` works there.
 */
describe('TypeScript SDK against a running Glossa', () => {
  let app: TestApp;
  let anonymous: GlossaClient;
  let admin: GlossaClient;
  const component = { project: 'demo', component: 'app' };

  beforeAll(async () => {
    app = await createTestApp({ DEMO: 'true' });
    const port = (app.glossa.app.getHttpServer().address() as { port: number }).port;
    anonymous = createGlossaClient({ baseUrl: `http://127.0.0.1:${port}` });
    admin = createGlossaClient({ baseUrl: `http://127.0.0.1:${port}`, token: TEST_ADMIN_TOKEN });
    await waitForDemoImport();
  });
  afterAll(async () => {
    await app.close();
  });

  /** The demo component is imported in the background; its task_url is null once the import is done. */
  async function waitForDemoImport(): Promise<void> {
    const deadline = Date.now() + PATIENCE_MS;
    for (;;) {
      const { data } = await anonymous.GET('/api/components/{project}/{component}/', { params: { path: component } });
      if (data && data.task_url === null) return;
      if (Date.now() > deadline) throw new Error('The demo import did not finish');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  it('lists projects and reads a project (listProjects, getProject)', async () => {
    const { data, error, response } = await anonymous.GET('/api/projects/');
    expect(error).toBeUndefined();
    expect(response.status).toBe(200);
    expect(data!.count).toBe(1);
    expect(data!.results.map((project) => project.slug)).toEqual(['demo']);

    const project = await anonymous.GET('/api/projects/{project}/', { params: { path: { project: 'demo' } } });
    expect(project.data!.name).toBe('Demo');
    expect(project.data!.components_list_url).toMatch(/\/api\/projects\/demo\/components\/\?format=api$/);
  });

  it('pages with page_size (query parameters)', async () => {
    const { data } = await anonymous.GET('/api/languages/', { params: { query: { page_size: 1 } } });
    expect(data!.results).toHaveLength(1);
    expect(data!.next).toMatch(/page=2/);
  });

  it('reads a component, its translations and a translation (getComponent, listComponentTranslations, getTranslation)', async () => {
    const detail = await anonymous.GET('/api/components/{project}/{component}/', { params: { path: component } });
    expect(detail.data).toMatchObject({ slug: 'app', file_format: 'json-nested', filemask: 'translations/*/app.json' });

    const translations = await anonymous.GET('/api/components/{project}/{component}/translations/', { params: { path: component } });
    expect(translations.data!.results.map((t) => t.language_code).sort()).toEqual(['cs', 'de', 'en']);

    const cs = await anonymous.GET('/api/translations/{project}/{component}/{language}/', {
      params: { path: { ...component, language: 'cs' } },
    });
    expect(cs.data).toMatchObject({ language_code: 'cs', filename: 'translations/cs/app.json', translated_percent: 100 });
  });

  it('answers typed errors: 404 {detail} and 401 for an anonymous write', async () => {
    const missing = await anonymous.GET('/api/projects/{project}/', { params: { path: { project: 'nope' } } });
    expect(missing.response.status).toBe(404);
    expect(missing.error).toEqual({ detail: 'Not found.' });

    const units = await anonymous.GET('/api/translations/{project}/{component}/{language}/units/', {
      params: { path: { ...component, language: 'de' } },
    });
    const denied = await anonymous.PATCH('/api/units/{id}/', {
      params: { path: { id: String(units.data!.results[0].id) } },
      body: { target: ['x'], state: 20 },
    });
    expect(denied.response.status).toBe(401);
    expect(denied.error).toEqual({ detail: 'Authentication credentials were not provided.' });
  });

  it('translates a unit (listTranslationUnits, updateUnit) and commits it (runComponentRepositoryOperation)', async () => {
    const units = await anonymous.GET('/api/translations/{project}/{component}/{language}/units/', {
      params: { path: { ...component, language: 'de' }, query: { q: 'context:menu.file' } },
    });
    expect(units.data!.count).toBe(1);
    const unit = units.data!.results[0];
    expect(unit).toMatchObject({ context: 'menu.file', target: ['Datei'] });

    const edit = await admin.PATCH('/api/units/{id}/', {
      params: { path: { id: String(unit.id) } },
      body: { target: ['Datei (SDK)'], state: 20 },
    });
    expect(edit.error).toBeUndefined();
    expect(edit.response.status).toBe(200);
    expect(edit.data).toMatchObject({ target: ['Datei (SDK)'], state: 20 });

    const reread = await anonymous.GET('/api/units/{id}/', { params: { path: { id: String(unit.id) } } });
    expect(reread.data).toMatchObject({ target: ['Datei (SDK)'], state: 20 });

    const before = await admin.GET('/api/components/{project}/{component}/repository/', { params: { path: component } });
    expect(before.data!.needs_commit).toBe(true);

    const commit = await admin.POST('/api/components/{project}/{component}/repository/', {
      params: { path: component },
      body: { operation: 'commit' },
    });
    expect(commit.error).toBeUndefined();
    expect(commit.response.status).toBe(200);
    expect(commit.data!.result).toBe(true);

    const after = await admin.GET('/api/components/{project}/{component}/repository/', { params: { path: component } });
    expect(after.data!.needs_commit).toBe(false);
    // The demo's push target is its own repository and push_on_commit is on (Weblate's default), so the
    // commit went upstream at once.
    expect(after.data!.needs_push).toBe(false);

    // The committed file carries the new translation (parseAs: the download is a file, not an API object).
    const file = await anonymous.GET('/api/translations/{project}/{component}/{language}/file/', {
      params: { path: { ...component, language: 'de' } },
      parseAs: 'text',
    });
    expect(JSON.parse(file.data as unknown as string).menu.file).toBe('Datei (SDK)');
  });

  it('reads the operator endpoints through the SDK', async () => {
    const ready = await anonymous.GET('/readyz');
    expect(ready.response.status).toBe(200);
    expect(ready.data).toEqual({ status: 'ok', checks: { database: 'ok', job_queue: 'ok' } });
    const live = await anonymous.GET('/healthz');
    expect(live.data).toEqual({ status: 'ok' });
  });

  it('the served document and Swagger UI carry the token scheme', async () => {
    const schema = await app.http().get('/api/schema/').expect(200);
    expect(schema.body.components.securitySchemes.token).toMatchObject({ type: 'apiKey', in: 'header', name: 'Authorization' });
    expect(schema.body.paths['/api/units/{id}/'].patch).toMatchObject({ operationId: 'updateUnit', security: [{ token: [] }, { bearer: [] }] });
    // The operator endpoints are described too, without a token.
    expect(schema.body.paths['/readyz'].get).toMatchObject({ operationId: 'getReadiness', security: [] });
    expect(Object.keys(schema.body.paths['/healthz'].get.responses)).toEqual(['200']);

    const page = await app.http().get('/api/docs/').expect(200);
    expect(page.text).toContain('swagger-ui-init.js');
    const init = await app.http().get('/api/docs/swagger-ui-init.js').expect(200);
    expect(init.text).toContain('"securitySchemes"');
    expect(init.text).toContain('"persistAuthorization": true');
    expect(init.text).toContain('"operationId": "listProjects"');
  });
});
