import type { DataSource } from 'typeorm';
import { notAuthenticated, notFound } from '../http/api-errors';
import type { ApiCaller, RequestContext } from '../http/request-context';
import type { LinkBuilder } from '../links/link-builder';
import type { ResponseMemo } from '../http/response-memo';
import { type AccessResult, type AccessRow, type AccessStatementMode, type CallerSource, readsToken, requestAccessStatement, type ScopeKind } from './access-statement';
import type { DetailRead } from './read-with-access';
import type { SuperuserHints } from './superuser-hints';
import type { CachedCaller, TokenCache } from './token-cache';

/** What the caller may do on the object the request path names; services ask it through ctx.can(). */
export class AccessGrant {
  constructor(
    private readonly caller: ApiCaller | null,
    private readonly permissions: ReadonlySet<string>,
  ) {}

  can(permission: string): boolean {
    return this.caller?.isSuperuser === true || this.permissions.has(permission);
  }
}

function decode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The scope a path names and the lookup's parameters, or null when it names none (lists, the root, ...). */
function scopeOf(resource: string | undefined, a: string | undefined, b: string | undefined, c: string | undefined): { kind: ScopeKind; params: string[] } | null {
  if (resource === 'projects' && a !== undefined) return { kind: 'project', params: [a] };
  if (resource === 'components' && a !== undefined && b !== undefined) return { kind: 'component', params: [a, b] };
  if (resource === 'translations' && a !== undefined && b !== undefined && c !== undefined) return { kind: 'translation', params: [a, b, c] };
  if (resource === 'units' && a !== undefined && /^\d{1,18}$/.test(a)) return { kind: 'unit', params: [a] };
  if (resource === 'suggestions' && a !== undefined && /^\d{1,9}$/.test(a)) return { kind: 'suggestion', params: [a] };
  if (resource === 'changes' && a !== undefined && /^\d{1,18}$/.test(a)) return { kind: 'change', params: [a] };
  if (resource === 'tasks' && a !== undefined && UUID.test(a)) return { kind: 'task', params: [a] };
  if (resource === 'addons' && a !== undefined && /^\d{1,9}$/.test(a)) return { kind: 'addon', params: [a] };
  return null;
}

/**
 * A token statement's answer as the cache keeps it: only a valid token of an active user. `scoped`: the row is
 * a scoped `tokenFill` one, whose global permissions are `global_permissions` (`permissions` are the object's).
 */
function cacheEntryOf(row: AccessRow | undefined, scoped: boolean): CachedCaller | undefined {
  if (row?.caller_id === null || row?.caller_id === undefined || !row.is_active) return undefined;
  return {
    caller: { id: row.caller_id, username: row.username ?? '', isSuperuser: row.is_superuser === true },
    globalPermissions: new Set(row.is_superuser === true ? [] : ((scoped ? row.global_permissions : row.permissions) ?? [])),
  };
}

/**
 * Authenticates the request's token (its SHA-256 digest, or null for none) and resolves the
 * project/component/translation its path names: invalid or inactive tokens are 401 (weblate-api.md §2.1),
 * a write without a caller is 401 when `callerRequired`, and an object the caller cannot see is 404
 * (§2.3: invisible objects are filtered out, never 403). Sets ctx.caller, and ctx.access with the caller's
 * permissions on that object. Running for every /api/ request, before any controller, means detail routes
 * and every nested route (changes, statistics, units, files, repository, lock, ...) share one rule
 * (peers-and-asks.md §4.2, GHSA-92m8-wv36-prmx). Paths naming nothing that exists are left alone: the
 * controller answers its own 404.
 *
 * With a `cache` (token-cache.ts), a read (not `callerRequired`) takes the caller and its global permissions
 * from it (issue 15 item 2): a path that names no object needs no database round trip, and a path that names
 * one runs its statement for the object and the caller's rights on it only (CallerSource `id`, `superuser`),
 * without the token's join and the caller's columns (docs/performance.md, "Scoped reads from the token cache,
 * session 17"). A read the cache could not answer refills it from its own statement (`tokenFill`), as every
 * unscoped statement does. Writes always read the token in their one statement (`token`): they are exact even
 * in the moment between a revocation's commit and its notification reaching this process; a read is as exact
 * as the cache, which the revocation e2e test holds to "refused on the next request, on every replica".
 *
 * With `superusers` (superuser-hints.ts), a scoped request that reads its token and whose token last belonged
 * to a superuser runs the statement without the caller's rights on the object, which a superuser's answer
 * ignores and which cost most of the statement's time (docs/performance.md, "Read floor, session 7"). The hint
 * only picks the statement: the token, its user's activity and superuser flag are still read in it, and when
 * the user is no longer a superuser the request asks again with the rights, so every answer is the one the full
 * statement gives.
 *
 * With `answers` and a `detail` that names its rows' versions, a request whose answer this process keeps under
 * `answerKey` (response-memo.ts) runs the statement that reads the version alone (AccessStatementMode `check`);
 * when the version is the one kept and every check passed, ctx.keptAnswer is that answer. When it moved, the full
 * statement follows and decides anew (the caller, the object, the rights, the body), and ctx.pendingAnswer has
 * its body kept.
 */
