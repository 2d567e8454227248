import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Request } from 'express';
import { DataSource } from 'typeorm';
import { type RequestContext, requestContextOf } from '../http/request-context';
import { KeptAnswerHit } from '../http/response-memo';
import { AuthCacheService } from './auth-cache.service';
import { parseAuthorizationHeader } from './authorization-header';
import { NO_AUTHENTICATION_KEY } from './no-authentication';
import { CHECK_ORDER_KEY, type CheckOrderRule, enforceCheckOrder } from './check-order';
import { DETAIL_READ_KEY, type DetailRead } from './read-with-access';
import { resolveRequestAccess } from './scope-access';
import { requestTokenHash } from './token-hash';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Everything a kept answer's body takes from the request (response-memo.ts): the links' origin and format
 * (LinkBuilder.forRequest) and the path and query as sent. No part can hold a NUL (Node refuses it in a
 * request line and in headers), so the parts cannot run into each other.
 */
function answerKeyOf(request: Request, ctx: RequestContext): string {
  // A read dispatched in the pipeline never entered Express's router, which sets originalUrl (server-dispatch.ts).
  return `${ctx.links.origin}\u0000${ctx.links.formatValue ?? ''}\u0000${request.originalUrl ?? request.url}`;
}

/** What the guard reads of a route's metadata, once per handler (reflect-metadata showed in every read's profile). */
interface RouteAuthMetadata {
  controller: unknown;
  noAuthentication: boolean;
  detail: DetailRead | null;
  rule: CheckOrderRule | undefined;
}

/**
 * Authenticates the token (if any) and applies DRF's IsAuthenticatedOrReadOnly: anonymous callers may
 * read, every write needs a valid token (401 otherwise, weblate-api.md §2.1, §2.3). The token, the object
 * the path names and the caller's rights on it are resolved in one statement (scope-access.ts), or, for a
 * read that names no object, from this process's token cache (auth-cache.service.ts) with no statement; object
 * permissions are checked by the route's @CheckOrder rule (check-order.ts) and by the services.
 *
 * Bound to every route as the app's global guard (app.module.ts), with no test of the path: it used to skip
 * paths not starting with `/api/`, which `/API/…` (routed case-insensitively) escaped (issue 10 item 4).
 * Every controller route is an API route; one reached without the request context of the HTTP contract
 * middleware is refused rather than served unguarded.
 */
@Injectable()
export class ApiAuthGuard implements CanActivate {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly reflector: Reflector,
    private readonly authCache: AuthCacheService,
  ) {}

  private readonly metadata = new WeakMap<object, RouteAuthMetadata>();

  private metadataOf(context: ExecutionContext): RouteAuthMetadata {
    const handler = context.getHandler();
    const controller = context.getClass();
    const known = this.metadata.get(handler);
    if (known !== undefined && known.controller === controller) return known;
    const found: RouteAuthMetadata = {
      controller,
      noAuthentication: this.reflector.getAllAndOverride<boolean | undefined>(NO_AUTHENTICATION_KEY, [handler, controller]) === true,
      detail: this.reflector.get<DetailRead | undefined>(DETAIL_READ_KEY, handler) ?? null,
      rule: this.reflector.get<CheckOrderRule | undefined>(CHECK_ORDER_KEY, handler),
    };
    this.metadata.set(handler, found);
    return found;
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<Request>();
    const ctx = requestContextOf(request);
    // Routes without authentication (no-authentication.ts: the repository hooks) stay anonymous.
    const route = this.metadataOf(context);
    if (route.noAuthentication) return true;
    const key = parseAuthorizationHeader(request.headers.authorization);
    // A GET detail route may have its body read by the access statement (read-with-access.ts).
    const detail = request.method === 'GET' || request.method === 'HEAD' ? route.detail : null;
    await resolveRequestAccess(this.dataSource, request.path, ctx, key === null ? null : requestTokenHash(key), !SAFE_METHODS.has(request.method), {
      cache: this.authCache.cache,
      detail,
      superusers: this.authCache.superusers,
      answers: this.authCache.answers,
      answerKey: detail?.version === undefined ? undefined : answerKeyOf(request, ctx),
    });
    // DRF's order for writes (check-order.ts): the route's permission and object checks, before any pipe
    // validates the body.
    const rule = route.rule;
    if (rule !== undefined) await enforceCheckOrder(this.dataSource, ctx, request.params as Record<string, string>, rule);
    // The answer kept for this request is current (response-memo.ts): the exception filter sends it.
    if (ctx.keptAnswer !== null) throw new KeptAnswerHit(ctx.keptAnswer);
    return true;
  }
}
