import { DataSource } from 'typeorm';
import { createTranslatedComponent, SeededContent } from '../support/content-factories';
import { apiLink, authHeader, expectApiHeaders } from '../support/contract';
import { createTestApp, TEST_ADMIN_TOKEN, TestApp } from '../support/test-app';

// GET handlers run by the request pipeline without Nest's route handler (src/common/http/direct-handlers.ts):
// which routes the real app gives it, and that the guard's and the filter's answers reach the client as they
// did through Nest. Every other e2e suite's reads of these routes go the same way.

describe('direct handlers', () => {
  let app: TestApp;
  let content: SeededContent;
  const admin = authHeader(TEST_ADMIN_TOKEN);
  const unitPath = () => `/api/units/${content.translations.find((t) => t.languageCode === 'cs')!.unitIds[0]}/`;

  beforeAll(async () => {
    app = await createTestApp();
    content = await createTranslatedComponent(app.glossa.app.get(DataSource), { languages: ['cs'], units: 2 });
  });

  afterAll(async () => {
    await app?.close();
  });

  it('run the detail and list reads, and leave routes with other parameters or enhancers to Nest', () => {
    const routes = app.glossa.directHandlerRoutes;
    expect(routes).toEqual(
      expect.arrayContaining([
        '/api/',
        '/api/projects/',
        '/api/projects/:project/',
        '/api/components/:project/:component/',
        '/api/translations/:project/:component/:language/',
        '/api/translations/:project/:component/:language/units/',
        '/api/translations/:project/:component/:language/statistics/',
        '/api/units/:id/',
        '/api/changes/',
        '/api/changes/:id/',
      ]),
    );
    // A file download writes the response itself (@Res); the change stream is a server-sent event stream.
    expect(routes).not.toContain('/api/translations/:project/:component/:language/file/');
    expect(routes).not.toContain('/api/changes/stream/');
    expect(routes.every((route) => route.startsWith('/api/') && route.endsWith('/'))).toBe(true);
  });

  it('answer as before: the body, the contract headers and an ETag; HEAD with the same headers and no body', async () => {
    const get = await app.http().get(unitPath()).set(...admin).expect(200);
    expectApiHeaders(get, 'GET, PUT, PATCH, DELETE, HEAD, OPTIONS');
    expect(get.headers['content-type']).toBe('application/json');
    expect(get.body.url).toBe(apiLink(new URL(get.request.url).origin, unitPath()));
    const head = await app.http().head(unitPath()).set(...admin).expect(200);
    expect(head.text ?? '').toBe('');
    expect(head.headers['etag']).toBe(get.headers['etag']);
    expect(head.headers['content-length']).toBe(get.headers['content-length']);
    await app.http().get(unitPath()).set(...admin).set('If-None-Match', get.headers['etag']).expect(304);
  });

  it('send the guard’s refusals and the handlers’ errors through the exception filter', async () => {
    const invalid = await app.http().get(unitPath()).set(...authHeader('wlu_notatokenatall000000000000000000000000')).expect(401);
    expect(invalid.body).toEqual({ detail: 'Invalid token.' });
    expectApiHeaders(invalid, 'GET, PUT, PATCH, DELETE, HEAD, OPTIONS');
    const malformed = await app.http().get('/api/').set('Authorization', 'Token a b').expect(401);
    expect(malformed.body).toEqual({ detail: 'Invalid token header. Token string should not contain spaces.' });
    const missing = await app.http().get('/api/units/987654321/').expect(404);
    expect(missing.body).toEqual({ detail: 'Not found.' });
    const missingProject = await app.http().get('/api/projects/no-such-project/').expect(404);
    expect(missingProject.body).toEqual({ detail: 'Not found.' });
  });
});
