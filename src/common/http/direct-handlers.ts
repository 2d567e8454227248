import { CanActivate, ExceptionFilter, ForbiddenException, RequestMethod, StreamableFile, Type } from '@nestjs/common';
import {
  CUSTOM_ROUTE_ARGS_METADATA,
  EXCEPTION_FILTERS_METADATA,
  GUARDS_METADATA,
  HEADERS_METADATA,
  HTTP_CODE_METADATA,
  INTERCEPTORS_METADATA,
  METHOD_METADATA,
  PIPES_METADATA,
  REDIRECT_METADATA,
  RENDER_METADATA,
  ROUTE_ARGS_METADATA,
  SSE_METADATA,
} from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { DiscoveryService, MetadataScanner } from '@nestjs/core';
import { ExecutionContextHost } from '@nestjs/core/helpers/execution-context-host';
import type { NextFunction, Request, Response } from 'express';
import { isObservable, lastValueFrom } from 'rxjs';
import { requestContextFromHost, requestContextOf } from './request-context';
import { routePatternsOf } from './route-discovery';

/** How one argument of a handler is filled: the request context (`@Ctx()`), or a path parameter (`@Param`). */
type ArgumentSource = { kind: 'context' } | { kind: 'param'; name: string | undefined };

/** A GET handler that can run without Nest's per-request route machinery (see DirectHandlers). */
export interface DirectHandler {
  controller: Type<unknown>;
  instance: object;
  method: (...args: unknown[]) => unknown;
  methodName: string;
  args: ArgumentSource[];
}

/** What Nest's HTTP adapter does with a handler's result (ExpressAdapter.reply). */
interface ReplyingAdapter {
  reply(response: unknown, body: unknown, statusCode?: number): unknown;
}

/** Nest's application-wide enhancers, as its ApplicationConfig lists them (not public API: checked, see install). */
interface GlobalEnhancers {
  getGlobalGuards(): unknown[];
  getGlobalPipes(): unknown[];
  getGlobalInterceptors(): unknown[];
  getGlobalRequestGuards(): unknown[];
  getGlobalRequestPipes(): unknown[];
  getGlobalRequestInterceptors(): unknown[];
}

/** The config's lists of global enhancers; the guards first (only the auth guard may be there), the rest empty. */
const ENHANCER_LISTS = [
  'getGlobalGuards',
  'getGlobalPipes',
  'getGlobalInterceptors',
  'getGlobalRequestGuards',
  'getGlobalRequestPipes',
  'getGlobalRequestInterceptors',
] as const satisfies readonly (keyof GlobalEnhancers)[];

/** Metadata keys that give a route behaviour of its own, on the handler or its controller. */
const ENHANCER_KEYS = [GUARDS_METADATA, INTERCEPTORS_METADATA, PIPES_METADATA, EXCEPTION_FILTERS_METADATA];
/** Metadata keys that change how Nest answers, on the handler. */
const RESPONSE_KEYS = [HTTP_CODE_METADATA, HEADERS_METADATA, REDIRECT_METADATA, RENDER_METADATA, SSE_METADATA];

function isEmpty(value: unknown): boolean {
  return value === undefined || (Array.isArray(value) && value.length === 0);
}

/**
 * The arguments of a handler, when each is one DirectHandlers fills exactly as Nest would: `@Ctx()` (the
 * factory request-context.ts registers) or `@Param(name)` without pipes. Null for any other parameter
 * (`@Res`, `@Req`, `@Headers`, `@Body`, `@UploadedFile`, pipes), whose route keeps Nest's handler.
 */
function argumentSourcesOf(controller: Type<unknown>, methodName: string, paramCount: number): ArgumentSource[] | null {
  const metadata = (Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, methodName) ?? {}) as Record<string, { index: number; data?: unknown; pipes?: unknown[]; factory?: unknown }>;
  const sources: (ArgumentSource | undefined)[] = new Array<ArgumentSource | undefined>(paramCount).fill(undefined);
  for (const [key, entry] of Object.entries(metadata)) {
    if (!isEmpty(entry.pipes)) return null;
    const [type] = key.split(':');
    if (type.includes(CUSTOM_ROUTE_ARGS_METADATA) && entry.factory === requestContextFromHost && entry.data === undefined) {
      sources[entry.index] = { kind: 'context' };
    } else if (type === String(RouteParamtypes.PARAM) && (entry.data === undefined || typeof entry.data === 'string')) {
      sources[entry.index] = { kind: 'param', name: entry.data as string | undefined };
    } else {
      return null;
    }
  }
  // A parameter without a decorator would receive undefined from Nest; no read handler declares one.
  for (let index = 0; index < sources.length; index++) if (sources[index] === undefined) return null;
  return sources as ArgumentSource[];
}

