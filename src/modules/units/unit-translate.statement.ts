import { PLURAL_SEPARATOR } from '../../common/text/word-count';
import { PreparedStatement } from '../../database/prepared-statement';
import {
  ACTION_APPROVE,
  ACTION_CHANGE,
  ACTION_COMPLETE,
  ACTION_MARKED_EDIT,
  ACTION_NEW,
  ACTION_NEW_CONTRIBUTOR,
} from '../changes/change-actions';

/** What the translate statement answers: the unit as it is now, and what the edit found and did. */
export interface TranslateResult {
  /** False when the unit no longer exists. */
  found: boolean;
  /** False when the edit was refused by a rule that depends on the unit's state at the moment of writing. */
  allowed: boolean;
  /** True when target or state changed (an identical edit changes and records nothing). */
  changed: boolean;
  target: string;
  state: number;
  explanation: string;
  extra_flags: string;
  /** The unit's own label ids (the write representation's `labels`, weblate-api.md §10.2). */
  labels: number[];
  /** Whether the unit's component is locked (nothing was written then). */
  locked: boolean;
  /** How many plural forms a target of this unit must have. */
  expected_forms: number;
}

/*
 * A translation edit through the API (weblate-api.md §10.2) as one statement, run outside any explicit
 * transaction so that PostgreSQL commits it as it finishes:
 *
 *   1. lock the unit and read its current target and state (concurrent edits of one unit apply one after
 *      the other; each records and counts the state it really replaced);
 *   2. refuse, changing nothing, when the unit is read-only, approved while the caller may not review ($5:
 *      the caller holds unit.review), in a locked component, or when the target has the wrong number of
 *      plural forms ($6) — the rules that depend on the unit, applied to its state at the moment of writing;
 *   3. store the new target and state and mark the unit pending for write-back (nothing happens when both
 *      are unchanged);
 *   4. move the translation's counters by the unit's delta (the rules of refreshTranslationStatistics:
 *      translated = state ≥ 20, fuzzy = 10–12, approved = 30, read-only = 100) and set last_change/author;
 *   5. record the history in id order: 45 "New contributor" on the user's first change in this
 *      translation, the edit (Weblate 4.x Unit.generate_change: needs editing → 37, approving → 36, from
 *      a non-empty state → 2, else 5), and 1 "Translation completed" when this edit completed it.
 *
 * One statement instead of nine round trips matters under load: the translation's row lock (step 4) is
 * held from that update until the commit, and every edit of the translation queues on it. Inside one
 * statement it is released as soon as PostgreSQL has written the commit, instead of after the Node process
 * next gets around to sending COMMIT (docs/performance.md, "Unit PATCH").
 *
 * Parameters: $1 unit id, $2 new target (plural forms joined), $3 new state, $4 user id, $5 may review,
 * $6 the number of plural forms in the target, $7 further details of the edit (a JSON object: the automatic fixes
 * applied and the enforced checks that lowered the state, unit-checks.ts prepareTranslation).
 */
