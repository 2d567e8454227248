import type { NextFunction, Request, RequestHandler, Response } from 'express';

/**
 * Runs `handlers` in order as ONE Express middleware, with Express's rules for each step: `next()` goes on
 * to the next step, `next(error)` leaves the chain with the error, a synchronous throw is passed on as an
 * error, and a step that answers without calling `next` ends the chain. The request pipeline in front of
 * every handler (request id and access log, operator endpoints, rate limiter, HTTP contract, body parsers)
 * was six Express layers; the router's work per layer (its `next`, path match, `handleRequest` with its
 * promise check) showed in every request's profile (docs/performance.md, "Request pipeline").
 * `next('route')`/`next('router')` are not supported: no pipeline step uses them.
 */
export function middlewareChain(handlers: readonly RequestHandler[]): RequestHandler {
  const steps = [...handlers];
  return (request: Request, response: Response, done: NextFunction) => {
    let index = 0;
    const next = (error?: unknown): void => {
      if (error !== undefined && error !== null) {
        done(error);
        return;
      }
      const step = steps[index++];
      if (step === undefined) {
        done();
        return;
      }
      try {
        const returned = step(request, response, next) as unknown;
        // Express 5 passes a rejected promise of an async middleware to next(error); so does the chain.
        if (returned instanceof Promise) returned.catch((rejection: unknown) => done(rejection ?? new Error('Rejected promise')));
      } catch (thrown) {
        done(thrown);
      }
    };
    next();
  };
}
