import { CallHandler, CanActivate, Controller, ExceptionFilter, ExecutionContext, ForbiddenException, Get, Header, Headers, HttpCode, Param, ParseIntPipe, Post, Query, Res, UseGuards, UseInterceptors } from '@nestjs/common';
import { DiscoveryService, MetadataScanner } from '@nestjs/core';
import type { NextFunction, Request, Response } from 'express';
import { Readable } from 'node:stream';
import { Observable, of } from 'rxjs';
import { DirectHandlers } from './direct-handlers';
import { attachRequestContext, Ctx, RequestContext } from './request-context';
import { RawJson } from '../serialization/json-writer';
import { LinkBuilder } from '../links/link-builder';

class AllowAll implements CanActivate {
  canActivate(): boolean {
    return true;
  }
}

@Controller('api/things')
class ThingsController {
  @Get(':id')
  detail(@Ctx() ctx: RequestContext, @Param('id') id: string): unknown {
    return { id, path: ctx.path };
  }

  @Get()
  list(@Ctx() ctx: RequestContext): Promise<RawJson> {
    return Promise.resolve(new RawJson(`{"path":"${ctx.path}"}`));
  }

  @Get(':id/raw')
  raw(@Param('id') id: string, @Res() res: Response): void {
    res.end(id);
  }

  @Get(':id/query')
  query(@Query('q') q: string): unknown {
    return { q };
  }

  @Get(':id/header')
  header(@Headers('accept') accept: string): unknown {
    return { accept };
  }

  @Get(':id/piped')
  piped(@Param('id', ParseIntPipe) id: number): unknown {
    return { id };
  }

  @Get(':id/undecorated')
  undecorated(@Ctx() ctx: RequestContext, extra: unknown): unknown {
    return { ctx, extra };
  }

  @Get(':id/guarded')
  @UseGuards(AllowAll)
  guarded(@Param('id') id: string): unknown {
    return { id };
  }

  @Get(':id/intercepted')
  @UseInterceptors({ intercept: (_context: ExecutionContext, next: CallHandler) => next.handle() })
  intercepted(@Param('id') id: string): unknown {
    return { id };
  }

  @Get(':id/accepted')
  @HttpCode(202)
  accepted(): unknown {
    return {};
  }

  @Get(':id/text')
  @Header('Content-Type', 'text/plain')
  text(): string {
    return 'text';
  }

  @Post(':id')
  write(@Param('id') id: string): unknown {
    return { id };
  }
}

@Controller('api/twice')
class TwiceA {
  @Get()
  first(): unknown {
    return {};
  }
}

@Controller('api/twice')
class TwiceB {
  @Get()
  second(): unknown {
    return {};
  }
}

@Controller('api/scoped')
class ScopedController {
  @Get()
  read(): unknown {
    return {};
  }
}

@UseGuards(AllowAll)
@Controller('api/guarded-class')
class GuardedClassController {
  @Get()
  read(): unknown {
    return {};
  }
}

function wrapper(metatype: new () => object, isStatic = true): unknown {
  return { instance: new metatype(), metatype, isDependencyTreeStatic: () => isStatic };
}

const discovery = {
  getControllers: () => [wrapper(ThingsController), wrapper(TwiceA), wrapper(TwiceB), wrapper(ScopedController, false), wrapper(GuardedClassController)],
} as unknown as DiscoveryService;

function enhancers(guard: CanActivate, extra: Partial<Record<'pipes' | 'interceptors' | 'guards', unknown[]>> = {}): Parameters<DirectHandlers['install']>[2] {
  return {
    getGlobalGuards: () => [guard, ...(extra.guards ?? [])],
    getGlobalPipes: () => extra.pipes ?? [],
    getGlobalInterceptors: () => extra.interceptors ?? [],
    getGlobalRequestGuards: () => [],
    getGlobalRequestPipes: () => [],
    getGlobalRequestInterceptors: () => [],
  };
}

