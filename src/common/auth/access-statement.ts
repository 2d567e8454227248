import { PreparedStatement } from '../../database/prepared-statement';
import type { ApiCaller } from '../http/request-context';
import { globalPermissionsSql, parameterizedCaller, scopeQuerySql, type ScopeShape } from './access-sql';
import type { DetailRead } from './read-with-access';

// The auth guard's statement (scope-access.ts resolveRequestAccess): the lookups of the objects a path can name
// and the SQL that reads the caller, the object, the caller's rights on it and, for a DetailRead, the body or
// the version of its rows, in one round trip.

/** The objects a path can name, each found by a lookup whose parameters are the path's segments. */
export type ScopeKind = 'project' | 'component' | 'translation' | 'unit' | 'suggestion' | 'change' | 'task' | 'addon';

/** Each lookup answers project_id, component_id, language_id; `$n` are numbered from `first`. */
export const SCOPE_LOOKUPS: Record<ScopeKind, (first: number) => string> = {
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
export const SCOPE_SHAPES: Record<ScopeKind, ScopeShape> = {
  project: { component: false, language: false },
  component: { component: true, language: false },
  translation: { component: true, language: true },
  unit: { component: true, language: true },
  suggestion: { component: true, language: true },
  change: { component: true, language: true },
  task: { component: true, language: false },
  addon: { component: true, language: false },
};


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
export type CallerSource = 'anonymous' | 'token' | 'tokenFill' | 'id' | 'superuser';

/** Whether the statement reads the caller from the token's digest ($1). */
export const readsToken = (source: CallerSource): boolean => source === 'token' || source === 'tokenFill';

/** The access answer; a key the statement does not read is absent (no token, no scope, a superuser's rights). */
export interface AccessRow {
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
  /** The route's body row (read-with-access.ts), when it declared one and the statement reads it (AccessStatementMode). */
  detail?: Record<string, unknown> | null;
  /** The version of the body's rows (DetailRead.version), when the route names them. */
  version?: string | null;
}

const CALLER_BY_TOKEN = `SELECT u.id, u.username, u.is_superuser, u.is_active FROM api_tokens t JOIN users u ON u.id = t.user_id WHERE t.key_hash = $1`;

/** The statement's one row: the access answer as one JSON object, and a DetailRead.rawColumn's text beside it. */
export interface AccessResult {
  access: AccessRow;
  detail_raw?: string | null;
}

/**
 * What a statement with a DetailRead reads besides the caller and the object:
 * - `full`: the body's row, and its rows' version when the read names one (DetailRead.version), for an answer this
 *   process does not keep yet or keeps at another version.
 * - `check`: the version alone, for a read whose answer this process keeps (response-memo.ts). PostgreSQL
 *   initializes every node of a plan on every execution, also the body's subquery that a CASE would skip, so the
 *   version's own statement is the cheap one; only when the version moved does a second, full statement follow
 *   (docs/performance.md, "Kept answers checked by their version alone, session 26").
 */
export type AccessStatementMode = 'full' | 'check';

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
export function requestAccessSql(kind: ScopeKind | null, source: CallerSource, detail: DetailRead | null = null, forSuperuser = false, mode: AccessStatementMode = 'full'): string {
  const byToken = readsToken(source);
  const first = (byToken || source === 'id' ? 1 : 0) + 1;
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
    const version = detail?.version;
    const check = mode === 'check' && version !== undefined;
    // A row that names the object (DetailRead.selectsScope: the body's, or in a check the version's) is the scope:
    // the object is read once. OFFSET 0 keeps the row's JSON from being pulled up and built once per reference
    // (as for detail_read below).
    const scopeFromRow = detail !== null && detail.selectsScope === true && detail.rawColumn !== undefined;
    if (scopeFromRow) joins.push(`LEFT JOIN LATERAL ((${check ? version!(first) : detail.sql(first)}) OFFSET 0) scope ON TRUE`);
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
    if (version !== undefined) {
      if (scopeFromRow) fields.push(['version', 'scope.v']);
      else {
        joins.push(`LEFT JOIN LATERAL (${version(first)}) version ON TRUE`);
        fields.push(['version', 'version.v']);
      }
    }
    if (check) {
      // The version alone: the body is read by a full statement only if the version is not the one kept.
    } else if (scopeFromRow) {
      // The handler takes the raw column alone; an empty object says the row was found.
      fields.push(['detail', `CASE WHEN scope.project_id IS NOT NULL THEN '{}'::json END`]);
      rawColumn = `, scope.${detail.rawColumn} AS detail_raw`;
    } else if (detail !== null && detail.rawColumn === undefined) {
      fields.push(['detail', `(SELECT to_json(detail) FROM (${detail.sql(first)}) detail)`]);
    } else if (detail !== null) {
      // jsonb, whose `-` leaves the raw column out of the row's JSON: only the small rest is written as JSON.
      // OFFSET 0 keeps PostgreSQL from pulling the SELECT up into this one: pulled up, each of the two
      // references to the raw column is its own copy of the column's expression, and a unit's JSON was built
      // twice per request (docs/performance.md, "Detail reads, session 15").
      joins.push(`LEFT JOIN LATERAL (SELECT to_jsonb(d) - '${detail.rawColumn}' AS detail, d.${detail.rawColumn} AS detail_raw FROM ((${detail.sql(first)}) OFFSET 0) d) detail_read ON TRUE`);
      fields.push(['detail', 'detail_read.detail']);
      rawColumn = ', detail_read.detail_raw';
    }
  }
  const access = `json_build_object(${fields.map(([key, sql]) => `'${key}', ${sql}`).join(', ')}) AS access`;
  return `${ctes.length > 0 ? `WITH ${ctes.join(', ')} ` : ''}SELECT ${access}${rawColumn} FROM (SELECT 1) AS request ${joins.join(' ')}`;
}

const statements = new Map<string, PreparedStatement<AccessResult>>();
// One statement per detail read, token presence, superuser variant and mode; the reads are module constants
// (ReadWithAccess), so this holds a fixed, small set of texts, as prepared statements must (prepared-statement.ts).
const detailStatements = new Map<DetailRead, Map<string, PreparedStatement<AccessResult>>>();

export function requestAccessStatement(
  kind: ScopeKind | null,
  source: CallerSource,
  detail: DetailRead | null,
  forSuperuser: boolean,
  mode: AccessStatementMode = 'full',
): PreparedStatement<AccessResult> {
  const variant = `${source}:${forSuperuser}:${mode}`;
  if (detail !== null && kind === detail.kind) {
    let byVariant = detailStatements.get(detail);
    if (byVariant === undefined) detailStatements.set(detail, (byVariant = new Map()));
    let statement = byVariant.get(variant);
    if (statement === undefined) byVariant.set(variant, (statement = new PreparedStatement<AccessResult>(requestAccessSql(kind, source, detail, forSuperuser, mode))));
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
