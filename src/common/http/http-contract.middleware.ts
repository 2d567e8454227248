import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { AppConfig } from '../../config/app-config';
import { LinkBuilder } from '../links/link-builder';
import { attachRequestContext, RequestContext, requestContextOfResponse } from './request-context';
import { RouteTable } from './route-table';
import { sendJson } from './send-json';
import { nulFieldErrors } from './validation';

/**
 * Swagger UI's HTML and assets (installOpenApi), served by Express itself rather than as JSON resources.
 * Compared exactly, in the case they were registered in, and without dot segments.
 */
export function isApiDocsPath(path: string): boolean {
  return (path === '/api/docs' || path.startsWith('/api/docs/')) && !/\/\.\.?(\/|$)/.test(path);
}

/** OPTIONS answer in the shape of DRF's SimpleMetadata (weblate-api.md §1.5). */
function optionsBody(pattern: string): Record<string, unknown> {
  const segments = pattern.split('/').filter(Boolean).slice(1);
  const statics = segments.filter((s) => !s.startsWith(':'));
  const resource = (statics[statics.length - 1] ?? 'api').replace(/[-_]/g, ' ');
  const title = resource.replace(/(^|\s)\S/g, (c) => c.toUpperCase());
  const isInstance = segments.length > 0 && segments[segments.length - 1].startsWith(':');
  return {
    name: segments.length === 0 ? 'Api Root' : `${title} ${isInstance ? 'Instance' : 'List'}`,
    description: '',
    renders: ['application/json'],
    parses: ['application/json', 'application/x-www-form-urlencoded', 'multipart/form-data'],
  };
}

/**
 * The API's HTTP contract in one place (architecture.md "The contract"): every response carries
 * `Vary: Accept` and the route's `Allow`; unknown paths are 404 and known paths with another method are
 * 405, both with DRF bodies; OPTIONS answers here for every route.
 *
 * It is also the gate in front of every handler (issue 10 item 4): a request reaches Nest only when its path
 * is exactly a route of the table (case-sensitive, no `//`, `%2F`, dot segments or undecodable/NUL
 * parameters). It runs for every path but the operator endpoints (answered before it) and Swagger UI, so no
 * other spelling of an API path (`/API/tasks/…`, `//api/…`) can reach a controller past this check, the
 * rate limiter before it, or the guards after it.
 */
export function httpContractMiddleware(routes: RouteTable, config: AppConfig): RequestHandler {
  return (request: Request, response: Response, next: NextFunction) => {
    const path = request.path;
    if (isApiDocsPath(path)) {
      next();
      return;
    }
    response.setHeader('Vary', 'Accept');
    const route = routes.match(path);
    if (!route) {
      sendJson(response, 404, { detail: 'Not found.' });
      return;
    }
    response.setHeader('Allow', route.allow);
    if (request.method === 'OPTIONS') {
      sendJson(response, 200, optionsBody(route.pattern));
      return;
    }
    if (!route.allows(request.method)) {
      sendJson(response, 405, { detail: `Method "${request.method}" not allowed.` });
      return;
    }
    // Express 5 parses the query string on every read of request.query: read it once.
    const query = request.query as Record<string, unknown>;
    // DRF's filter forms refuse NUL in a parameter (`q`, filters, `page`), which PostgreSQL cannot store in
    // text: it was a 500 (issue 10 item 10). The extended query parser nests at most 5 levels.
    const nulErrors = nulFieldErrors(query);
    if (nulErrors !== null) {
      sendJson(response, 400, nulErrors);
      return;
    }
    // The path as the route spells it (with its trailing slash), for pagination links and entity tags.
    const canonicalPath = path.endsWith('/') ? path : `${path}/`;
    const context = new RequestContext(LinkBuilder.forRequest(request, config, query), canonicalPath, query, request.headers['if-none-match']);
    // With the context attached, res.json writes through sendJson (installJsonWriter).
    attachRequestContext(response, context);
    next();
  };
}

/**
 * Handlers return plain objects; Nest hands them to res.json, which would lose 64-bit precision and one-decimal
 * percentages and add a charset. A response the HTTP contract middleware let through (it carries the request
 * context) is written by sendJson instead, with the entity tag the handler derived; any other keeps Express's
 * res.json. Installed once on the app's response prototype rather than as a closure on every response (an
 * allocation per request: docs/performance.md, "Per-request overhead, session 9").
 */
export function installJsonWriter(server: { response: Response }): void {
  const expressJson = server.response.json;
  server.response.json = function json(this: Response, body: unknown): Response {
    const context = requestContextOfResponse(this);
    if (context === undefined) return expressJson.call(this, body);
    const sent = sendJson(this, this.statusCode, body, context.etag);
    // A detail read whose rows' version the auth guard read keeps its answer (response-memo.ts).
    const pending = context.pendingAnswer;
    if (sent !== null && pending !== null) pending.memo.keep(pending.key, pending.version, sent);
    return this;
  };
}
