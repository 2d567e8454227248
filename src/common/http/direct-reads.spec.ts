import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { DirectHandler, DirectHandlers } from './direct-handlers';
import { DirectReads } from './direct-reads';
import { RouteTable } from './route-table';

type Layer = Parameters<DirectReads['install']>[0][number];

function routeLayer(path: string, method: string, handle: RequestHandler): Layer {
  return { route: { path, methods: { [method]: true }, stack: [{ method, handle }] } };
}

function handler(name: string, calls: string[]): RequestHandler {
  return (request: Request) => {
    calls.push(`${name} ${JSON.stringify(request.params)}`);
  };
}

function dispatch(reads: DirectReads, method: string, path: string): boolean {
  let passed = false;
  const request = { method, path } as Request;
  reads.middleware()(request, {} as Response, (() => (passed = true)) as NextFunction);
  return passed;
}

describe('DirectReads', () => {
  const table = new RouteTable();
  for (const [pattern, method] of [
    ['/api/changes/stream/', 'GET'],
    ['/api/changes/:id/', 'GET'],
    ['/api/projects/:project/', 'GET'],
    ['/api/projects/:project/', 'PATCH'],
    ['/api/:kind/x/', 'GET'],
    ['/api/units/:id/', 'GET'],
    ['/api/twice/', 'GET'],
  ] as const) table.add(pattern, method);

  function installed(calls: string[]): { reads: DirectReads; patterns: string[] } {
    const reads = new DirectReads(table);
    const patterns = reads.install([
      { route: undefined },
      routeLayer('/api/changes/stream', 'get', handler('stream', calls)),
      routeLayer('/api/changes/:id', 'get', handler('change', calls)),
      routeLayer('/api/projects/:project/', 'get', handler('project', calls)),
      routeLayer('/api/projects/:project/', 'patch', handler('patch', calls)),
      // Registered first, with fewer static segments: Express would answer /api/units/x/ with it.
      routeLayer('/api/:kind/x', 'get', handler('kind', calls)),
      routeLayer('/api/units/:id', 'get', handler('unit', calls)),
      routeLayer('/api/twice', 'get', handler('twice 1', calls)),
      routeLayer('/api/twice', 'get', handler('twice 2', calls)),
    ]);
    return { reads, patterns };
  }

  it('takes the GET routes Express would pick for every path the route table gives them', () => {
    const { patterns } = installed([]);
    // `/api/:kind/x/` may answer `/api/projects/x/`, which the project route registered before it also matches.
    expect(patterns.sort()).toEqual(['/api/changes/:id/', '/api/changes/stream/', '/api/projects/:project/']);
  });

  it("calls the route's handler with Express's params for GET and HEAD, and passes everything else on", () => {
    const calls: string[] = [];
    const { reads } = installed(calls);
    expect(dispatch(reads, 'GET', '/api/changes/12/')).toBe(false);
    expect(dispatch(reads, 'HEAD', '/api/projects/de%20mo')).toBe(false);
    expect(dispatch(reads, 'GET', '/api/changes/stream/')).toBe(false);
    expect(calls).toEqual(['change {"id":"12"}', 'project {"project":"de mo"}', 'stream {}']);
    for (const [method, path] of [
      ['PATCH', '/api/projects/demo/'],
      ['GET', '/api/units/1/'],
      ['GET', '/api/twice/'],
      ['GET', '/api/unknown/'],
    ]) {
      expect({ method, path, passed: dispatch(reads, method, path) }).toEqual({ method, path, passed: true });
    }
    expect(calls).toHaveLength(3);
  });

  it('runs a route DirectHandlers holds through it instead of Nest\'s handler, with the same params', () => {
    const calls: string[] = [];
    const direct = { methodName: 'detail' } as unknown as DirectHandler;
    const handlers = {
      handlerFor: (pattern: string) => (pattern === '/api/changes/:id/' ? direct : undefined),
      run: (handler: DirectHandler, request: Request) => calls.push(`direct ${handler.methodName} ${JSON.stringify(request.params)}`),
    } as unknown as DirectHandlers;
    const reads = new DirectReads(table, handlers);
    reads.install([routeLayer('/api/changes/:id', 'get', handler('change', calls)), routeLayer('/api/projects/:project/', 'get', handler('project', calls))]);
    expect(dispatch(reads, 'GET', '/api/changes/12/')).toBe(false);
    expect(dispatch(reads, 'GET', '/api/projects/demo/')).toBe(false);
    expect(calls).toEqual(['direct detail {"id":"12"}', 'project {"project":"demo"}']);
  });

  it('passes every request on before install', () => {
    expect(dispatch(new DirectReads(table), 'GET', '/api/changes/12/')).toBe(true);
  });
});
