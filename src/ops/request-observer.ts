import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Logger } from 'pino';
import { isHookPath } from '../common/http/hook-paths';
import type { RouteTable } from '../common/http/route-table';
import type { OpsMetrics } from './metrics';

export const REQUEST_ID_HEADER = 'X-Request-Id';
/** A caller's id is kept only when it is a plain token: it ends up in log lines and a response header. */
const ACCEPTABLE_REQUEST_ID = /^[A-Za-z0-9._:@/+=-]{1,128}$/;
const OPS_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

/** What the observer keeps on the request (own properties, so the finish listener needs no closure). */
type ObservedRequest = Request & { glossaRequestId?: string; glossaStarted?: number };

/** The request id of a request (set by requestObserver, which runs first). */
export function requestIdOf(request: Request): string | undefined {
  return (request as ObservedRequest).glossaRequestId;
}

/** Route pattern for metrics: a bounded label set (never raw paths, which would explode cardinality). */
function routeLabel(routes: RouteTable, path: string): string {
  if (OPS_PATHS.has(path)) return path;
  if (path.startsWith('/api/docs')) return '/api/docs';
  // The repository hooks (exact paths only) are routes too: `/hooks/github/`, `/hooks/update/:project/`, ….
  if (path === '/api' || path.startsWith('/api/') || isHookPath(path)) return routes.match(path)?.pattern ?? 'unmatched';
  return 'unmatched';
}

/**
 * First middleware of the app: takes the request id from X-Request-Id (or makes one), returns it in the
 * response header, and when the response is finished writes one JSON access-log line carrying that id
 * and records the latency histogram by route pattern.
 *
 * The response's `finish` is observed on the app's response prototype (observeFinish), so a request adds no
 * listener, and the start is a `performance.now()` number: no closure and no BigInts per request
 * (docs/performance.md, "Per-request overhead, session 9" and "The request pipeline, session 21"). The clock
 * is the same monotonic one as `process.hrtime`.
 *
 * `responses` is the Express app's response prototype (`app.response`), which every response of the app
 * inherits (server-dispatch.ts sets it, as Express's `app.handle` does).
 */
export function requestObserver(logger: Logger, metrics: OpsMetrics, routes: RouteTable, responses: Response): RequestHandler {
  function finished(this: Response): void {
    const request = this.req as ObservedRequest;
    // Only requests this pipeline step saw (every request of the app: it runs first).
    if (request.glossaStarted === undefined) return;
    const seconds = (performance.now() - request.glossaStarted) / 1e3;
    metrics.observeRequest(request.method, routeLabel(routes, request.path), this.statusCode, seconds);
    // The line's object is built only when it is written (LOG_LEVEL above info skips it: one allocation
    // less per request, docs/performance.md "Request pipeline").
    if (!logger.isLevelEnabled('info')) return;
    logger.info(
      {
        requestId: request.glossaRequestId,
        method: request.method,
        // A read answered in the pipeline never entered Express's router, which sets originalUrl (server-dispatch.ts).
        url: request.originalUrl ?? request.url,
        statusCode: this.statusCode,
        responseTimeMs: Math.round(seconds * 1e6) / 1e3,
        remoteAddress: request.ip,
      },
      'request completed',
    );
  }
  observeFinish(responses, finished);
  return (request: Request, response: Response, next: NextFunction) => {
    (request as ObservedRequest).glossaStarted = performance.now();
    const offered = request.headers['x-request-id'];
    const requestId = typeof offered === 'string' && ACCEPTABLE_REQUEST_ID.test(offered) ? offered : randomUUID();
    (request as ObservedRequest).glossaRequestId = requestId;
    response.setHeader(REQUEST_ID_HEADER, requestId);
    next();
  };
}

/**
 * Calls `onFinish` on each response inheriting `prototype` right after it emitted `finish` (and so after the
 * listeners Node's HTTP server added, as a listener of ours added later would run). A `finish` listener per
 * response cost an `_events` array, and a copy of it on every emit of the event: about 5 µs of an anonymous
 * `/api/` request's CPU (docs/performance.md, "The request pipeline, session 21"). `emit` is wrapped once per
 * app; every other event passes through unchanged.
 */
export function observeFinish(prototype: Response, onFinish: (this: Response) => void): void {
  const emit = prototype.emit;
  prototype.emit = function emitObserved(this: Response, event: string | symbol): boolean {
    // `arguments` rather than a rest parameter: no array per emit, and emit runs for every stream event.
    // eslint-disable-next-line prefer-rest-params
    const handled = Reflect.apply(emit, this, arguments) as boolean;
    if (event === 'finish') onFinish.call(this);
    return handled;
  } as Response['emit'];
}