/**
 * GET handlers run by the request pipeline itself instead of through Nest's route handler (docs/performance.md,
 * "The request pipeline, session 21").
 *
 * For every request Nest's route handler builds an arguments array, runs the guards through its guards
 * consumer (an async step and an execution context), sets the status, runs the interceptor chain (none here)
 * and the pipes of each parameter (a Promise.all), calls the handler, and hands the result through its
 * response controller (several more awaits, stream checks) to the adapter's `reply`. On an anonymous `/api/`
 * that was about 22 µs of 145 µs of the server's CPU, where the floor spent 104–115.
 *
 * A route runs here only when none of that can differ: the app has no global pipes or interceptors and its
 * only global guard is the auth guard (checked at install); the route has no guards, interceptors, pipes or
 * filters of its own, no `@HttpCode`, `@Header`, `@Redirect`, `@Render` or `@Sse`; and each parameter is
 * `@Ctx()` or a `@Param` without pipes (argumentSourcesOf). Then the steps are Nest's, in Nest's order: the
 * guard with an execution context naming the controller and handler (403 "Forbidden resource" when it answers
 * false), status 200, the arguments, the handler, and the settled result as the adapter's `reply` sends it;
 * any error goes to the app's exception filter with the request's host, as Nest's router proxy sends it. A
 * result Nest would stream or subscribe to (isStreamed) is refused with an error rather than sent differently;
 * no read handler returns one. Every other route keeps Nest's handler.
 */
export class DirectHandlers {
  private readonly handlers = new Map<string, DirectHandler>();

  constructor(
    private readonly guard: CanActivate,
    private readonly filter: ExceptionFilter,
    private readonly adapter: ReplyingAdapter,
  ) {}

  /**
   * Finds the GET handlers that qualify. `enhancers` is Nest's application config; without it, or with any
   * global pipe, interceptor or guard other than `guard`, no route runs here. Returns the patterns found.
   */
  install(discovery: DiscoveryService, scanner: MetadataScanner, enhancers: GlobalEnhancers | undefined): string[] {
    this.handlers.clear();
    if (!this.appQualifies(enhancers)) return [];
    const ambiguous = new Set<string>();
    for (const wrapper of discovery.getControllers()) {
      const instance = wrapper.instance as object | undefined;
      const controller = wrapper.metatype as Type<unknown> | null;
      // A request-scoped controller gets an instance per request from Nest's injector.
      if (!instance || !controller || !wrapper.isDependencyTreeStatic()) continue;
      const prototype = Object.getPrototypeOf(instance) as Record<string, unknown>;
      for (const methodName of scanner.getAllMethodNames(prototype)) {
        const method = prototype[methodName] as (...args: unknown[]) => unknown;
        if (Reflect.getMetadata(METHOD_METADATA, method) !== RequestMethod.GET) continue;
        const args = this.qualifies(controller, method, methodName);
        for (const pattern of routePatternsOf(controller, method)) {
          if (this.handlers.has(pattern) || ambiguous.has(pattern) || args === null) {
            // Two GET handlers on one pattern, or one that does not qualify: Nest's handler answers.
            this.handlers.delete(pattern);
            ambiguous.add(pattern);
            continue;
          }
          this.handlers.set(pattern, { controller, instance, method, methodName, args });
        }
      }
    }
    return [...this.handlers.keys()];
  }

  /** The handler that runs here for a route pattern, if any. */
  handlerFor(pattern: string): DirectHandler | undefined {
    return this.handlers.get(pattern);
  }

