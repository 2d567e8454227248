import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { Request, Response } from 'express';
import { LinkBuilder } from '../links/link-builder';
import type { PageContext } from '../pagination/list-envelope';
import { noneMatchHits, NotModified, versionTag } from './preconditions';
import type { KeptAnswer, PendingAnswer } from './response-memo';

/** The caller as the API's rules need it; null for anonymous requests. */
export interface ApiCaller {
  id: number;
  username: string;
  isSuperuser: boolean;
}

/** What every handler needs from the request: link building, paging context and the caller. */
export class RequestContext implements PageContext {
  caller: ApiCaller | null = null;
  /** Permissions on the object the path names, set by the auth guard (src/common/auth/scope-access.ts). */
  access: { can(permission: string): boolean } | null = null;
  /** Whether the project/component/translation/unit the path names exists (set by the auth guard). */
  scopeFound = false;
  /**
   * The body row the auth guard read with its access statement for a @ReadWithAccess route
   * (src/common/auth/read-with-access.ts); set only when the guard's checks passed and the row exists.
   */
  prefetched: unknown = undefined;
  /**
   * The entity tag of this response when the handler knows it without hashing the body: derived from row
   * versions (see useVersionTag), or kept with the body (the API root, root.response.ts RootAnswers).
   */
  etag: string | null = null;
  /**
   * Set by the auth guard when the answer this process keeps for the request (response-memo.ts) was built from
   * the rows' current versions: the guard then answers with it, and the handler does not run.
   */
  keptAnswer: KeptAnswer | null = null;
  /** Set by the auth guard when this request's 200 body is to be kept, with the version of its rows. */
  pendingAnswer: PendingAnswer | null = null;

  constructor(
    readonly links: LinkBuilder,
    readonly path: string,
    readonly query: Record<string, unknown>,
    /** The request's If-None-Match header, if any. */
    readonly ifNoneMatch?: string,
  ) {}

  /**
   * Makes the response's ETag a tag of `rowVersions` (what the body is made of in the database) together
   * with everything the body takes from the request (path, query, link origin and format, web links' base),
   * and throws NotModified when the request's If-None-Match names that tag: 304 without building the body.
   * The caller must name every row version the body depends on.
   */
  useVersionTag(rowVersions: readonly (string | number | null)[]): void {
    const query = Object.keys(this.query)
      .sort()
      .map((key) => `${key}=${JSON.stringify(this.query[key])}`)
      .join('&');
    this.etag = versionTag([this.path, query, this.links.origin, this.links.formatValue, this.links.web(''), ...rowVersions]);
    if (noneMatchHits(this.ifNoneMatch, this.etag)) throw new NotModified(this.etag);
  }

  get isAuthenticated(): boolean {
    return this.caller !== null;
  }

  get isSuperuser(): boolean {
    return this.caller?.isSuperuser === true;
  }

  /** Whether the caller holds a Weblate permission on the path's object (weblate-api.md §2.5); superusers always do. */
  can(permission: string): boolean {
    return this.isSuperuser || this.access?.can(permission) === true;
  }
}

const CONTEXT_KEY = 'glossaContext';

export function attachRequestContext(response: Response, context: RequestContext): void {
  response.locals[CONTEXT_KEY] = context;
}

/** The context the HTTP contract middleware attached to this response, if it did. */
export function requestContextOfResponse(response: Response): RequestContext | undefined {
  return response.locals?.[CONTEXT_KEY] as RequestContext | undefined;
}

export function requestContextOf(request: Request): RequestContext {
  const context = request.res?.locals[CONTEXT_KEY] as RequestContext | undefined;
  if (!context) throw new Error('No request context: the HTTP contract middleware did not run for this path.');
  return context;
}

/** The factory of `@Ctx()`; direct-handlers.ts recognises the parameter by it and fills it the same way. */
export function requestContextFromHost(_data: unknown, host: ExecutionContext): RequestContext {
  return requestContextOf(host.switchToHttp().getRequest<Request>());
}

/** Handler parameter: `@Ctx() ctx: RequestContext`. */
export const Ctx = createParamDecorator(requestContextFromHost);
