import { SetMetadata } from '@nestjs/common';
import type { LinkBuilder } from '../links/link-builder';

/*
 * A detail read answered by the access statement itself (docs/performance.md, "Read floor"). Every request
 * whose path names an object runs one statement in the auth guard (access-statement.ts: the token's caller, the
 * object, its visibility and the caller's rights); a detail route then ran a second statement for the body,
 * and on this stack each statement costs a socket round trip that wakes a PostgreSQL backend — more than
 * PostgreSQL spends answering it. A GET route may therefore declare the SELECT that reads its body; the guard
 * adds it to its statement as one more column (`to_json` of the row), with the same path parameters as the
 * object lookup, and hands the row to the handler only after every check of the guard passed (401, 404 for a
 * hidden object), exactly as before. The rules are unchanged: the same statement decides, the body is read in
 * the same snapshot, and a refused request never sees the body.
 */

/** The body's SELECT for a route whose path names an object of `kind`, with the path's parameters from `$first`. */
export interface DetailRead {
  /** Which object lookup of access-statement.ts the path uses (and whose parameters the SELECT takes). */
  kind: 'project' | 'component' | 'translation' | 'unit' | 'change';
  /**
   * A SELECT of at most one row; its parameters are `$first`, `$first + 1`, … in the path's order. The row
   * reaches the handler through `to_json`, so columns whose JSON differs from what pg would answer (bigint,
   * timestamptz) must be selected as `::text`. Parameters taken from the query string (`queryParams`) follow
   * the path's.
   */
  sql(first: number): string;
  /**
   * For a read that also depends on the query string (a units page's position range): its parameters, from
   * the request's parsed query, or null when this request is not one the SELECT answers (a search, an
   * unusual page); the handler then reads it its own way, after the guard's usual statement. It must not
   * throw: the guard's rules (401 for a bad token, 404 for a hidden object) come before any answer about
   * the query, so a query the route would refuse is left to the handler. `links`: the response's link
   * builder, for a SELECT that writes the body's links itself (unit.response.ts unitLinkParams).
   */
  queryParams?(query: Record<string, unknown>, links: LinkBuilder): unknown[] | null;
  /**
   * A text column of the SELECT that reaches the handler as it is, in the row under the same name: a JSON text
   * the body is written from (a page of units, unit.response.ts), which `to_json` would turn into a JSON string,
   * escaping each of its quotes for the handler to unescape again.
   */
  rawColumn?: string;
  /**
   * Whether the SELECT's row also names the object the path names, in the columns the kind's lookup answers
   * (`project_id`, `component_id`, `language_id`; access-statement.ts SCOPE_LOOKUPS). The guard's statement then
   * takes the object from this row instead of a lookup of its own, which read the same rows again (a unit's
   * translation and component: docs/performance.md, "The unit detail against its floor, session 20"). Only
   * with a `rawColumn`; the handler then receives the raw column alone. With a `version` as well, the `version`
   * SELECT names the object the same way, and the body's SELECT has the version as its column `v` too, written
   * from the same rows, so that either statement finds the object once.
   */
  selectsScope?: boolean;
  /**
   * A SELECT of one text column `v` over the path's parameters (and the query's, with `versionReadsQuery`)
   * naming the versions of every row the body is built from: the `xmin` of each, and what the body takes from
   * other rows that is not a column of a row named here (an add-on's id, a count). With it, the 200 answer is kept
   * in this process (response-memo.ts); while it is kept, the guard's statement reads this version alone, without
   * the body (access-statement.ts AccessStatementMode), and the kept answer is sent when it is unchanged. It
   * must name everything the body reads, or a changed body is missed.
   */
  version?(first: number): string;
  /** Whether `version` takes the query-string parameters after the path's (a page's size and offset). */
  versionReadsQuery?: boolean;
}

/**
 * The `v` column of a DetailRead.version: the database server's start (a different server behind the same
 * URL never matches, response-memo.ts) and then each part in its place, NULL as nothing.
 */
export const versionColumn = (...parts: string[]): string => `concat(pg_postmaster_start_time(), ${parts.map((part) => `'/', ${part}`).join(', ')}) AS v`;

export const DETAIL_READ_KEY = 'glossa:detailRead';

/** On a GET handler: the guard reads the body with its access statement (ctx.prefetched). */
export const ReadWithAccess = (read: DetailRead): MethodDecorator => SetMetadata(DETAIL_READ_KEY, read);
