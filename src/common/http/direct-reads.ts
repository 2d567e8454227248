import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { DirectHandler, DirectHandlers } from './direct-handlers';
import type { RouteTable } from './route-table';

/** What this module needs of an Express 5 router layer (the `router` package's Layer and Route). */
interface RouterLayer {
  route?: { path: unknown; methods: Record<string, boolean | undefined>; stack: { method?: string; handle: RequestHandler }[] };
}

/** A read the chain hands straight to the handler Nest registered for it, or runs itself (direct-handlers.ts). */
interface DirectRead {
  route: NonNullable<RouterLayer['route']>;
  handle: RequestHandler;
  direct: DirectHandler | undefined;
}

function segmentsOf(pattern: string): string[] {
  return pattern.split('/').filter(Boolean);
}

/** Whether one concrete path could match both patterns (same length, and no two different static segments). */
function overlap(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((segment, i) => segment.startsWith(':') || b[i].startsWith(':') || segment === b[i]);
}

function staticCount(segments: string[]): number {
  return segments.filter((segment) => !segment.startsWith(':')).length;
}

/**
 * Whether Express could answer a path of `later` with the `earlier` route: they overlap, and the route table
 * would not pick `earlier` for such a path too (it prefers more static segments; `/api/changes/stream/` before
 * `/api/changes/:id/` is the same choice in both).
 */
function shadows(earlier: string[], later: string[]): boolean {
  return overlap(earlier, later) && staticCount(earlier) <= staticCount(later);
}

/**
 * GET/HEAD reads dispatched from the route table (docs/performance.md, "Read dispatch"). Express's router finds a
 * request's handler by testing the path against every layer it holds, in order: about 250 routes, so a detail
 * read paid a few hundred regular-expression tests and router steps on every request, although the HTTP contract
 * middleware had already matched the path exactly against the route table (route-table.ts, remembered per path).
 *
 * This is the last step of the request pipeline (middleware-chain.ts): for a GET or HEAD whose route is one of the
 * direct reads, it sets `req.params` and `req.route` as Express's router would and calls the very handler Nest
 * registered on that route — Nest's guards, pipes, exception filter and response writing included, so statuses,
 * headers, bodies and errors are those of the routed request by construction. A handler DirectHandlers can run
 * (direct-handlers.ts: no enhancers of its own, `@Ctx()` and `@Param` arguments) is run by it instead, with the
 * same guard, exception filter and reply. Every other request goes on to Express's router as before.
 *
 * A route is a direct read only when Express itself would pick it for every path the route table gives it: it
 * has one GET handler, and no route registered before it could match the same path unless the route table
 * would pick that earlier route as well (Express tries routes in registration order; the route table prefers
 * static segments). Routes are collected from the router after
 * `app.init()` registered them (`install`); until then every request takes the router.
 */
export class DirectReads {
  private readonly reads = new Map<string, DirectRead>();

  constructor(
    private readonly routes: RouteTable,
    /** GET handlers that run without Nest's route handler; installed before `install` is called. */
    private readonly handlers?: DirectHandlers,
  ) {}

  /** Reads the routes Nest registered on the app's router. Returns the patterns that are direct reads. */
  install(routerStack: readonly RouterLayer[]): string[] {
    const earlierGets: string[][] = [];
    const blocked = new Set<string>();
    for (const layer of routerStack) {
      const route = layer.route;
      if (!route || typeof route.path !== 'string' || route.methods.get !== true) continue;
      const pattern = route.path.endsWith('/') ? route.path : `${route.path}/`;
      const segments = segmentsOf(pattern);
      const shadowed = earlierGets.some((earlier) => shadows(earlier, segments));
      earlierGets.push(segments);
      if (shadowed || this.reads.has(pattern)) {
        // A second GET route on the same pattern, or one an earlier route may answer for: Express decides.
        this.reads.delete(pattern);
        blocked.add(pattern);
        continue;
      }
      if (blocked.has(pattern) || route.stack.length !== 1 || route.stack[0].method !== 'get') continue;
      this.reads.set(pattern, { route, handle: route.stack[0].handle, direct: this.handlers?.handlerFor(pattern) });
    }
    return [...this.reads.keys()];
  }

  /** The pipeline step. */
  middleware(): RequestHandler {
    return (request: Request, response: Response, next: NextFunction) => {
      const method = request.method;
      if ((method !== 'GET' && method !== 'HEAD') || this.reads.size === 0) {
        next();
        return;
      }
      const found = this.routes.resolve(request.path);
      const read = found && this.reads.get(found.route.pattern);
      if (!read) {
        next();
        return;
      }
      request.params = found.params();
      if (read.direct !== undefined) {
        // Nothing of a direct handler's run reads `req.route`, which only Express's router and Nest's route
        // handler know; leaving it unset measured about 3 µs less per request in one A/B (docs/performance.md,
        // "The request pipeline, session 21").
        this.handlers!.run(read.direct, request, response, next);
        return;
      }
      (request as { route?: unknown }).route = read.route;
      // Nest's route handler catches its own errors (exception filter); a rejection past it goes where
      // Express's router would send it.
      const returned = read.handle(request, response, next) as unknown;
      if (returned instanceof Promise) returned.catch((error: unknown) => next(error ?? new Error('Rejected promise')));
    };
  }
}
