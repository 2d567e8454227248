import type { EntityManager } from 'typeorm';

// Storage of check rows (checks-suggestions-search.md §3.1–§3.2), set-based: one statement per batch for
// deletes, inserts and the units' `has_failing_check` with the translations' failing counters moved by the
// delta. A row that still fails keeps its `dismissed`; a row whose check passes is deleted (a later failure
// starts undismissed again, as in Weblate §3.2).
//
// Lock order: storing rows locks the units concerned (refreshFailingFlags, FOR UPDATE). Every writer locks
// translation units before source units, each in id order (a source unit's multiple_failures is refreshed
// after its translations' rows), so concurrent rechecks, uploads, edits and imports never deadlock.

export const CHECK_BATCH = 5000;

export interface CheckResult {
  unitId: string;
  names: readonly string[];
}

/**
 * Stores the results: rows no longer failing are deleted (except names in `keep`, checks the caller did not
 * evaluate), new failures are inserted undismissed, existing ones keep `dismissed`; then `has_failing_check`
 * and the translations' `failing_checks`/`failing_checks_words` move by the delta. Resolves with the source
 * units of the translation units whose `has_failing_check` changed (their `multiple_failures` may change).
 */
export async function storeCheckResults(manager: EntityManager, results: readonly CheckResult[], keep: readonly string[] = []): Promise<string[]> {
  const flipped = new Set<string>();
  for (let start = 0; start < results.length; start += CHECK_BATCH) {
    const batch = results.slice(start, start + CHECK_BATCH);
    const ids = batch.map((result) => result.unitId);
    const pairIds: string[] = [];
    const pairNames: string[] = [];
    for (const result of batch) {
      for (const name of result.names) {
        pairIds.push(result.unitId);
        pairNames.push(name);
      }
    }
    await manager.query(
      `DELETE FROM checks c
        USING (SELECT c2.id FROM checks c2
                 LEFT JOIN unnest($2::bigint[], $3::text[]) AS p(unit_id, name) ON p.unit_id = c2.unit_id AND p.name = c2.name
                WHERE c2.unit_id = ANY($1::bigint[]) AND p.unit_id IS NULL AND NOT (c2.name = ANY($4::text[]))) AS gone
        WHERE c.id = gone.id`,
      [ids, pairIds, pairNames, keep],
    );
    if (pairIds.length > 0) {
      await manager.query(
        `INSERT INTO checks (unit_id, name) SELECT p.unit_id, p.name FROM unnest($1::bigint[], $2::text[]) AS p(unit_id, name)
         ON CONFLICT (unit_id, name) DO NOTHING`,
        [pairIds, pairNames],
      );
    }
    for (const id of await refreshFailingFlags(manager, ids)) flipped.add(id);
  }
  return [...flipped];
}

/**
 * Stores the result of one check for a set of units: `failing` (a subset of `unitIds`) get the row, the
 * other units of `unitIds` lose it; the rest of their rows stay. Used by the batch source checks.
 */
export async function storeNamedCheck(manager: EntityManager, name: string, unitIds: readonly string[], failing: ReadonlySet<string>): Promise<void> {
  for (let start = 0; start < unitIds.length; start += CHECK_BATCH) {
    const ids = unitIds.slice(start, start + CHECK_BATCH);
    const failingIds = ids.filter((id) => failing.has(id));
    await manager.query('DELETE FROM checks WHERE name = $1 AND unit_id = ANY($2::bigint[]) AND NOT (unit_id = ANY($3::bigint[]))', [name, ids, failingIds]);
    if (failingIds.length > 0) {
      await manager.query('INSERT INTO checks (unit_id, name) SELECT id, $1 FROM unnest($2::bigint[]) AS f(id) ON CONFLICT (unit_id, name) DO NOTHING', [
        name,
        failingIds,
      ]);
    }
    await refreshFailingFlags(manager, ids);
  }
}

/**
 * `has_failing_check` of these units from their rows, and the translations' failing counters by the delta.
 * The units are locked (in id order) as they are read, so two concurrent refreshes of a unit never both
 * count its change. Resolves with the source units of the translation units whose flag changed.
 */
export async function refreshFailingFlags(manager: EntityManager, unitIds: readonly string[]): Promise<string[]> {
  const rows: Array<{ source_unit_id: string }> = await manager.query(
    `WITH current AS (
       SELECT u.id, u.translation_id, u.source_unit_id, u.num_words, u.has_failing_check AS old,
              EXISTS (SELECT 1 FROM checks c WHERE c.unit_id = u.id AND NOT c.dismissed) AS now
         FROM units u WHERE u.id = ANY($1::bigint[])
        ORDER BY u.id
          FOR UPDATE OF u
     ), changed AS (
       UPDATE units u SET has_failing_check = current.now FROM current
        WHERE u.id = current.id AND current.old <> current.now
       RETURNING current.id, current.source_unit_id, current.translation_id, current.num_words, current.now
     ), delta AS (
       SELECT translation_id, sum(CASE WHEN now THEN 1 ELSE -1 END) AS units, sum(CASE WHEN now THEN num_words ELSE -num_words END) AS words
         FROM changed GROUP BY translation_id
     ), counted AS (
       UPDATE translations t SET failing_checks = t.failing_checks + delta.units, failing_checks_words = t.failing_checks_words + delta.words
         FROM delta WHERE t.id = delta.translation_id
     )
     SELECT DISTINCT source_unit_id FROM changed WHERE source_unit_id IS NOT NULL AND source_unit_id <> id`,
    [unitIds],
  );
  return rows.map((row) => String(row.source_unit_id));
}
