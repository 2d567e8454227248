import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Express, NextFunction, Request, RequestHandler, Response } from 'express';
import { middlewareChain } from './middleware-chain';

/** What the pipeline left for Express's router when a request went on to it from the server's listener. */
interface PipelineOutcome {
  error: unknown;
}

const PIPELINE_RAN = Symbol('glossa.pipelineRan');

type DispatchedRequest = Request & { [PIPELINE_RAN]?: PipelineOutcome };

/** Express's `app.handle` (express/lib/application.js), which its typings leave out. */
type HandlingApp = Express & { handle(request: Request, response: Response): void };

/**
 * Runs the request pipeline (its steps as one middlewareChain) from the HTTP server's `request` event, ahead of Express's router
 * (docs/performance.md, "Server dispatch, session 14").
 *
 * Express's `app.handle` hands every request to its router, whose walk (closures and property restores per request,
 * path matching, parameter processing, a final handler built for every request) ran before the pipeline's first
 * step although the pipeline is the router's first layer and a GET read answered by DirectReads never reaches a
 * second one. Here the server's listener does only what `app.handle` does before it calls the router (circular
 * references, Express's request and response prototypes, `res.locals`) and runs the pipeline. The router's own
 * request fields (`baseUrl`, `originalUrl`, `next`) are left to the router: a read answered in the pipeline never
 * reads them (its URL is never rewritten, so the access log takes `url`). A build that wrote the two URL fields
 * measured 9–18 µs more Node CPU per read in one A/B of 8 alternating rounds, where rounds scatter by about
 * ±10 µs (same section).
 * A request the pipeline passes on, with or without an error, then enters Express as before:
 * `app.handle` runs the router from its first layer, which is `routerStep`, and that step passes the pipeline's
 * outcome on instead of running the pipeline a second time. Statuses, headers, errors and the order of the steps
 * are those of the pipeline as the router's first layer, by construction.
 *
 * A request that reaches the Express app by another way (the app used as a handler by itself) runs the pipeline
 * in `routerStep`, as before.
 */
export class ServerDispatch {
  /** The steps as one handler: a step's error, throw or rejection reaches the handler's `next` (middleware-chain.ts). */
  private readonly pipeline: RequestHandler;

  constructor(steps: readonly RequestHandler[]) {
    this.pipeline = middlewareChain(steps);
  }

  /** The router's first layer (`app.use`, before any route is registered). */
  readonly routerStep: RequestHandler = (request: Request, response: Response, next: NextFunction) => {
    const outcome = (request as DispatchedRequest)[PIPELINE_RAN];
    if (outcome === undefined) this.pipeline(request, response, next);
    else next(outcome.error);
  };

  /**
   * Puts the pipeline in front of the Express app on `httpServer`. Returns false, and changes nothing, when the
   * app is not the server's only `request` listener (the pipeline then keeps running as the router's first layer).
   */
  install(httpServer: Server, app: Express): boolean {
    const listeners = httpServer.listeners('request');
    if (listeners.length !== 1 || listeners[0] !== app) return false;
    httpServer.removeListener('request', app);
    httpServer.on('request', (incoming: IncomingMessage, outgoing: ServerResponse) => {
      const request = incoming as DispatchedRequest;
      const response = outgoing as Response;
      // What express/lib/application.js `app.handle` sets before it calls the router.
      request.res = response;
      response.req = request;
      Object.setPrototypeOf(request, app.request);
      Object.setPrototypeOf(response, app.response);
      response.locals ??= Object.create(null) as Record<string, unknown>;
      this.runPipeline(request, response, app);
    });
    return true;
  }

  private runPipeline(request: DispatchedRequest, response: Response, app: Express): void {
    this.pipeline(request, response, (error?: unknown) => {
      request[PIPELINE_RAN] = { error };
      (app as HandlingApp).handle(request, response);
    });
  }
}