export async function resolveRequestAccess(
  dataSource: DataSource,
  path: string,
  ctx: RequestContext,
  tokenHash: string | null,
  callerRequired: boolean,
  options: AccessOptions = {},
): Promise<void> {
  const { cache, detail = null, superusers, answers, answerKey } = options;
  const parts = path.split('/').filter((part) => part !== '').map(decode);
  const [, resource, a, b, c] = parts;
  const scope = scopeOf(resource, a, b, c);
  // The cache answers reads only: a write reads the token in its own statement (CallerSource `token`).
  const cached = tokenHash !== null && !callerRequired ? cache?.get(tokenHash) : undefined;
  if (cached !== undefined && scope === null) {
    ctx.caller = cached.caller;
    checkOwnNotifications(ctx.caller, resource, a, b);
    ctx.access = new AccessGrant(ctx.caller, cached.globalPermissions);
    return;
  }
  if (tokenHash === null && scope === null) {
    applyAccessRow(ctx, undefined, cached, tokenHash, callerRequired, resource, a, b);
    return;
  }
  const kind = scope?.kind ?? null;
  // A read that the query string rules out (a search, say) is left to the handler: the plain statement.
  const queryParams = detail !== null && kind === detail.kind ? detailQueryParams(detail, ctx.query, ctx.links) : null;
  const read = queryParams === null ? null : detail;
  const kept = read?.version !== undefined && answers !== undefined && answerKey !== undefined ? answers.get(answerKey) : undefined;
  const statement: AccessStatement = {
    dataSource,
    kind,
    source:
      cached !== undefined ? (cached.caller.isSuperuser ? 'superuser' : 'id')
      : tokenHash === null ? 'anonymous'
      : kind !== null && !callerRequired && cache?.active === true ? 'tokenFill'
      : 'token',
    tokenHash,
    callerId: cached?.caller.id,
    scopeParams: scope?.params ?? [],
    read,
    queryParams: queryParams ?? [],
    cache,
    superusers,
  };
  let result = await runAccessStatement(statement, kept === undefined ? 'full' : 'check');
  if (!applyAccessRow(ctx, result.access, cached, tokenHash, callerRequired, resource, a, b)) return;
  // Only now, with every check passed, may the answer kept or the body row be used (read-with-access.ts).
  if (kept !== undefined) {
    if (result.access?.version === kept.version) {
      ctx.keptAnswer = kept;
      return;
    }
    // The rows moved since the answer was kept: the full statement decides anew, in its own snapshot.
    result = await runAccessStatement(statement, 'full');
    if (!applyAccessRow(ctx, result.access, cached, tokenHash, callerRequired, resource, a, b)) return;
  }
  const row = result.access!;
  if (row.version !== undefined && row.version !== null && answers !== undefined && answerKey !== undefined) {
    ctx.pendingAnswer = { memo: answers, key: answerKey, version: row.version };
  }
  if (row.detail !== undefined && row.detail !== null) {
    if (detail?.rawColumn !== undefined) row.detail[detail.rawColumn] = result.detail_raw;
    ctx.prefetched = row.detail;
  }
}

/** One request's access statement: who calls (CallerSource), the object the path names, and the route's read. */
interface AccessStatement {
  dataSource: DataSource;
  kind: ScopeKind | null;
  source: CallerSource;
  tokenHash: string | null;
  /** The caller's id, for a caller the token cache knows (CallerSource `id`). */
  callerId: number | undefined;
  scopeParams: readonly string[];
  read: DetailRead | null;
  /** The read's query-string parameters (DetailRead.queryParams). */
  queryParams: readonly unknown[];
  cache: TokenCache | undefined;
  superusers: SuperuserHints | undefined;
}

/**
 * Runs the request's statement in `mode` (AccessStatementMode; `check` only for a read with a version) and learns
 * from the token's row: the superuser hint, and the token cache for a `tokenFill` or unscoped statement.
 */
