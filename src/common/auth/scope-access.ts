import type { DataSource } from 'typeorm';
import { notFound } from '../http/api-errors';
import type { ApiCaller, RequestContext } from '../http/request-context';
import { componentIdVisibleSql, globalPermissionsSql, scopeQuerySql } from './access-sql';

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

interface Scope {
  projectId: number;
  componentId: number | null;
  languageId: number | null;
}

function decode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * Resolves the project/component/translation a request path names, answers 404 when the caller cannot
 * see it (weblate-api.md §2.3: invisible objects are filtered out, never 403), and stores the caller's
 * permissions on it in ctx.access. Running for every /api/ request, before any controller, means detail
 * routes and every nested route (changes, statistics, units, files, repository, lock, ...) share one rule
 * (peers-and-asks.md §4.2, GHSA-92m8-wv36-prmx). Two queries at most: find the scope, then check it.
 * Paths naming nothing that exists are left alone: the controller answers its own 404.
 */
export async function resolveAccess(dataSource: DataSource, path: string, ctx: RequestContext): Promise<void> {
  const caller = ctx.caller;
  const parts = path.split('/').filter((part) => part !== '').map(decode);
  if (parts[0] !== 'api') return;
  const [, resource, a, b, c] = parts;
  if (resource === 'users' && a !== undefined && b === 'notifications') {
    // Owner or admin only; others get 404 so users cannot be enumerated (GHSA-3pmh-24wp-xpf4).
    if (!caller?.isSuperuser && caller?.username !== a) throw notFound();
    return;
  }
  let scope: Scope | null | undefined;
  if (resource === 'projects' && a !== undefined) {
    scope = await one(dataSource, `SELECT id AS project_id, NULL AS component_id, NULL AS language_id FROM projects WHERE slug = $1`, [a]);
  } else if (resource === 'components' && a !== undefined && b !== undefined) {
    scope = await one(
      dataSource,
      `SELECT p.id AS project_id, c.id AS component_id, NULL AS language_id
         FROM components c JOIN projects p ON p.id = c.project_id WHERE p.slug = $1 AND c.slug = $2`,
      [a, b],
    );
  } else if (resource === 'translations' && a !== undefined && b !== undefined && c !== undefined) {
    scope = await one(
      dataSource,
      `SELECT p.id AS project_id, co.id AS component_id, t.language_id
         FROM translations t JOIN components co ON co.id = t.component_id JOIN projects p ON p.id = co.project_id
        WHERE p.slug = $1 AND co.slug = $2 AND t.language_code = $3`,
      [a, b, c],
    );
  } else if (resource === 'units' && a !== undefined && /^\d{1,18}$/.test(a)) {
    scope = await one(
      dataSource,
      `SELECT co.project_id, co.id AS component_id, t.language_id
         FROM units u JOIN translations t ON t.id = u.translation_id JOIN components co ON co.id = t.component_id
        WHERE u.id = $1`,
      [a],
    );
  } else if (resource === 'changes' && a !== undefined && /^\d{1,18}$/.test(a)) {
    scope = await one(
      dataSource,
      `SELECT ch.project_id, ch.component_id, ch.language_id FROM changes ch WHERE ch.id = $1 AND ch.project_id IS NOT NULL`,
      [a],
    );
  } else if (resource === 'tasks' && a !== undefined && /^[0-9a-f-]{36}$/i.test(a)) {
    const rows: Array<{ visible: boolean }> = await dataSource.query(
      // A removal task outlives its component; it then inherits no restriction.
      `SELECT (NOT EXISTS (SELECT 1 FROM components gone WHERE gone.id = t.component_id) OR ${componentIdVisibleSql(caller, 't.component_id')}) AS visible
         FROM tasks t WHERE t.id = $1 AND t.component_id IS NOT NULL`,
      [a],
    );
    if (rows.length > 0 && !rows[0].visible) throw notFound();
  }
  if (scope === undefined || scope === null) {
    if (caller !== null && !caller.isSuperuser) {
      const rows: Array<{ permissions: string[] }> = await dataSource.query(globalPermissionsSql(caller));
      ctx.access = new AccessGrant(caller, new Set(rows[0]?.permissions ?? []));
    } else {
      ctx.access = new AccessGrant(caller, new Set());
    }
    return;
  }
  const rows: Array<{ visible: boolean; project_visible: boolean; permissions: string[] }> = await dataSource.query(scopeQuerySql(caller), [
    scope.projectId,
    scope.componentId,
    scope.languageId,
  ]);
  if (rows.length === 0 || !rows[0].visible || !rows[0].project_visible) throw notFound();
  ctx.access = new AccessGrant(caller, new Set(rows[0].permissions));
}

async function one(dataSource: DataSource, sql: string, params: unknown[]): Promise<Scope | null> {
  const rows: Array<{ project_id: number; component_id: number | null; language_id: number | null }> = await dataSource.query(sql, params);
  if (rows.length === 0) return null;
  return { projectId: Number(rows[0].project_id), componentId: rows[0].component_id === null ? null : Number(rows[0].component_id), languageId: rows[0].language_id === null ? null : Number(rows[0].language_id) };
}
