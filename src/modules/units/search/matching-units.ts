// The FROM clauses of unit searches (units-read.service.ts): which units of a scope a compiled search matches,
// as a relation named `u`.

import { OWN_TEXT_IDS_CAP, type OwnTextUnion } from './search-fields';

/** `alias.column, …` for `columns`. */
export const columnsOf = (alias: string, columns: readonly string[]): string => columns.map((column) => `${alias}.${column}`).join(', ');

/** The units in `scope` matching `condition` (over `u`; null: every unit of the scope), as what follows FROM, named `u`. */
export function matchingUnits(condition: string | null, scope: string): string {
  return condition === null ? `units u WHERE ${scope}` : `units u WHERE (${condition}) AND ${scope}`;
}

/**
 * The units in `scope` matching a query that is one `source:`/`context:` term (OwnTextUnion), as what follows
 * FROM, named `u`, with the `order` columns and `translation_id`. The units holding their own matching text are
 * read once, through the partial trigram index, into a MATERIALIZED CTE; the units taking their text from those
 * are an index-only scan of IDX_units_linked_to_source for the CTE's ids (issue 13: `source:"word"` over
 * 300,000 units finds 500 of the first and 2,500 of the second). This used to be two statements, a lookup of
 * the ids and the page reading the own-text units again; one statement costs PostgreSQL about 0.6 ms less and
 * Node a round trip (docs/performance.md "Indexed search, session 12"). When more than OWN_TEXT_IDS_CAP units
 * hold the text, the CTE is incomplete: the first two branches are then skipped (a one-time filter on the
 * CTE's count) and the third reads the term's semi-join instead. The scope is applied once to the union
 * (OFFSET 0 keeps the planner from copying it into each branch, which planned an anonymous caller's visibility
 * rules three times).
 */
export function ownTextUnionFrom(union: OwnTextUnion, scope: string, order: readonly string[]): string {
  const columns = `${columnsOf('u', order)}, u.translation_id`;
  const kept = [...new Set([...order, 'id', 'translation_id'])];
  const complete = `(SELECT count(*) FROM own_text) <= ${OWN_TEXT_IDS_CAP}`;
  return `(WITH own_text AS MATERIALIZED (
             SELECT ${columnsOf('sx', kept)} FROM units sx WHERE ${union.own} LIMIT ${OWN_TEXT_IDS_CAP + 1}
           )
           SELECT ${columns} FROM own_text u WHERE ${complete}
           UNION ALL SELECT ${columns} FROM units u WHERE ${complete} AND ${union.linked('ARRAY(SELECT own_text.id FROM own_text)')}
           UNION ALL SELECT ${columns} FROM units u WHERE NOT ${complete} AND ${union.whole}
           OFFSET 0) u WHERE ${scope}`;
}