async function runAccessStatement(statement: AccessStatement, mode: AccessStatementMode): Promise<AccessResult> {
  const { dataSource, kind, source, tokenHash, read, cache, superusers } = statement;
  const byToken = readsToken(source);
  const params: unknown[] = source === 'id' ? [statement.callerId] : byToken ? [tokenHash] : [];
  params.push(...statement.scopeParams);
  // A check reads the version alone, which takes the query's parameters only when it says so.
  if (mode === 'full' || read?.versionReadsQuery === true) params.push(...statement.queryParams);
  const ticket = cache?.beginFill();
  const forSuperuser = byToken && kind !== null && superusers?.has(tokenHash!) === true;
  let [result] = await requestAccessStatement(kind, source, read, forSuperuser, mode).run(dataSource, params);
  if (byToken) {
    const row = result.access;
    const activeCaller = row?.caller_id !== null && row?.caller_id !== undefined && row.is_active === true;
    superusers?.learn(tokenHash!, activeCaller && row?.is_superuser === true);
    // The token's user is no longer a superuser: its rights are needed. (An invalid token or an inactive user
    // is refused on this row, as on the full statement's.)
    if (forSuperuser && activeCaller && row?.is_superuser !== true) {
      [result] = await requestAccessStatement(kind, source, read, false, mode).run(dataSource, params);
    }
    const entry = cache !== undefined && (kind === null || source === 'tokenFill') ? cacheEntryOf(result.access, kind !== null) : undefined;
    if (entry !== undefined) cache!.store(ticket!, tokenHash!, entry);
  }
  return result;
}

/**
 * Applies the statement's row: 401 for an invalid token or an inactive user, or a write without a caller; 404 for
 * an object the caller may not see. Sets ctx.caller and ctx.access. Answers whether the path names an object that
 * was found and may be seen (ctx.scopeFound), whose body or kept answer the request may then use.
 */
function applyAccessRow(
  ctx: RequestContext,
  row: AccessRow | undefined,
  cached: CachedCaller | undefined,
  tokenHash: string | null,
  callerRequired: boolean,
  resource: string | undefined,
  a: string | undefined,
  b: string | undefined,
): boolean {
  if (cached !== undefined) ctx.caller = cached.caller;
  else if (tokenHash !== null) {
    if (row?.caller_id === null || row?.caller_id === undefined) throw notAuthenticated('Invalid token.');
    if (!row.is_active) throw notAuthenticated('User inactive or deleted.');
    ctx.caller = { id: row.caller_id, username: row.username ?? '', isSuperuser: row.is_superuser === true };
  }
  if (callerRequired && ctx.caller === null) throw notAuthenticated();
  const caller = ctx.caller;
  checkOwnNotifications(caller, resource, a, b);
  if (row?.project_id === null || row?.project_id === undefined) {
    ctx.access = new AccessGrant(caller, new Set(caller?.isSuperuser ? [] : (row?.permissions ?? [])));
    return false;
  }
  if (!caller?.isSuperuser && (!row.visible || !row.project_visible)) throw notFound();
  ctx.scopeFound = true;
  ctx.access = new AccessGrant(caller, new Set(row.permissions ?? []));
  return true;
}

/** What a request's access resolution may use beside the database (the guard's per-process helpers). */
export interface AccessOptions {
  /** The token cache (token-cache.ts); reads take the caller from it. */
  cache?: TokenCache;
  /** The route's body read (read-with-access.ts), for GET and HEAD. */
  detail?: DetailRead | null;
  superusers?: SuperuserHints;
  /** Answers kept by their rows' versions (response-memo.ts), and this request's key in it. */
  answers?: ResponseMemo;
  answerKey?: string;
}

/**
 * The query-string parameters of a read-with-access SELECT ([] when it takes none), or null when this request
 * is left to its handler. A throwing `queryParams` is treated as null: the handler will answer for the query
 * after the guard's own checks (read-with-access.ts).
 */
function detailQueryParams(detail: DetailRead, query: Record<string, unknown>, links: LinkBuilder): unknown[] | null {
  if (detail.queryParams === undefined) return [];
  try {
    return detail.queryParams(query, links);
  } catch {
    return null;
  }
}

/** A user's notification settings: owner or admin only; others get 404 so users cannot be enumerated (GHSA-3pmh-24wp-xpf4). */
function checkOwnNotifications(caller: ApiCaller | null, resource: string | undefined, a: string | undefined, b: string | undefined): void {
  if (resource === 'users' && a !== undefined && b === 'notifications' && !caller?.isSuperuser && caller?.username !== a) throw notFound();
}