interface Recorder {
  guard: CanActivate & { contexts: ExecutionContext[] };
  filter: ExceptionFilter & { caught: unknown[] };
  replies: unknown[];
  handlers: DirectHandlers;
}

function recorder(answer: (context: ExecutionContext) => boolean | Promise<boolean> | Observable<boolean>): Recorder {
  const contexts: ExecutionContext[] = [];
  const caught: unknown[] = [];
  const replies: unknown[] = [];
  const guard = {
    contexts,
    canActivate: (context: ExecutionContext) => {
      contexts.push(context);
      return answer(context);
    },
  };
  const filter = { caught, catch: (error: unknown) => void caught.push(error) };
  const handlers = new DirectHandlers(guard, filter, { reply: (_response: unknown, body: unknown) => replies.push(body) });
  return { guard, filter, replies, handlers };
}

/** A request for `pattern` as DirectReads hands it over (params set, request context attached), and its response. */
function exchange(params: Record<string, string>): { request: Request; response: Response & { sent: unknown[] }; done: Promise<void> } {
  let finish: () => void = () => undefined;
  const done = new Promise<void>((resolve) => (finish = resolve));
  const sent: unknown[] = [];
  const headers = new Map<string, string>();
  const response = {
    sent,
    locals: {},
    statusCode: 0,
    getHeader: (name: string) => headers.get(name.toLowerCase()),
    json: (body: unknown) => {
      sent.push(body);
      finish();
    },
  } as unknown as Response & { sent: unknown[] };
  const request = { params, method: 'GET', res: response, headers: {} } as unknown as Request;
  const links = { origin: 'http://x', formatValue: null } as unknown as LinkBuilder;
  attachRequestContext(response, new RequestContext(links, '/api/things/7/', {}));
  return { request, response, done };
}

const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('DirectHandlers.install', () => {
  it('takes GET handlers whose arguments are @Ctx() and @Param without pipes, and leaves the rest to Nest', () => {
    const { guard, handlers } = recorder(() => true);
    const patterns = handlers.install(discovery, new MetadataScanner(), enhancers(guard));
    expect(patterns.sort()).toEqual(['/api/things/', '/api/things/:id/']);
  });

  it('takes none when the app has a global pipe, interceptor or another guard, or no readable config', () => {
    const { guard, handlers } = recorder(() => true);
    expect(handlers.install(discovery, new MetadataScanner(), enhancers(guard, { pipes: [{}] }))).toEqual([]);
    expect(handlers.install(discovery, new MetadataScanner(), enhancers(guard, { interceptors: [{}] }))).toEqual([]);
    expect(handlers.install(discovery, new MetadataScanner(), enhancers(guard, { guards: [new AllowAll()] }))).toEqual([]);
    expect(handlers.install(discovery, new MetadataScanner(), enhancers(new AllowAll()))).toEqual([]);
    expect(handlers.install(discovery, new MetadataScanner(), undefined)).toEqual([]);
    expect(handlers.handlerFor('/api/things/:id/')).toBeUndefined();
  });
});

