import { createServer, type Server } from 'node:http';
import express, { type ErrorRequestHandler, type Express, type RequestHandler } from 'express';
import request from 'supertest';
import { ServerDispatch } from './server-dispatch';

/**
 * An Express app laid out as create-app.ts lays out Glossa's: the dispatch's router step first, then a route, then
 * an error handler. `pipeline` stands for the request pipeline; `seen` records what each part saw.
 */
function appWith(pipeline: RequestHandler): { app: Express; dispatch: ServerDispatch; seen: string[] } {
  const seen: string[] = [];
  const dispatch = new ServerDispatch([
    (req, res, next) => {
      seen.push(`pipeline ${req.url} express=${typeof res.status === 'function' && typeof req.get === 'function'}`);
      next();
    },
    pipeline,
  ]);
  const app = express();
  app.use(dispatch.routerStep);
  app.get('/routed', (_req, res) => {
    seen.push('route');
    res.status(200).json({ routed: true });
  });
  const onError: ErrorRequestHandler = (error: Error, _req, res, _next) => {
    seen.push(`error ${error.message}`);
    res.status(500).json({ error: error.message });
  };
  app.use(onError);
  return { app, dispatch, seen };
}

function installedServer(app: Express, dispatch: ServerDispatch): Server {
  const server = createServer(app);
  expect(dispatch.install(server, app)).toBe(true);
  return server;
}

describe('ServerDispatch', () => {
  it('runs the pipeline from the server, with Express request and response, and the router never for an answered request', async () => {
    const { app, dispatch, seen } = appWith((_req, res) => {
      res.status(203).json({ answered: true });
    });
    const response = await request(installedServer(app, dispatch)).get('/routed?x=1');
    expect(response.status).toBe(203);
    expect(response.body).toEqual({ answered: true });
    expect(seen).toEqual(['pipeline /routed?x=1 express=true']);
  });

  it('hands a request the pipeline passes on to Express, which routes it without running the pipeline again', async () => {
    const { app, dispatch, seen } = appWith((_req, _res, next) => next());
    const response = await request(installedServer(app, dispatch)).get('/routed');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ routed: true });
    expect(seen).toEqual(['pipeline /routed express=true', 'route']);
  });

  it("passes the pipeline's error, a thrown one and a rejection to Express's error handling", async () => {
    const cases: Array<[string, RequestHandler]> = [
      ['next', (_req, _res, next) => next(new Error('by next'))],
      ['throw', () => {
        throw new Error('thrown');
      }],
      ['reject', (() => Promise.reject(new Error('rejected'))) as unknown as RequestHandler],
    ];
    for (const [name, pipeline] of cases) {
      const { app, dispatch, seen } = appWith(pipeline);
      const response = await request(installedServer(app, dispatch)).get('/routed');
      expect({ name, status: response.status, seen: seen.slice(1) }).toEqual({ name, status: 500, seen: [`error ${(response.body as { error: string }).error}`] });
      expect(seen).toHaveLength(2);
    }
  });

  it('runs the pipeline as the router’s first layer when the app is used without the server dispatch', async () => {
    const { app, seen } = appWith((_req, _res, next) => next());
    const response = await request(app).get('/routed');
    expect(response.status).toBe(200);
    expect(seen).toEqual(['pipeline /routed express=true', 'route']);
  });

  it('changes nothing on a server whose only request listener is not the app', () => {
    const { app, dispatch } = appWith((_req, _res, next) => next());
    const other = (): void => undefined;
    const server = createServer(other);
    expect(dispatch.install(server, app)).toBe(false);
    expect(server.listeners('request')).toEqual([other]);
    const shared = createServer(app);
    shared.on('request', other);
    expect(dispatch.install(shared, app)).toBe(false);
    expect(shared.listeners('request')).toEqual([app, other]);
  });
});
