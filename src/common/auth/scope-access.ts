import type { DataSource } from 'typeorm';
import { PreparedStatement } from '../../database/prepared-statement';
import { notAuthenticated, notFound } from '../http/api-errors';
import type { ApiCaller, RequestContext } from '../http/request-context';
import type { LinkBuilder } from '../links/link-builder';
import type { KeptAnswer, ResponseMemo } from '../http/response-memo';
import { globalPermissionsSql, parameterizedCaller, scopeQuerySql, type ScopeShape } from './access-sql';
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

/** The objects a path can name, each found by a lookup whose parameters are the path's segments. */
type ScopeKind = 'project' | 'component' | 'translation' | 'unit' | 'suggestion' | 'change' | 'task' | 'addon';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Each lookup answers project_id, component_id, language_id; `$n` are numbered from `first`. */
const SCOPE_LOOKUPS: Record<ScopeKind, (first: number) => string> = {
  project: (n) => `SELECT id AS project_id, NULL::int AS component_id, NULL::int AS language_id FROM projects WHERE slug = $${n}`,
  component: (n) => `SELECT p.id AS project_id, c.id AS component_id, NULL::int AS language_id
                       FROM components c JOIN projects p ON p.id = c.project_id WHERE p.slug = $${n} AND c.slug = $${n + 1}`,
  translation: (n) => `SELECT p.id AS project_id, co.id AS component_id, t.language_id
                         FROM translations t JOIN components co ON co.id = t.component_id JOIN projects p ON p.id = co.project_id
                        WHERE p.slug = $${n} AND co.slug = $${n + 1} AND t.language_code = $${n + 2}`,
  unit: (n) => `SELECT co.project_id, co.id AS component_id, t.language_id
                  FROM units u JOIN translations t ON t.id = u.translation_id JOIN components co ON co.id = t.component_id
                 WHERE u.id = $${n}`,
  // A suggestion is seen and acted on with the rights on its unit's translation (Weblate's SuggestionViewSet).
  suggestion: (n) => `SELECT co.project_id, co.id AS component_id, t.language_id
                        FROM suggestions s JOIN units u ON u.id = s.unit_id JOIN translations t ON t.id = u.translation_id
                        JOIN components co ON co.id = t.component_id
                       WHERE s.id = $${n}`,
  change: (n) => `SELECT ch.project_id, ch.component_id, ch.language_id FROM changes ch WHERE ch.id = $${n} AND ch.project_id IS NOT NULL`,
  // A task belongs to its component (weblate-api.md §5.14): seen and cancelled with the component's rights.
  // A removal task outlives its component; it then names nothing and inherits no restriction.
  task: (n) => `SELECT co.project_id, co.id AS component_id, NULL::int AS language_id
                  FROM tasks tk JOIN components co ON co.id = tk.component_id WHERE tk.id = $${n}::uuid`,
  // An add-on is seen with the rights on what it is installed on: its component, or its project (component_id null).
  addon: (n) => `SELECT a.project_id, a.component_id, NULL::int AS language_id FROM addons a WHERE a.id = $${n}`,
};

/**
 * The ids each lookup can answer (access-sql.ts ScopeShape): a project has no component or language, and
 * tasks and add-ons belong to a component or project; a change may name a translation.
 */
const SCOPE_SHAPES: Record<ScopeKind, ScopeShape> = {
  project: { component: false, language: false },
  component: { component: true, language: false },
  translation: { component: true, language: true },
  unit: { component: true, language: true },
  suggestion: { component: true, language: true },
  change: { component: true, language: true },
  task: { component: true, language: false },
  addon: { component: true, language: false },
};

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
 * Where a request's access statement learns who calls:
 * - `anonymous`: there is no token.
 * - `token`: from the token's digest ($1), in the statement itself; writes always do, so a token revoked on
 *   another replica is refused even before its notification arrives. `forSuperuser` skips the rights.
 * - `tokenFill`: the same for a scoped read the token cache could have answered but did not hold: the row
 *   also carries the caller's global permissions, so the cache is filled from it.
 * - `id`: the token cache knew the caller; the statement takes its user id ($1) and reads only the object and
 *   the rights on it.
 * - `superuser`: the token cache knew a superuser; the statement reads only the object.
 */
type CallerSource = 'anonymous' | 'token' | 'tokenFill' | 'id' | 'superuser';

