import type { EntityManager } from 'typeorm';

// The statistics columns of translations, recomputed from their units with one aggregate statement
// (weblate-api.md §11.1), for every translation touched. Call it in the transaction that changed the
// units — after a file scan or an edit through the API — so readers never see counts that disagree with
// the units (architecture.md: statistics are maintained as data changes, never recomputed per request).
//
// translated counts state >= 20 (translated, approved and read-only); fuzzy counts states 10–12; `_words`
// sums num_words and `_chars` sums the source length (num_chars). A content change (an edit by a user, not
// a file scan) also moves last_change and last_author.

/**
 * The unit conditions whose units a translation's statistics count, with the column holding the count: the
 * FILTERs of refreshTranslationStatistics below, and the deltas every write path applies in its transaction.
 * A unit search whose whole condition is one of them (`state:<translated`, `has:check`, …) takes its exact
 * count from these columns instead of counting the matching units (units-read.service.ts; issue 13: an
 * indexed search answers p99 ≤ 100 ms over 300,000 units, and counting 50,000 index entries per request
 * was about half of the database's part). The spec checks that each entry is the refresh statement's own.
 */
export const COUNTED_UNIT_CONDITIONS: ReadonlyArray<{ condition: string; column: string }> = [
  { condition: 'u.state >= 20', column: 'translated' },
  { condition: 'u.state BETWEEN 10 AND 12', column: 'fuzzy' },
  { condition: 'u.state = 30', column: 'approved' },
  { condition: 'u.state = 100', column: 'readonly' },
  { condition: 'u.has_failing_check', column: 'failing_checks' },
  { condition: 'u.has_suggestion', column: 'have_suggestion' },
  { condition: 'u.has_comment', column: 'have_comment' },
];

/**
 * An expression over the translations row `t` that is the exact number of its units satisfying `condition`
 * (a condition over `u`, as the search compiler writes it), or null when the statistics do not count it.
 * `u.state < 20` (untranslated: empty or needing editing) is every unit but the translated ones.
 */
export function storedUnitCount(condition: string, t: string): string | null {
  if (condition === 'u.state < 20') return `(${t}.total - ${t}.translated)`;
  const counted = COUNTED_UNIT_CONDITIONS.find((entry) => entry.condition === condition);
  return counted === undefined ? null : `${t}.${counted.column}`;
}

export interface ContentChange {
  /** The author of the content change: becomes last_author, and last_change becomes now. */
  authorId: number;
}

export async function refreshTranslationStatistics(
  manager: EntityManager,
  translationIds: readonly number[],
  contentChange?: ContentChange,
): Promise<void> {
  if (translationIds.length === 0) return;
  await manager.query(
    `UPDATE translations t SET
        total = s.total, total_words = s.total_words, total_chars = s.total_chars,
        translated = s.translated, translated_words = s.translated_words, translated_chars = s.translated_chars,
        fuzzy = s.fuzzy, fuzzy_words = s.fuzzy_words, fuzzy_chars = s.fuzzy_chars,
        approved = s.approved, approved_words = s.approved_words, approved_chars = s.approved_chars,
        readonly = s.readonly, readonly_words = s.readonly_words, readonly_chars = s.readonly_chars,
        failing_checks = s.failing_checks, failing_checks_words = s.failing_checks_words,
        have_suggestion = s.have_suggestion, have_comment = s.have_comment,
        last_change = CASE WHEN $2::int IS NULL THEN t.last_change ELSE clock_timestamp() END,
        last_author_id = COALESCE($2::int, t.last_author_id)
       FROM (
         SELECT ids.id,
                count(u.id) AS total,
                coalesce(sum(u.num_words), 0) AS total_words,
                coalesce(sum(u.num_chars), 0) AS total_chars,
                count(u.id) FILTER (WHERE u.state >= 20) AS translated,
                coalesce(sum(u.num_words) FILTER (WHERE u.state >= 20), 0) AS translated_words,
                coalesce(sum(u.num_chars) FILTER (WHERE u.state >= 20), 0) AS translated_chars,
                count(u.id) FILTER (WHERE u.state BETWEEN 10 AND 12) AS fuzzy,
                coalesce(sum(u.num_words) FILTER (WHERE u.state BETWEEN 10 AND 12), 0) AS fuzzy_words,
                coalesce(sum(u.num_chars) FILTER (WHERE u.state BETWEEN 10 AND 12), 0) AS fuzzy_chars,
                count(u.id) FILTER (WHERE u.state = 30) AS approved,
                coalesce(sum(u.num_words) FILTER (WHERE u.state = 30), 0) AS approved_words,
                coalesce(sum(u.num_chars) FILTER (WHERE u.state = 30), 0) AS approved_chars,
                count(u.id) FILTER (WHERE u.state = 100) AS readonly,
                coalesce(sum(u.num_words) FILTER (WHERE u.state = 100), 0) AS readonly_words,
                coalesce(sum(u.num_chars) FILTER (WHERE u.state = 100), 0) AS readonly_chars,
                count(u.id) FILTER (WHERE u.has_failing_check) AS failing_checks,
                coalesce(sum(u.num_words) FILTER (WHERE u.has_failing_check), 0) AS failing_checks_words,
                count(u.id) FILTER (WHERE u.has_suggestion) AS have_suggestion,
                count(u.id) FILTER (WHERE u.has_comment) AS have_comment
           FROM unnest($1::int[]) AS ids(id)
           LEFT JOIN units u ON u.translation_id = ids.id
          GROUP BY ids.id
       ) s
      WHERE t.id = s.id`,
    [translationIds, contentChange?.authorId ?? null],
  );
}
