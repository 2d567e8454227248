import type { EntityManager } from 'typeorm';

// Storage of check rows (checks-suggestions-search.md §3.1–§3.2), set-based: one statement per batch for
// deletes, inserts and the units' `has_failing_check` with the translations' failing counters moved by the
// delta. A row that still fails keeps its `dismissed`; a row whose check passes is deleted (a later failure
// starts undismissed again, as in Weblate §3.2).
//
// Lock order (every writer of units, check rows and counters; concurrent rechecks, uploads, edits and imports
// then never deadlock):
//   1. translation units, in id order, before any of their check rows is touched (lockUnits);
//   2. their translations' rows (the failing counters), in id order (refreshFailingFlags);
//   3. source units, in id order (a string's multiple_failures is refreshed after its translations' rows);
//   4. the source translations' rows, in id order.
// Unit rows are locked FOR NO KEY UPDATE, as an UPDATE that keeps the key does: FOR UPDATE would also block
// the foreign-key checks (FOR KEY SHARE) of concurrent inserts of check rows and history for the unit, and a
// transaction holding such a share lock could never upgrade it. Counters are moved in id order because two
// rechecks of one string in two components of a project (`inconsistent`) both move the counters of both
// translations; updated in the order of a sequential scan of `translations` (whose rows move as they are
// updated) they deadlocked under the unit PATCH load (docs/performance.md "Concurrent unit PATCHes").
// Work split into batches takes the locks of every batch's units before the first batch moves a counter: a
// transaction that holds counters never waits for a unit (a PATCH holding that unit waits for the counters).
// Translation units and source units are processed as two groups (steps 1–2, then 3–4), never mixed in one
// lock statement, so source units are never locked before the translation rows.

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
 * `unitsLocked`: the caller holds the units' locks already (lockUnits, in this transaction).
 */
export async function storeCheckResults(
  manager: EntityManager,
  results: readonly CheckResult[],
  keep: readonly string[] = [],
  options: { unitsLocked?: boolean } = {},
): Promise<string[]> {
  const flipped = new Set<string>();
  // Every unit before the first batch's counters (lock order above).
  if (!options.unitsLocked) await lockUnits(manager, results.map((result) => result.unitId));
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
 * `unitsLocked`: the caller holds the units' locks already (lockUnits, in this transaction).
 */
export async function storeNamedCheck(
  manager: EntityManager,
  name: string,
  unitIds: readonly string[],
  failing: ReadonlySet<string>,
  options: { unitsLocked?: boolean } = {},
): Promise<void> {
  // Every unit before the first batch's counters (lock order above).
  if (!options.unitsLocked) await lockUnits(manager, unitIds);
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
 * Locks these units, translation units then source units, each in id order (steps 1 and 3 of the lock order), so that transactions storing checks of the same
 * units apply one after the other: no two of them hold some of each other's check rows, and what a caller
 * reads after locking (targets, siblings' targets) stays as read until it commits.
 */
export async function lockUnits(manager: EntityManager, unitIds: readonly string[]): Promise<void> {
  if (unitIds.length === 0) return;
  await manager.query(
    `SELECT u.id FROM units u JOIN translations t ON t.id = u.translation_id
      WHERE u.id = ANY($1::bigint[]) ORDER BY t.is_source, u.id FOR NO KEY UPDATE OF u`,
    [unitIds],
  );
}

/**
 * `has_failing_check` of these units from their rows, and the translations' failing counters by the delta.
 * The units are locked (in id order) as they are read, so two concurrent refreshes of a unit never both
 * count its change; then the translations' rows, source translation last, each in id order (`locked`: an UPDATE moves rows in the order
 * of its plan, and a row is only moved after `locked` has locked it and every lower id). Resolves with the source units of the translation units whose flag changed.
 */
export async function refreshFailingFlags(manager: EntityManager, unitIds: readonly string[]): Promise<string[]> {
  const rows: Array<{ source_unit_id: string }> = await manager.query(
    `WITH current AS (
       SELECT u.id, u.translation_id, u.source_unit_id, u.num_words, u.has_failing_check AS old,
              EXISTS (SELECT 1 FROM checks c WHERE c.unit_id = u.id AND NOT c.dismissed) AS now
         FROM units u WHERE u.id = ANY($1::bigint[])
        ORDER BY u.id
          FOR NO KEY UPDATE OF u
     ), changed AS (
       UPDATE units u SET has_failing_check = current.now FROM current
        WHERE u.id = current.id AND current.old <> current.now
       RETURNING current.id, current.source_unit_id, current.translation_id, current.num_words, current.now
     ), delta AS (
       SELECT translation_id, sum(CASE WHEN now THEN 1 ELSE -1 END) AS units, sum(CASE WHEN now THEN num_words ELSE -num_words END) AS words
         FROM changed GROUP BY translation_id
     ), locked AS (
       SELECT t.id FROM translations t WHERE t.id IN (SELECT translation_id FROM delta) ORDER BY t.is_source, t.id FOR NO KEY UPDATE
     ), counted AS (
       UPDATE translations t SET failing_checks = t.failing_checks + delta.units, failing_checks_words = t.failing_checks_words + delta.words
         FROM delta JOIN locked ON locked.id = delta.translation_id WHERE t.id = delta.translation_id
     )
     SELECT DISTINCT source_unit_id FROM changed WHERE source_unit_id IS NOT NULL AND source_unit_id <> id`,
    [unitIds],
  );
  return rows.map((row) => String(row.source_unit_id));
}