/** Whether the statement reads the caller from the token's digest ($1). */
const readsToken = (source: CallerSource): boolean => source === 'token' || source === 'tokenFill';

/** The access answer; a key the statement does not read is absent (no token, no scope, a superuser's rights). */
interface AccessRow {
  caller_id?: number | null;
  username?: string | null;
  is_superuser?: boolean | null;
  is_active?: boolean | null;
  project_id?: number | null;
  project_visible?: boolean | null;
  visible?: boolean | null;
  permissions?: string[] | null;
  /** `tokenFill` on a scoped path: the permissions the caller's teams grant regardless of scope. */
  global_permissions?: string[] | null;
  /** The route's body row (read-with-access.ts), when it declared one; null when `version` is the one held. */
  detail?: Record<string, unknown> | null;
  /** The version of the body's rows (DetailRead.version), when the route names them. */
  version?: string | null;
}

const CALLER_BY_TOKEN = `SELECT u.id, u.username, u.is_superuser, u.is_active FROM api_tokens t JOIN users u ON u.id = t.user_id WHERE t.key_hash = $1`;

/** The statement's one row: the access answer as one JSON object, and a DetailRead.rawColumn's text beside it. */
interface AccessResult {
  access: AccessRow;
  detail_raw?: string | null;
}

/**
 * The one statement a request runs to learn who calls (by the token's digest or, for a caller the token cache
 * knows, its user id: $1; see CallerSource), which object its path names, whether the caller may see it and
 * what the caller's teams grant on it.
 * Every API request runs it before its handler, so it is a prepared statement, and a single round trip:
 * on this stack each extra statement costs more in socket writes than PostgreSQL spends answering it
 * (docs/performance.md). The permission rules are those of access-sql.ts, written for a non-superuser with
 * the caller's id taken from the row; for superusers the answer is ignored (they see and may do everything).
 *
 * The answer is ONE json column (`access`, an AccessRow), plus the raw text of a DetailRead.rawColumn.
 * node-postgres describes, parses and type-converts every column of every row it receives (pg's
 * Result.addFields and parseRow on each execution), so the nine columns this row had cost the driver more than
 * the one JSON.parse of the same values (docs/performance.md, "The access row as one column, session 17").
 */