describe('DirectHandlers.run', () => {
  function installed(answer: Parameters<typeof recorder>[0]): Recorder {
    const made = recorder(answer);
    made.handlers.install(discovery, new MetadataScanner(), enhancers(made.guard));
    return made;
  }

  it('runs the guard with the controller and handler, then the handler with its arguments, and sends its result as JSON', async () => {
    const { guard, handlers, filter } = installed(() => true);
    const { request, response, done } = exchange({ id: '7' });
    handlers.run(handlers.handlerFor('/api/things/:id/')!, request, response, (() => undefined) as NextFunction);
    await done;
    expect(guard.contexts[0].getClass()).toBe(ThingsController);
    expect(guard.contexts[0].getHandler()).toBe(ThingsController.prototype.detail);
    expect(guard.contexts[0].switchToHttp().getRequest()).toBe(request);
    expect(response.statusCode).toBe(200);
    expect(response.sent).toEqual([{ id: '7', path: '/api/things/7/' }]);
    expect(filter.caught).toEqual([]);
  });

  it('waits for a guard’s promise or Observable and a handler’s promise', async () => {
    for (const answer of [() => Promise.resolve(true), () => of(true)]) {
      const { handlers } = installed(answer);
      const { request, response, done } = exchange({});
      handlers.run(handlers.handlerFor('/api/things/')!, request, response, (() => undefined) as NextFunction);
      await done;
      expect(response.sent).toEqual([new RawJson('{"path":"/api/things/7/"}')]);
    }
  });

  it('refuses with Nest’s 403 when the guard answers false, and hands guard errors to the exception filter', async () => {
    const refusing = installed(() => false);
    const first = exchange({ id: '7' });
    refusing.handlers.run(refusing.handlers.handlerFor('/api/things/:id/')!, first.request, first.response, (() => undefined) as NextFunction);
    await settle();
    expect(refusing.filter.caught).toHaveLength(1);
    expect(refusing.filter.caught[0]).toBeInstanceOf(ForbiddenException);
    expect((refusing.filter.caught[0] as ForbiddenException).message).toBe('Forbidden resource');
    expect(first.response.sent).toEqual([]);

    const failure = new Error('no such token');
    for (const answer of [() => Promise.reject(failure), () => { throw failure; }]) {
      const failing = installed(answer);
      const { request, response } = exchange({ id: '7' });
      failing.handlers.run(failing.handlers.handlerFor('/api/things/:id/')!, request, response, (() => undefined) as NextFunction);
      await settle();
      expect(failing.filter.caught).toEqual([failure]);
      expect(response.sent).toEqual([]);
    }
  });

  it('hands a handler’s error or rejection to the exception filter', async () => {
    const { handlers, filter } = installed(() => true);
    const handler = handlers.handlerFor('/api/things/:id/')!;
    const failure = new Error('statement failed');
    for (const method of [() => { throw failure; }, () => Promise.reject(failure)]) {
      const { request, response } = exchange({ id: '7' });
      handlers.run({ ...handler, method }, request, response, (() => undefined) as NextFunction);
      await settle();
      expect(response.sent).toEqual([]);
    }
    expect(filter.caught).toEqual([failure, failure]);
  });

  it('sends nothing Nest would stream or subscribe to, and leaves other values to the adapter’s reply', async () => {
    const { handlers, filter, replies } = installed(() => true);
    const handler = handlers.handlerFor('/api/things/:id/')!;
    for (const value of [Readable.from(['x']), of({})]) {
      const { request, response } = exchange({ id: '7' });
      handlers.run({ ...handler, method: () => value }, request, response, (() => undefined) as NextFunction);
      await settle();
      expect(response.sent).toEqual([]);
    }
    expect(filter.caught).toHaveLength(2);
    expect(filter.caught.every((error) => error instanceof Error && /stream or subscribe/.test(error.message))).toBe(true);
    const { request, response } = exchange({ id: '7' });
    handlers.run({ ...handler, method: () => 'text' }, request, response, (() => undefined) as NextFunction);
    await settle();
    expect(replies).toEqual(['text']);
  });

  it('passes an exception filter’s own failure to Express', async () => {
    const { handlers } = installed(() => false);
    const broken = new DirectHandlers(
      { canActivate: () => false },
      {
        catch: () => {
          throw new Error('filter failed');
        },
      },
      { reply: () => undefined },
    );
    const { request, response } = exchange({ id: '7' });
    const errors: unknown[] = [];
    broken.run(handlers.handlerFor('/api/things/:id/')!, request, response, ((error: unknown) => errors.push(error)) as NextFunction);
    await settle();
    expect(errors).toEqual([new Error('filter failed')]);
  });
});