export const TRANSLATE_UNIT = new PreparedStatement<TranslateResult>(`
  WITH current AS (
    SELECT u.id, u.translation_id, u.target, u.state, u.num_words, u.num_chars, u.source, u.context,
           u.explanation, u.extra_flags, t.component_id, t.language_id, c.project_id, c.locked,
           CASE WHEN strpos(u.source, '${PLURAL_SEPARATOR}') > 0 THEN COALESCE(t.plural_number, l.plural_number) ELSE 1 END AS expected_forms
      FROM units u JOIN translations t ON t.id = u.translation_id JOIN components c ON c.id = t.component_id
      JOIN languages l ON l.id = t.language_id
     WHERE u.id = $1
       FOR NO KEY UPDATE OF u
  ), permitted AS (
    SELECT * FROM current
     WHERE current.state <> 100 AND (current.state <> 30 OR $5::boolean) AND NOT current.locked AND current.expected_forms = $6::int
  ), edited AS (
    UPDATE units u SET target = $2::text, state = $3::smallint, pending = true
      FROM permitted p
     WHERE u.id = p.id AND (p.target <> $2::text OR p.state <> $3::smallint)
    RETURNING u.id
  ), delta AS (
    SELECT p.translation_id, p.num_words AS words, p.num_chars AS chars,
           ($3::int >= 20)::int - (p.state >= 20)::int AS translated,
           ($3::int BETWEEN 10 AND 12)::int - (p.state BETWEEN 10 AND 12)::int AS fuzzy,
           ($3::int = 30)::int - (p.state = 30)::int AS approved,
           ($3::int = 100)::int - (p.state = 100)::int AS readonly
      FROM permitted p WHERE EXISTS (SELECT 1 FROM edited)
  ), counters AS (
    UPDATE translations t SET
        translated = t.translated + d.translated, translated_words = t.translated_words + d.translated * d.words,
        translated_chars = t.translated_chars + d.translated * d.chars,
        fuzzy = t.fuzzy + d.fuzzy, fuzzy_words = t.fuzzy_words + d.fuzzy * d.words, fuzzy_chars = t.fuzzy_chars + d.fuzzy * d.chars,
        approved = t.approved + d.approved, approved_words = t.approved_words + d.approved * d.words,
        approved_chars = t.approved_chars + d.approved * d.chars,
        readonly = t.readonly + d.readonly, readonly_words = t.readonly_words + d.readonly * d.words,
        readonly_chars = t.readonly_chars + d.readonly * d.chars,
        last_change = clock_timestamp(), last_author_id = $4::int
      FROM delta d
     WHERE t.id = d.translation_id
    RETURNING t.translated, t.total, d.translated AS translated_delta
  ), history AS (
    INSERT INTO changes (action, project_id, component_id, translation_id, language_id, unit_id, user_id, author_id, target, old, details)
    SELECT r.action, p.project_id, p.component_id, p.translation_id, p.language_id, r.unit_id, $4::int, $4::int, r.target, r.old, r.details
      FROM permitted p
      CROSS JOIN LATERAL (
        SELECT 1 AS ord, ${ACTION_NEW_CONTRIBUTOR}::smallint AS action, p.id AS unit_id, ''::text AS target, ''::text AS old, '{}'::jsonb AS details
         WHERE NOT EXISTS (SELECT 1 FROM changes ch WHERE ch.translation_id = p.translation_id AND ch.user_id = $4::int)
        UNION ALL
        SELECT 2, CASE WHEN $3::int = 10 THEN ${ACTION_MARKED_EDIT} WHEN $3::int = 30 THEN ${ACTION_APPROVE}
                       WHEN p.state >= 10 THEN ${ACTION_CHANGE} ELSE ${ACTION_NEW} END::smallint,
               p.id, $2::text, p.target,
               jsonb_build_object('state', $3::int, 'old_state', p.state, 'source', p.source, 'context', p.context) || $7::jsonb
        UNION ALL
        SELECT 3, ${ACTION_COMPLETE}::smallint, NULL::bigint, '', '', '{}'::jsonb
          FROM counters k WHERE k.translated = k.total AND k.translated - k.translated_delta < k.total
      ) r
     WHERE EXISTS (SELECT 1 FROM edited)
     ORDER BY r.ord
  )
  SELECT EXISTS (SELECT 1 FROM current) AS found,
         EXISTS (SELECT 1 FROM permitted) AS allowed,
         EXISTS (SELECT 1 FROM edited) AS changed,
         CASE WHEN EXISTS (SELECT 1 FROM edited) THEN $2::text ELSE c.target END AS target,
         CASE WHEN EXISTS (SELECT 1 FROM edited) THEN $3::int ELSE c.state END AS state,
         c.explanation, c.extra_flags, c.locked, c.expected_forms,
         ARRAY(SELECT ul.label_id FROM unit_labels ul WHERE ul.unit_id = c.id ORDER BY ul.label_id) AS labels
    FROM (SELECT 1) AS request LEFT JOIN current c ON TRUE`);