function requestAccessSql(kind: ScopeKind | null, source: CallerSource, detail: DetailRead | null = null, forSuperuser = false): string {
  const byToken = readsToken(source);
  const callerParams = byToken || source === 'id' ? 1 : 0;
  // A read that names its rows' versions takes the version this process holds next (response-memo.ts).
  const heldVersion = detail?.version !== undefined ? callerParams + 1 : null;
  const first = callerParams + (heldVersion === null ? 1 : 2);
  const ctes: string[] = [];
  const fields: Array<[keyof AccessRow, string]> = [];
  const joins: string[] = [];
  let rawColumn = '';
  let caller: ApiCaller | null = null;
  if (byToken) {
    ctes.push(`caller AS (${CALLER_BY_TOKEN})`);
    fields.push(['caller_id', 'caller.id'], ['username', 'caller.username'], ['is_superuser', 'caller.is_superuser'], ['is_active', 'caller.is_active']);
    joins.push('LEFT JOIN caller ON TRUE');
    caller = parameterizedCaller({ id: 0, username: '', isSuperuser: false }, 'caller.id');
  } else if (source === 'id') caller = parameterizedCaller({ id: 0, username: '', isSuperuser: false }, '$1::int');
  if (kind === null) {
    // No object: only the permissions granted regardless of scope (e.g. project.add).
    if (byToken) {
      fields.push(['permissions', 'access.permissions']);
      joins.push(`LEFT JOIN LATERAL (${globalPermissionsSql(caller)}) access ON caller.id IS NOT NULL`);
    }
  } else {
    if (source === 'tokenFill') {
      fields.push(['global_permissions', 'global.permissions']);
      joins.push(`LEFT JOIN LATERAL (${globalPermissionsSql(caller)}) global ON caller.id IS NOT NULL`);
    }
    // A body row that names the object (DetailRead.selectsScope) is the scope: the object is read once. OFFSET 0
    // keeps the row's JSON from being pulled up and built once per reference (as for detail_read below).
    const scopeFromBody = detail !== null && detail.selectsScope === true && detail.rawColumn !== undefined && detail.version === undefined;
    if (scopeFromBody) joins.push(`LEFT JOIN LATERAL ((${detail.sql(first)}) OFFSET 0) scope ON TRUE`);
    else {
      ctes.push(`scope AS (${SCOPE_LOOKUPS[kind](first)})`);
      joins.push('LEFT JOIN scope ON TRUE');
    }
    fields.push(['project_id', 'scope.project_id']);
    // A superuser's rights are not read: a superuser sees and may do everything (resolveRequestAccess checks
    // that the row's caller is one, and asks again with the rights otherwise).
    if (!forSuperuser && source !== 'superuser') {
      fields.push(['project_visible', 'access.project_visible'], ['visible', 'access.visible'], ['permissions', 'access.permissions']);
      const ids = { project: 'scope.project_id', component: 'scope.component_id', language: 'scope.language_id' };
      joins.push(`LEFT JOIN LATERAL (${scopeQuerySql(caller, ids, SCOPE_SHAPES[kind])}) access ON scope.project_id IS NOT NULL`);
    }
    // With a version, the body's rows are read only when their version is not the one held ($heldVersion): a
    // CASE evaluates its subquery only when taken, and a WHERE on outer values alone is a one-time filter that
    // skips the scan.
    let changed: string | null = null;
    if (detail?.version !== undefined) {
      joins.push(`LEFT JOIN LATERAL (${detail.version(first)}) version ON TRUE`);
      fields.push(['version', 'version.v']);
      changed = `version.v IS DISTINCT FROM $${heldVersion}`;
    }
    if (scopeFromBody) {
      // The handler takes the raw column alone; an empty object says the row was found.
      fields.push(['detail', `CASE WHEN scope.project_id IS NOT NULL THEN '{}'::json END`]);
      rawColumn = `, scope.${detail.rawColumn} AS detail_raw`;
    } else if (detail !== null && detail.rawColumn === undefined) {
      const body = `(SELECT to_json(detail) FROM (${detail.sql(first)}) detail)`;
      fields.push(['detail', changed === null ? body : `CASE WHEN ${changed} THEN ${body} END`]);
    } else if (detail !== null) {
      // jsonb, whose `-` leaves the raw column out of the row's JSON: only the small rest is written as JSON.
      // OFFSET 0 keeps PostgreSQL from pulling the SELECT up into this one: pulled up, each of the two
      // references to the raw column is its own copy of the column's expression, and a unit's JSON was built
      // twice per request (docs/performance.md, "Detail reads, session 15").
      // With a version, the outer OFFSET 0 too: pulled up, the WHERE on the version became a join filter checked
      // after the body was built (EXPLAIN, session 22); kept apart, it is a one-time filter that skips the body.
      joins.push(
        `LEFT JOIN LATERAL (SELECT to_jsonb(d) - '${detail.rawColumn}' AS detail, d.${detail.rawColumn} AS detail_raw FROM ((${detail.sql(first)}) OFFSET 0) d${changed === null ? '' : ` WHERE ${changed} OFFSET 0`}) detail_read ON TRUE`,
      );
      fields.push(['detail', 'detail_read.detail']);
      rawColumn = ', detail_read.detail_raw';
    }
  }
  const access = `json_build_object(${fields.map(([key, sql]) => `'${key}', ${sql}`).join(', ')}) AS access`;
  return `${ctes.length > 0 ? `WITH ${ctes.join(', ')} ` : ''}SELECT ${access}${rawColumn} FROM (SELECT 1) AS request ${joins.join(' ')}`;
}

const statements = new Map<string, PreparedStatement<AccessResult>>();
// One statement per detail read, token presence and superuser variant; the reads are module constants
// (ReadWithAccess), so this holds a fixed, small set of texts, as prepared statements must (prepared-statement.ts).
const detailStatements = new Map<DetailRead, Map<string, PreparedStatement<AccessResult>>>();

