import type { ApiCaller } from '../http/request-context';

/*
 * Visibility and permission rules as SQL fragments (weblate-api.md §2.3, §2.5, §2.6; peers-and-asks.md §4.1).
 * Every list and every scope check embeds these, so a list is filtered in the same query that reads it (no
 * per-row checks, no N+1) and nested lists cannot forget the rule (GHSA-92m8-wv36-prmx).
 *
 * - A project is visible when it is public or protected (access_control 0/1: Weblate's Guests/Viewers/Users
 *   teams give everyone read access), or when one of the caller's teams selects it (selection "all",
 *   "all public"/"all protected" when the level matches, the project by hand, or one of its components).
 * - A restricted component is visible only through a team that selects that component by hand (Weblate:
 *   "restricting access at a component level takes over the project-level permissions").
 * - Superusers see everything. The caller's teams are its membership rows (every user is a member of the
 *   built-in "Users" team unless removed from it); anonymous callers have the team marked implicit for them.
 * The user id is an integer from our own users table, so it is inlined as a number literal, except in the
 * per-request statements, which take it as a parameter so one prepared statement serves every user.
 */

/** A caller whose id the SQL refers to as a query parameter (e.g. `$4::int`) instead of a literal. */
export interface ParameterizedCaller extends ApiCaller {
  idSql: string;
}

/** The caller with its id as the query parameter `idSql`; superusers and anonymous callers need no id. */
export function parameterizedCaller(caller: ApiCaller | null, idSql: string): ApiCaller | null {
  return caller === null || caller.isSuperuser ? caller : { ...caller, idSql } as ParameterizedCaller;
}

function userIdSql(caller: ApiCaller): string {
  return (caller as Partial<ParameterizedCaller>).idSql ?? String(Number(caller.id));
}

export function callerGroupsSql(caller: ApiCaller | null): string {
  if (caller === null) return `SELECT id FROM groups WHERE implicit_for = 'anonymous'`;
  // Memberships only: the built-in "Users" team is a real membership of every user (auto-assigned).
  return `SELECT group_id AS id FROM group_members WHERE user_id = ${userIdSql(caller)}`;
}

/** A team `g` selects project `p` (not counting component-level grants). */
export function groupSelectsProjectSql(g: string, p: string): string {
  return `(${g}.project_selection = 1 OR (${g}.project_selection = 3 AND ${p}.access_control = 0)
    OR (${g}.project_selection = 4 AND ${p}.access_control IN (0, 1))
    OR EXISTS (SELECT 1 FROM group_projects gp WHERE gp.group_id = ${g}.id AND gp.project_id = ${p}.id))`;
}

/** Condition on project alias `p`: the caller may see it. */
export function projectVisibleSql(caller: ApiCaller | null, p: string): string {
  if (caller?.isSuperuser) return 'TRUE';
  return `(${p}.access_control IN (0, 1) OR EXISTS (
    SELECT 1 FROM groups vg WHERE vg.id IN (${callerGroupsSql(caller)}) AND (${groupSelectsProjectSql('vg', p)}
      OR EXISTS (SELECT 1 FROM group_components vgc JOIN components vc ON vc.id = vgc.component_id
                  WHERE vgc.group_id = vg.id AND vc.project_id = ${p}.id AND NOT vc.restricted))))`;
}

/** Condition on component alias `c` of project alias `p`: the caller may see it. */
export function componentVisibleSql(caller: ApiCaller | null, c: string, p: string): string {
  if (caller?.isSuperuser) return 'TRUE';
  const explicit = `EXISTS (SELECT 1 FROM group_components egc WHERE egc.component_id = ${c}.id AND egc.group_id IN (${callerGroupsSql(caller)}))`;
  return `(CASE WHEN ${c}.restricted THEN ${explicit} ELSE (${explicit} OR ${projectVisibleSql(caller, p)}) END)`;
}

/**
 * Condition on a component id expression (e.g. `ch.component_id`): visible. Used by lists that hold only
 * the id (changes, tasks); one correlated EXISTS, evaluated by the planner as a semi-join.
 */
export function componentIdVisibleSql(caller: ApiCaller | null, componentId: string): string {
  if (caller?.isSuperuser) return 'TRUE';
  return `EXISTS (SELECT 1 FROM components vcc JOIN projects vpp ON vpp.id = vcc.project_id
    WHERE vcc.id = ${componentId} AND ${componentVisibleSql(caller, 'vcc', 'vpp')})`;
}

export function projectIdVisibleSql(caller: ApiCaller | null, projectId: string): string {
  if (caller?.isSuperuser) return 'TRUE';
  return `EXISTS (SELECT 1 FROM projects vpi WHERE vpi.id = ${projectId} AND ${projectVisibleSql(caller, 'vpi')})`;
}

/** SQL expressions for the ids of a scope (project, component or null, language or null). */
export interface ScopeIdsSql {
  project: string;
  component: string;
  language: string;
}

const SCOPE_ID_PARAMETERS: ScopeIdsSql = { project: '$1::int', component: '$2::int', language: '$3::int' };

/**
 * Which ids a scope can have. A project's scope has no component and no language, a component's no language:
 * for those the rules' parts about them are left out of the SQL (`c.id IS NULL` and `language IS NULL` would
 * always hold), which gives the same answers from a plan PostgreSQL starts faster. Every per-request statement
 * is a prepared plan whose nodes, used or not, are set up on each execution: the full rules made the project
 * detail's access statement cost about 3× its SELECT (docs/performance.md, "Read floor, session 7").
 */
