import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { middlewareChain } from './middleware-chain';

const request = {} as Request;
const response = {} as Response;

/** A step that counts its calls and goes on. */
function counting(): RequestHandler & { calls: number } {
  const step = ((_req: Request, _res: Response, next: NextFunction) => {
    step.calls += 1;
    next();
  }) as RequestHandler & { calls: number };
  step.calls = 0;
  return step;
}

function run(handlers: RequestHandler[]): Promise<unknown[]> {
  return new Promise((resolve) => {
    middlewareChain(handlers)(request, response, ((...args: unknown[]) => resolve(args)) as NextFunction);
  });
}

describe('middlewareChain', () => {
  it('runs every step in order and then leaves the chain without an error', async () => {
    const order: number[] = [];
    const step = (n: number): RequestHandler => (_req, _res, next) => {
      order.push(n);
      next();
    };
    expect(await run([step(1), step(2), step(3)])).toEqual([]);
    expect(order).toEqual([1, 2, 3]);
  });

  it('stops at a step that answers without calling next', () => {
    let doneCalls = 0;
    const later = counting();
    middlewareChain([(_req, _res) => undefined, later])(request, response, () => (doneCalls += 1));
    expect(later.calls).toBe(0);
    expect(doneCalls).toBe(0);
  });

  it('passes next(error), a thrown error and a rejected promise on, skipping the steps after it', async () => {
    const failure = new Error('refused');
    const later = counting();
    expect(await run([(_req, _res, next) => next(failure), later])).toEqual([failure]);
    expect(await run([() => { throw failure; }, later])).toEqual([failure]);
    expect(await run([(() => Promise.reject(failure)) as unknown as RequestHandler, later])).toEqual([failure]);
    expect(later.calls).toBe(0);
  });

  it('continues after a step that calls next later (asynchronously)', async () => {
    const later = counting();
    expect(await run([(_req, _res, next) => void setImmediate(() => next()), later])).toEqual([]);
    expect(later.calls).toBe(1);
  });
});
