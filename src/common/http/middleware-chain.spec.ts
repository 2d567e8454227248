import { jest } from '@jest/globals';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { middlewareChain } from './middleware-chain';

const request = {} as Request;
const response = {} as Response;

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
    const done = jest.fn();
    const later = jest.fn();
    middlewareChain([(_req, _res) => undefined, later])(request, response, done);
    expect(later).not.toHaveBeenCalled();
    expect(done).not.toHaveBeenCalled();
  });

  it('passes next(error), a thrown error and a rejected promise on, skipping the steps after it', async () => {
    const failure = new Error('refused');
    const later = jest.fn();
    expect(await run([(_req, _res, next) => next(failure), later])).toEqual([failure]);
    expect(await run([() => { throw failure; }, later])).toEqual([failure]);
    expect(await run([(() => Promise.reject(failure)) as unknown as RequestHandler, later])).toEqual([failure]);
    expect(later).not.toHaveBeenCalled();
  });

  it('continues after a step that calls next later (asynchronously)', async () => {
    const later = jest.fn((_req: Request, _res: Response, next: NextFunction) => next());
    expect(await run([(_req, _res, next) => void setImmediate(() => next()), later])).toEqual([]);
    expect(later).toHaveBeenCalledTimes(1);
  });
});
