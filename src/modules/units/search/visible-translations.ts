import type { DataSource } from 'typeorm';
import { parameterizedCaller, visibleComponentIdsSql } from '../../../common/auth/access-sql';
import type { ApiCaller } from '../../../common/http/request-context';
import { PreparedStatement } from '../../../database/prepared-statement';

// The visibility filter of a `q=` search over `/api/units/` (issue 10 item 5, access-sql.ts
// translationIdVisibleSql) as an array parameter instead of SQL. Embedded in the search's count and page, the
// visibility subquery (projects, components, teams, their CASE) was planned and run twice per request: about 2 ms
// of the database's CPU per anonymous request against the superuser's same search (docs/performance.md
// "Indexed search p99"). The ids come from one named statement, planned once per connection (its text is fixed:
// the user id is `$1`), and the count and the page filter on `u.translation_id = ANY($n::int[])`, which the
// planner checks inside the partial indexes' INCLUDE columns as before. Both statements see the same ids,
// read a moment earlier; each of them already had a snapshot of its own (READ COMMITTED).

interface VisibleIds {
  ids: number[];
}

const visibleTranslationIdsSql = (caller: ApiCaller | null): string =>
  `SELECT ARRAY(SELECT vt.id FROM translations vt WHERE vt.component_id IN (${visibleComponentIdsSql(caller)}))::int[] AS ids`;

const ANONYMOUS = new PreparedStatement<VisibleIds>(visibleTranslationIdsSql(null));
const SIGNED_IN = new PreparedStatement<VisibleIds>(visibleTranslationIdsSql(parameterizedCaller({ id: 0, username: '', isSuperuser: false }, '$1::int')));

/**
 * The condition on `u.translation_id` that keeps the units `caller` may see, appending its parameter to
 * `params`: TRUE for a superuser (who sees everything), else membership in the visible translations.
 */
export async function visibleTranslationsCondition(db: DataSource, caller: ApiCaller | null, params: unknown[]): Promise<string> {
  if (caller?.isSuperuser) return 'TRUE';
  const [{ ids }] = caller === null ? await ANONYMOUS.run(db, []) : await SIGNED_IN.run(db, [caller.id]);
  params.push(ids);
  return `u.translation_id = ANY($${params.length}::int[])`;
}
