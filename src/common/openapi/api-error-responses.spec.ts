import type { OpenAPIObject } from '@nestjs/swagger';
import { addDefaultErrorResponses } from './api-error-responses';

function documentWith(paths: OpenAPIObject['paths']): OpenAPIObject {
  return { openapi: '3.0.0', info: { title: 't', version: '1' }, paths };
}

const ok = { 200: { description: 'ok' } };

describe('addDefaultErrorResponses', () => {
  it('adds 401 and 429 everywhere, 404 for path objects and GET lists, 400 for bodies and filters, 403 for writes', () => {
    const document = documentWith({
      '/api/': { get: { responses: { ...ok } } },
      '/api/projects/': {
        get: { parameters: [{ name: 'page', in: 'query' }], responses: { ...ok } },
        post: { requestBody: { content: {} }, responses: { 201: { description: 'created' } } },
      },
      '/api/projects/{project}/': { delete: { responses: { 204: { description: 'gone' } } } },
      '/api/units/': { get: { parameters: [{ name: 'q', in: 'query' }], responses: { ...ok } } },
    });
    addDefaultErrorResponses(document);
    const codes = (path: string, method: 'get' | 'post' | 'delete') => Object.keys(document.paths[path][method]!.responses);
    expect(codes('/api/', 'get')).toEqual(['200', '401', '429']);
    expect(codes('/api/projects/', 'get')).toEqual(['200', '401', '404', '429']);
    expect(codes('/api/projects/', 'post')).toEqual(['201', '400', '401', '403', '429']);
    expect(codes('/api/projects/{project}/', 'delete')).toEqual(['204', '401', '403', '404', '429']);
    expect(codes('/api/units/', 'get')).toEqual(['200', '400', '401', '404', '429']);
    expect(Object.keys(document.components!.schemas!)).toEqual(['ApiErrorDetail', 'ApiValidationError']);
  });

  it('gives the repository hooks no 401/403 (they read no token) but 400, 404 for path objects and 429', () => {
    const document = documentWith({
      '/hooks/github/': { post: { requestBody: { content: {} }, responses: { ...ok } } },
      '/hooks/update/{project}/': { get: { responses: { ...ok } } },
    });
    addDefaultErrorResponses(document);
    expect(Object.keys(document.paths['/hooks/github/'].post!.responses)).toEqual(['200', '400', '429']);
    expect(Object.keys(document.paths['/hooks/update/{project}/'].get!.responses)).toEqual(['200', '404', '429']);
  });

  it('keeps a response a route documented itself', () => {
    const own = { description: 'Locked component', content: {} };
    const document = documentWith({ '/api/x/{id}/': { post: { responses: { ...ok, 403: own } } } });
    addDefaultErrorResponses(document);
    expect(document.paths['/api/x/{id}/'].post!.responses[403]).toBe(own);
  });

  it('refers to shared responses: 400 as a validation error or {detail}, the others as {detail}', () => {
    const document = documentWith({ '/api/x/': { post: { requestBody: { content: {} }, responses: { ...ok } } } });
    addDefaultErrorResponses(document);
    expect(document.paths['/api/x/'].post!.responses[400]).toEqual({ $ref: '#/components/responses/BadRequest' });
    expect(document.paths['/api/x/'].post!.responses[429]).toEqual({ $ref: '#/components/responses/TooManyRequests' });
    const shared = document.components!.responses as Record<string, { content: Record<string, { schema: unknown; example: unknown }>; headers?: object }>;
    expect(Object.keys(shared)).toEqual(['BadRequest', 'Unauthorized', 'Forbidden', 'NotFound', 'TooManyRequests']);
    expect(shared.BadRequest.content['application/json'].schema).toEqual({
      oneOf: [{ $ref: '#/components/schemas/ApiValidationError' }, { $ref: '#/components/schemas/ApiErrorDetail' }],
    });
    expect(shared.Unauthorized.content['application/json']).toEqual({
      schema: { $ref: '#/components/schemas/ApiErrorDetail' },
      example: { detail: 'Invalid token.' },
    });
    expect(Object.keys(shared.TooManyRequests.headers!)).toEqual(['Retry-After', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset']);
  });
});