function requestAccessStatement(kind: ScopeKind | null, source: CallerSource, detail: DetailRead | null, forSuperuser: boolean): PreparedStatement<AccessResult> {
  const variant = `${source}:${forSuperuser}`;
  if (detail !== null && kind === detail.kind) {
    let byVariant = detailStatements.get(detail);
    if (byVariant === undefined) detailStatements.set(detail, (byVariant = new Map()));
    let statement = byVariant.get(variant);
    if (statement === undefined) byVariant.set(variant, (statement = new PreparedStatement<AccessResult>(requestAccessSql(kind, source, detail, forSuperuser))));
    return statement;
  }
  const key = `${kind ?? 'none'}:${variant}`;
  let statement = statements.get(key);
  if (statement === undefined) {
    statement = new PreparedStatement<AccessResult>(requestAccessSql(kind, source, null, forSuperuser));
    statements.set(key, statement);
  }
  return statement;
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
 * With `answers` and a `detail` that names its rows' versions, the statement builds the body only when the
 * version differs from the answer this process keeps under `answerKey` (response-memo.ts); when it does not,
 * and every check passed, ctx.keptAnswer is that answer. Otherwise ctx.pendingAnswer has the body kept.
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
  let row: AccessRow | undefined;
  let detailRaw: string | null | undefined;
  let kept: KeptAnswer | undefined;
  if (tokenHash !== null || scope !== null) {
    const kind = scope?.kind ?? null;
    const source: CallerSource =
      cached !== undefined ? (cached.caller.isSuperuser ? 'superuser' : 'id')
      : tokenHash === null ? 'anonymous'
      : kind !== null && !callerRequired && cache?.active === true ? 'tokenFill'
      : 'token';
    const byToken = readsToken(source);
    const params: unknown[] = source === 'id' ? [cached!.caller.id] : byToken ? [tokenHash] : [];
    // A read that the query string rules out (a search, say) is left to the handler: the plain statement.
    const queryParams = detail !== null && kind === detail.kind ? detailQueryParams(detail, ctx.query, ctx.links) : null;
    const read = queryParams === null ? null : detail;
    if (read?.version !== undefined) {
      kept = answers !== undefined && answerKey !== undefined ? answers.get(answerKey) : undefined;
      params.push(kept?.version ?? null);
    }
    if (scope !== null) params.push(...scope.params);
    if (queryParams !== null) params.push(...queryParams);
    const ticket = cache?.beginFill();
    const forSuperuser = byToken && kind !== null && superusers?.has(tokenHash!) === true;
    [{ access: row, detail_raw: detailRaw }] = await requestAccessStatement(kind, source, read, forSuperuser).run(dataSource, params);
    if (byToken) {
      const activeCaller = row?.caller_id !== null && row?.caller_id !== undefined && row.is_active === true;
      superusers?.learn(tokenHash!, activeCaller && row?.is_superuser === true);
      // The token's user is no longer a superuser: its rights are needed. (An invalid token or an inactive user
      // is refused below on this row, as on the full statement's.)
      if (forSuperuser && activeCaller && row?.is_superuser !== true) {
        [{ access: row, detail_raw: detailRaw }] = await requestAccessStatement(kind, source, read, false).run(dataSource, params);
      }
      const entry = cache !== undefined && (kind === null || source === 'tokenFill') ? cacheEntryOf(row, kind !== null) : undefined;
      if (entry !== undefined) cache!.store(ticket!, tokenHash!, entry);
    }
  }
  if (cached !== undefined) ctx.caller = cached.caller;
  else if (tokenHash !== null) {
    if (row?.caller_id === null || row?.caller_id === undefined) throw notAuthenticated('Invalid token.');
    if (!row.is_active) throw notAuthenticated('User inactive or deleted.');
    ctx.caller = { id: row.caller_id, username: row.username ?? '', isSuperuser: row.is_superuser === true };
  }
  if (callerRequired && ctx.caller === null) throw notAuthenticated();
  const caller = ctx.caller;
  checkOwnNotifications(caller, resource, a, b);
  if (scope === null || row?.project_id === null || row?.project_id === undefined) {
    ctx.access = new AccessGrant(caller, new Set(caller?.isSuperuser ? [] : (row?.permissions ?? [])));
    return;
  }
  if (!caller?.isSuperuser && (!row.visible || !row.project_visible)) throw notFound();
  ctx.scopeFound = true;
  ctx.access = new AccessGrant(caller, new Set(row.permissions ?? []));
  // Only now, with every check passed, may the answer kept or the body row be used (read-with-access.ts).
  if (row.version !== undefined && row.version !== null && answers !== undefined && answerKey !== undefined) {
    if (kept !== undefined && kept.version === row.version) {
      ctx.keptAnswer = kept;
      return;
    }
    ctx.pendingAnswer = { memo: answers, key: answerKey, version: row.version };
  }
  if (row.detail !== undefined && row.detail !== null) {
    if (detail?.rawColumn !== undefined) row.detail[detail.rawColumn] = detailRaw;
    ctx.prefetched = row.detail;
  }
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
