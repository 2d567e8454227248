import { SetMetadata } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { notFound, permissionDenied } from '../http/api-errors';
import type { RequestContext } from '../http/request-context';

/*
 * DRF's order of checks on a write, as one rule (issue 12 item 2; weblate-api.md §2.3):
 *
 *   1. authenticate                                  401  (ApiAuthGuard, scope-access.ts)
 *   2. a site-wide permission (Weblate's perm_check,  403  checked by Weblate's admin viewsets before
 *      e.g. `user.edit`, `group.edit`, `language.edit`)      get_object(), so any id answers 403
 *   3. find the object the path names                 404
 *   4. the caller's permission on that object         403
 *   5. validate the body                              400  (the global validation pipe, or the service)
 *
 * Routes declare steps 2–4 with @CheckOrder; the global guard runs them in this order for every route, and
 * Nest runs pipes (body validation) only after guards, so no handler can validate before it checks. What a
 * service checks afterwards depends on the body (e.g. a non-superuser making someone a superuser), which DRF
 * also checks after validation. Where the permission itself depends on the body, the route declares the
 * rights of which it needs at least one (anyOf), and the service checks the one the body asks for after
 * validating it: a unit write needs unit.edit or source.edit (units.controller.ts), a repository operation one
 * of the vcs.* rights (repository.controller.ts). Weblate validates those bodies first, so a caller without
 * any of the rights gets 403 here where Weblate would answer 400 to an invalid body (issue 12: DRF's order).
 */

/** A permission code of the caller (ctx.can), or a predicate for rules that are not a single code. */
export type PermissionCheck = string | ((ctx: RequestContext, params: Record<string, string>) => boolean);

/** The objects a write route can name, each found by its path parameters. */
export type CheckedObject = 'scope' | 'user' | 'group' | 'role' | 'language' | 'subscription';

export interface CheckOrderRule {
  /** Step 2: a site-wide permission, checked before the lookup (403 for any id). */
  global?: PermissionCheck;
  /** Step 3: the object the path names; 404 when it does not exist (invisible ones are 404 already, step 1). */
  object?: CheckedObject;
  /** Step 4: the permission on the object, after the lookup. */
  permission?: PermissionCheck;
  /** The 403 detail of steps 2 and 4 (DRF's default text without it). */
  message?: string;
}

export const CHECK_ORDER_KEY = 'glossa:checkOrder';

/** Declares a write route's checks; ApiAuthGuard runs them in DRF's order before the body is validated. */
export const CheckOrder = (rule: CheckOrderRule): MethodDecorator => SetMetadata(CHECK_ORDER_KEY, rule);

const DIGITS = /^\d{1,9}$/;

/** Existence queries by path parameter; a malformed id names nothing (404). */
const LOOKUPS: Record<Exclude<CheckedObject, 'scope'>, (params: Record<string, string>) => { sql: string; values: unknown[] } | null> = {
  user: (p) => ({ sql: 'SELECT 1 FROM users WHERE username = $1', values: [p.username] }),
  group: (p) => (DIGITS.test(p.id ?? '') ? { sql: 'SELECT 1 FROM groups WHERE id = $1', values: [Number(p.id)] } : null),
  role: (p) => (DIGITS.test(p.id ?? '') ? { sql: 'SELECT 1 FROM roles WHERE id = $1', values: [Number(p.id)] } : null),
  language: (p) => ({ sql: 'SELECT 1 FROM languages WHERE code = $1', values: [p.code] }),
  subscription: (p) =>
    DIGITS.test(p.id ?? '')
      ? { sql: 'SELECT 1 FROM subscriptions s JOIN users u ON u.id = s.user_id WHERE u.username = $1 AND s.id = $2', values: [p.username, Number(p.id)] }
      : null,
};

function holds(check: PermissionCheck, ctx: RequestContext, params: Record<string, string>): boolean {
  return typeof check === 'string' ? ctx.can(check) : check(ctx, params);
}

/**
 * Steps 2–4 for one request. `scope` objects (project, component, translation, unit) were resolved by the
 * request's access statement (scope-access.ts), which also answered 404 for invisible ones; others are
 * looked up here. A user's notification routes also need the user, so `subscription` checks both.
 */
export async function enforceCheckOrder(dataSource: DataSource, ctx: RequestContext, params: Record<string, string>, rule: CheckOrderRule): Promise<void> {
  if (rule.global !== undefined && !holds(rule.global, ctx, params)) throw permissionDenied(rule.message);
  if (rule.object === 'scope') {
    if (!ctx.scopeFound) throw notFound();
  } else if (rule.object !== undefined) {
    const objects: Array<Exclude<CheckedObject, 'scope'>> = rule.object === 'subscription' ? ['user', 'subscription'] : [rule.object];
    for (const object of objects) {
      const lookup = LOOKUPS[object](params);
      if (lookup === null || (await dataSource.query(lookup.sql, lookup.values)).length === 0) throw notFound();
    }
  }
  if (rule.permission !== undefined && !holds(rule.permission, ctx, params)) throw permissionDenied(rule.message);
}

/** Holds when the caller has any of the permission codes on the path's object (e.g. a unit write: translate or edit source). */
export const anyOf =
  (...codes: string[]): PermissionCheck =>
  (ctx) =>
    codes.some((code) => ctx.can(code));

/** The owner of `/api/users/<username>/…` or a superuser (notification subscriptions, weblate-api.md §5.2). */
export const isUserOrSuperuser = (ctx: RequestContext, params: Record<string, string>): boolean =>
  ctx.isSuperuser || (ctx.caller !== null && ctx.caller.username === params.username);