export interface ScopeShape {
  component: boolean;
  language: boolean;
}

const FULL_SCOPE: ScopeShape = { component: true, language: true };

/**
 * One query for a scope: is it visible, and which permissions do the caller's teams grant on it. A team
 * grants on a component when it selects the component by hand, or (unrestricted components only) when it
 * selects the project; on a translation it must also select the language (all, or by hand).
 * By default the ids are the parameters $1 (project), $2 (component or null) and $3 (language or null);
 * `ids` names other SQL expressions for them (a lateral subquery's outer columns). With a `shape` that has
 * no component (or no language), `ids.component` (`ids.language`) is not used: the scope has none.
 */
export function scopeQuerySql(caller: ApiCaller | null, ids: ScopeIdsSql = SCOPE_ID_PARAMETERS, shape: ScopeShape = FULL_SCOPE): string {
  const groups = callerGroupsSql(caller);
  const visible = shape.component ? `(c.id IS NULL OR ${componentVisibleSql(caller, 'c', 'p')})` : 'TRUE';
  const grants = shape.component
    ? `(CASE
         WHEN c.id IS NULL THEN ${groupSelectsProjectSql('g', 'p')}
         WHEN c.restricted THEN EXISTS (SELECT 1 FROM group_components gc WHERE gc.group_id = g.id AND gc.component_id = c.id)
         ELSE ${groupSelectsProjectSql('g', 'p')}
           OR EXISTS (SELECT 1 FROM group_components gc WHERE gc.group_id = g.id AND gc.component_id = c.id)
       END)`
    : groupSelectsProjectSql('g', 'p');
  const language = shape.language
    ? `AND (${ids.language} IS NULL OR g.language_selection = 1
            OR EXISTS (SELECT 1 FROM group_languages gl WHERE gl.group_id = g.id AND gl.language_id = ${ids.language}))`
    : '';
  const from = shape.component ? `projects p LEFT JOIN components c ON c.id = ${ids.component} AND c.project_id = p.id` : 'projects p';
  return `
    SELECT ${projectVisibleSql(caller, 'p')} AS project_visible,
           ${visible} AS visible,
           COALESCE((
             SELECT array_agg(DISTINCT perm) FROM groups g
               JOIN group_roles gr ON gr.group_id = g.id
               JOIN roles r ON r.id = gr.role_id
               CROSS JOIN LATERAL unnest(r.permissions) AS perm
              WHERE g.id IN (${groups})
                AND ${grants}
                ${language}
           ), '{}') AS permissions
      FROM ${from}
     WHERE p.id = ${ids.project}`;
}

/** Permissions granted regardless of scope (global ones such as `project.add`). */
export function globalPermissionsSql(caller: ApiCaller | null): string {
  return `SELECT COALESCE(array_agg(DISTINCT perm), '{}') AS permissions FROM groups g
            JOIN group_roles gr ON gr.group_id = g.id JOIN roles r ON r.id = gr.role_id
            CROSS JOIN LATERAL unnest(r.permissions) AS perm
           WHERE g.id IN (${callerGroupsSql(caller)})`;
}

/**
 * Subquery: ids of the components the caller can see. Lists over large tables (changes, units,
 * translations) filter with `x.component_id IN (...)`, which PostgreSQL runs once as a hashed subplan.
 */
export function visibleComponentIdsSql(caller: ApiCaller | null): string {
  return `SELECT vic.id FROM components vic JOIN projects vip ON vip.id = vic.project_id WHERE ${componentVisibleSql(caller, 'vic', 'vip')}`;
}

/**
 * Condition on a translation id expression (e.g. `u.translation_id`): the translation's component is visible.
 * For filters over units, the largest table. The visible translation ids are computed once per statement,
 * before any unit is read: `= ANY (ARRAY(subquery))` is an InitPlan, which the planner cannot turn into a
 * join. Written as `IN (subquery)` in the WHERE clause it became a semi-join, and with the one-row estimate the
 * CASE of componentVisibleSql gets, the planner read units once per visible translation or component (issue 10
 * item 5: an anonymous search 10× slower than the superuser's).
 */
export function translationIdVisibleSql(caller: ApiCaller | null, translationId: string): string {
  if (caller?.isSuperuser) return 'TRUE';
  return `${translationId} = ANY (ARRAY(SELECT vt.id FROM translations vt WHERE vt.component_id IN (${visibleComponentIdsSql(caller)})))`;
}

export function visibleProjectIdsSql(caller: ApiCaller | null): string {
  return `SELECT vpr.id FROM projects vpr WHERE ${projectVisibleSql(caller, 'vpr')}`;
}

/** Condition for a changes row `ch`: its component and project (when set) are visible (GHSA-92m8-wv36-prmx). */
export function changeVisibleSql(caller: ApiCaller | null, ch: string): string {
  if (caller?.isSuperuser) return 'TRUE';
  return `((${ch}.component_id IS NULL OR ${ch}.component_id IN (${visibleComponentIdsSql(caller)}))
    AND (${ch}.project_id IS NULL OR ${ch}.project_id IN (${visibleProjectIdsSql(caller)})))`;
}
