import type { EntityManager } from 'typeorm';
import { effectiveFlags } from '../checks/check-list';
import { CHECK_BATCH, lockUnits, storeNamedCheck } from './check-rows';

// Weblate's batch source checks (checks-suggestions-search.md §1.6, §3.2), stored on source units:
//   multiple_failures — the string's translations have active checks in at least two languages; re-evaluated
//     for a string whenever the failing state of one of its translations changes, and component-wide after
//     an import;
//   long_untranslated — the string was added more than 90 days ago and its translated share across the
//     component's languages is below half of the component's translated share; component-wide passes only
//     (after an import and a recheck of the component), as Weblate's batch mode does.
// Both honour `ignore-<id>` / `ignore-all-checks` in the source unit's effective flags.

/** Days after which a string that stays untranslated is reported (§1.6 long_untranslated). */
const LONG_UNTRANSLATED_DAYS = 90;

interface CandidateRow {
  id: string;
  fails: boolean;
  flags: string;
  extra_flags: string;
  check_flags: string;
  file_format: string;
}

/** The ids of the candidates whose check fails and is not ignored by their flags. */
function failingIds(rows: readonly CandidateRow[], checkId: string): Set<string> {
  const failing = new Set<string>();
  for (const row of rows) {
    if (!row.fails) continue;
    if (effectiveFlags(row.file_format, row.check_flags, row.flags, '', row.extra_flags).ignores(checkId)) continue;
    failing.add(String(row.id));
  }
  return failing;
}

/**
 * Re-evaluates `multiple_failures` of these source units from their translations' `has_failing_check`. The
 * source units are locked first (in id order) and counted by a later statement, so of two concurrent
 * callers the one counting last sees the other's committed change.
 */
export async function refreshMultipleFailures(manager: EntityManager, sourceUnitIds: readonly string[]): Promise<void> {
  const all = [...new Set(sourceUnitIds.map(String))].sort((a, b) => Number(a) - Number(b));
  // Every source unit before the first batch moves the source translations' counters (check-rows.ts).
  await lockUnits(manager, all);
  for (let start = 0; start < all.length; start += CHECK_BATCH) {
    const ids = all.slice(start, start + CHECK_BATCH);
    const rows: CandidateRow[] = await manager.query(
      `SELECT s.id, s.flags, s.extra_flags, c.check_flags, c.file_format,
              (SELECT count(DISTINCT t.language_id) FROM units u JOIN translations t ON t.id = u.translation_id
                WHERE u.source_unit_id = s.id AND u.id <> s.id AND u.has_failing_check) >= 2 AS fails
         FROM units s
         JOIN translations st ON st.id = s.translation_id AND st.is_source
         JOIN components c ON c.id = st.component_id
        WHERE s.id = ANY($1::bigint[])`,
      [ids],
    );
    await storeNamedCheck(manager, 'multiple_failures', rows.map((row) => String(row.id)), failingIds(rows, 'multiple_failures'), { unitsLocked: true });
  }
}

/** The component-wide pass of both batch source checks (after an import or a recheck of the component). */
export async function refreshComponentSourceChecks(manager: EntityManager, componentId: number): Promise<void> {
  // Strings failing now, and strings holding the row (which may have to lose it).
  const candidates: Array<{ id: string }> = await manager.query(
    `SELECT u.source_unit_id AS id FROM units u JOIN translations t ON t.id = u.translation_id
      WHERE t.component_id = $1 AND NOT t.is_source AND u.has_failing_check AND u.source_unit_id IS NOT NULL
      GROUP BY u.source_unit_id HAVING count(DISTINCT t.language_id) >= 2
     UNION
     SELECT ch.unit_id FROM checks ch JOIN units s ON s.id = ch.unit_id JOIN translations st ON st.id = s.translation_id
      WHERE st.component_id = $1 AND ch.name = 'multiple_failures'`,
    [componentId],
  );
  const longUntranslated = await evaluateLongUntranslated(manager, componentId);
  // Both passes' source units are locked before the first moves a source translation's counters (step 3
  // before step 4 of the lock order in check-rows.ts).
  await lockUnits(manager, [...new Set([...candidates.map((row) => String(row.id)), ...longUntranslated.map((row) => String(row.id))])]);
  await refreshMultipleFailures(manager, candidates.map((row) => String(row.id)));
  await storeNamedCheck(manager, 'long_untranslated', longUntranslated.map((row) => String(row.id)), failingIds(longUntranslated, 'long_untranslated'), {
    unitsLocked: true,
  });
}

/** The source units of the component whose `long_untranslated` may change: failing now, or holding the row. */
async function evaluateLongUntranslated(manager: EntityManager, componentId: number): Promise<CandidateRow[]> {
  // share(string) < ½ share(component) ⇔ 2 · translated(string) · total(component) < total(string) · translated(component);
  // translated means state ≥ 20 as in the statistics, so needing editing counts as untranslated.
  const rows: CandidateRow[] = await manager.query(
    `WITH overall AS (
       SELECT count(*) AS total, count(*) FILTER (WHERE u.state >= 20) AS translated
         FROM units u JOIN translations t ON t.id = u.translation_id WHERE t.component_id = $1 AND NOT t.is_source
     ), per_string AS (
       SELECT u.source_unit_id AS id, count(*) AS total, count(*) FILTER (WHERE u.state >= 20) AS translated
         FROM units u JOIN translations t ON t.id = u.translation_id
        WHERE t.component_id = $1 AND NOT t.is_source AND u.source_unit_id IS NOT NULL
        GROUP BY u.source_unit_id
     ), evaluated AS (
       SELECT s.id, s.flags, s.extra_flags, c.check_flags, c.file_format,
              COALESCE(s.timestamp < now() - make_interval(days => $2::int)
                       AND 2 * p.translated * o.total < p.total * o.translated, false) AS fails
         FROM units s
         JOIN translations st ON st.id = s.translation_id AND st.is_source AND st.component_id = $1
         JOIN components c ON c.id = st.component_id
         CROSS JOIN overall o
         LEFT JOIN per_string p ON p.id = s.id
     )
     SELECT e.* FROM evaluated e
      WHERE e.fails OR EXISTS (SELECT 1 FROM checks ch WHERE ch.unit_id = e.id AND ch.name = 'long_untranslated')`,
    [componentId, LONG_UNTRANSLATED_DAYS],
  );
  return rows;
}