  /** Runs a handler for a request the pipeline let through (its path parameters set). */
  run(handler: DirectHandler, request: Request, response: Response, next: NextFunction): void {
    const host = new ExecutionContextHost([request, response, next], handler.controller, handler.method);
    let activation: ReturnType<CanActivate['canActivate']>;
    try {
      activation = this.guard.canActivate(host);
    } catch (error) {
      this.fail(error, request, response, next);
      return;
    }
    const settled = isObservable(activation) ? lastValueFrom(activation) : activation;
    if (typeof settled === 'boolean') {
      this.afterGuard(settled, handler, request, response, next);
      return;
    }
    settled.then(
      (allowed) => this.afterGuard(allowed, handler, request, response, next),
      (error: unknown) => this.fail(error, request, response, next),
    );
  }

  private appQualifies(enhancers: GlobalEnhancers | undefined): boolean {
    // Every list must be readable: a Nest whose config lacks one keeps every route on its own handler.
    const lists = ENHANCER_LISTS.map((name) => (typeof enhancers?.[name] === 'function' ? enhancers[name]() : undefined));
    if (lists.some((list) => !Array.isArray(list))) return false;
    const [guards, ...others] = lists as unknown[][];
    return guards.length === 1 && guards[0] === this.guard && others.every((list) => list.length === 0);
  }

  private qualifies(controller: Type<unknown>, method: (...args: unknown[]) => unknown, methodName: string): ArgumentSource[] | null {
    if (ENHANCER_KEYS.some((key) => !isEmpty(Reflect.getMetadata(key, method)) || !isEmpty(Reflect.getMetadata(key, controller)))) return null;
    if (RESPONSE_KEYS.some((key) => Reflect.getMetadata(key, method) !== undefined)) return null;
    return argumentSourcesOf(controller, methodName, method.length);
  }

  private afterGuard(allowed: boolean, handler: DirectHandler, request: Request, response: Response, next: NextFunction): void {
    try {
      // As Nest's guards consumer: a guard that answers false refuses the request.
      if (!allowed) throw new ForbiddenException('Forbidden resource');
      // Nest's setStatus for a GET (`res.status(200)`, whose only other work is to validate the number).
      response.statusCode = 200;
      const result = handler.method.apply(handler.instance, argumentsOf(handler, request));
      if (isThenable(result)) {
        result.then(
          (value) => this.send(value, request, response, next),
          (error: unknown) => this.fail(error, request, response, next),
        );
      } else {
        this.send(result, request, response, next);
      }
    } catch (error) {
      this.fail(error, request, response, next);
    }
  }

  private send(result: unknown, request: Request, response: Response, next: NextFunction): void {
    try {
      if (isStreamed(result)) throw new Error('A direct GET handler returned a value Nest would stream or subscribe to; give its route a @Res parameter or leave it to Nest.');
      // The adapter's reply ends in res.json for an object when no other Content-Type was set (a read sets none);
      // with the status already 200, that is all it does for one.
      if (typeof result === 'object' && result !== null && !(result instanceof StreamableFile) && response.getHeader('Content-Type') === undefined) response.json(result);
      else this.adapter.reply(response, result, 200);
    } catch (error) {
      this.fail(error, request, response, next);
    }
  }

  /** Nest's router proxy: the exception filter answers with the request's host; a filter's own failure goes to Express. */
  private fail(error: unknown, request: Request, response: Response, next: NextFunction): void {
    try {
      this.filter.catch(error, new ExecutionContextHost([request, response, next]));
    } catch (filterError) {
      next(filterError);
    }
  }
}

/** The handler's arguments: what the @Ctx() factory and Nest's @Param extraction give (request-context.ts, RouteParamsFactory). */
function argumentsOf(handler: DirectHandler, request: Request): unknown[] {
  const args = new Array<unknown>(handler.args.length);
  for (let index = 0; index < args.length; index++) {
    const source = handler.args[index];
    args[index] = source.kind === 'context' ? requestContextOf(request) : source.name === undefined ? request.params : request.params[source.name];
  }
  return args;
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

/**
 * What Nest's response handling would subscribe to (an Observable) or stream (an async iterable that is not a
 * thenable, a web Response) instead of handing it to the adapter's reply (router-execution-context.js
 * pickStreamingBody, streaming-body.js isStreamingBody). Everything else, Nest and this send the same way.
 */
function isStreamed(value: unknown): boolean {
  if (isObservable(value)) return true;
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as { [Symbol.asyncIterator]?: unknown; then?: unknown };
  return (typeof candidate[Symbol.asyncIterator] === 'function' && typeof candidate.then !== 'function') || Object.prototype.toString.call(value) === '[object Response]';
}
