import type { EntityManager } from 'typeorm';
import { permissionDenied } from '../../common/http/api-errors';
import { PLURAL_SEPARATOR } from '../../common/text/word-count';
import { refreshTranslationStatistics } from '../../sync/translation-statistics';
import { loadCheckContexts, lockUnitsForRecheck, prepareTranslation, recheckUnits, translationDetails } from '../../sync/unit-checks';
import { ACTION_ACCEPT, ACTION_COMPLETE, ACTION_SUGGESTION } from '../changes/change-actions';
import { recordChanges } from '../changes/change-recorder';

// The writes behind suggestions, as plain functions over the caller's transaction (like change-recorder.ts),
// shared by the API (suggestions.service.ts) and uploads with method=suggest (suggestion-upload.service.ts).
// Each keeps units.has_suggestion and the translation's `have_suggestion` counter exact in the same
// transaction (checks-suggestions-search.md §5.7, §8.1: a unit has a suggestion when at least one exists).

/** What the suggestion rules need about a unit, its translation, component and project (one joined query). */
export interface SuggestionUnit {
  id: string;
  translation_id: number;
  source: string;
  target: string;
  state: number;
  context: string;
  is_source: boolean;
  language_id: number;
  component_id: number;
  project_id: number;
  expected_forms: number;
  enable_suggestions: boolean;
  suggestion_voting: boolean;
  suggestion_autoaccept: number;
  locked: boolean;
  translation_review: boolean;
}

export const SUGGESTION_UNIT_SELECT = `
  SELECT u.id, u.translation_id, u.source, u.target, u.state, u.context, t.is_source, t.language_id, t.component_id,
         c.project_id,
         CASE WHEN strpos(u.source, '${PLURAL_SEPARATOR}') > 0 THEN COALESCE(t.plural_number, l.plural_number) ELSE 1 END AS expected_forms,
         c.enable_suggestions, c.suggestion_voting, c.suggestion_autoaccept, c.locked, p.translation_review
    FROM units u
    JOIN translations t ON t.id = u.translation_id
    JOIN components c ON c.id = t.component_id
    JOIN projects p ON p.id = c.project_id
    JOIN languages l ON l.id = t.language_id`;

/**
 * Weblate's limit on a translation's length (Unit.get_max_length with LIMIT_TRANSLATION_LENGTH_BY_SOURCE_LENGTH,
 * on by default): ten times the source, at least 100 characters. It also bounds what a client may store.
 */
export function maxTargetLength(source: string): number {
  return Math.max(100, [...source.split(PLURAL_SEPARATOR)[0]].length * 10);
}

export interface NewSuggestion {
  unitId: string;
  target: string;
  source: string;
  context: string;
}

/** Where the suggestions of one translation belong, for their change records. */
export interface SuggestionScope {
  projectId: number;
  componentId: number;
  translationId: number;
  languageId: number;
}

/**
 * Stores suggestions by `userId` on units of one translation with one insert, records 4 "Suggestion added" for
 * each (the change NewSuggestionNotificaton fires on, integration.md §4.2), and marks the units. Answers the
 * new ids in the order given.
 */
export async function insertSuggestions(manager: EntityManager, userId: number, scope: SuggestionScope, items: readonly NewSuggestion[]): Promise<number[]> {
  if (items.length === 0) return [];
  const rows: Array<{ id: number }> = await manager.query(
    `INSERT INTO suggestions (unit_id, target, user_id)
     SELECT r.unit_id, r.target, $3::int FROM unnest($1::bigint[], $2::text[]) WITH ORDINALITY AS r(unit_id, target, ord)
      ORDER BY r.ord
     RETURNING id`,
    [items.map((item) => item.unitId), items.map((item) => item.target), userId],
  );
  await recordChanges(
    manager,
    items.map((item) => ({
      ...scope,
      action: ACTION_SUGGESTION,
      unitId: item.unitId,
      userId,
      authorId: userId,
      target: item.target,
      details: { source: item.source, context: item.context },
    })),
  );
  await refreshSuggestionFlags(manager, items.map((item) => item.unitId), [scope.translationId]);
  return rows.map((row) => Number(row.id));
}

/** Recomputes has_suggestion of `unitIds` and the statistics of their translations. */
export async function refreshSuggestionFlags(manager: EntityManager, unitIds: readonly string[], translationIds: readonly number[]): Promise<void> {
  await manager.query(
    `UPDATE units u SET has_suggestion = EXISTS (SELECT 1 FROM suggestions s WHERE s.unit_id = u.id)
      WHERE u.id = ANY($1::bigint[])`,
    [unitIds],
  );
  await refreshTranslationStatistics(manager, translationIds);
}

/**
 * Takes the locks a transaction that may accept suggestions on these units needs, before anything else: the
 * units and their siblings, then their translation rows (steps 1 and 2 of check-rows.ts), which the
 * acceptance's recheck and statistics then find held.
 */
export async function lockSuggestionUnits(manager: EntityManager, unitIds: readonly string[]): Promise<void> {
  await lockUnitsForRecheck(manager, unitIds);
}

/** Adds `userId`'s vote (replacing an earlier one) and answers the suggestion's new sum. */
export async function castVote(manager: EntityManager, suggestionId: number, userId: number, value: number): Promise<number> {
  await manager.query(
    `INSERT INTO suggestion_votes (suggestion_id, user_id, value) VALUES ($1, $2, $3)
     ON CONFLICT (suggestion_id, user_id) DO UPDATE SET value = EXCLUDED.value`,
    [suggestionId, userId, value],
  );
  const [{ votes }]: Array<{ votes: number }> = await manager.query('SELECT COALESCE(sum(value), 0)::int AS votes FROM suggestion_votes WHERE suggestion_id = $1', [suggestionId]);
  return votes;
}

export interface AcceptedSuggestion {
  id: number;
  target: string;
  userId: number | null;
}

/**
 * Accepting (§5.3): the unit is translated with the suggestion's text in `state` as a normal save (automatic
 * fixes and enforced checks applied, stored pending for write-back, its checks rerun), 7 "Suggestion accepted" is recorded crediting the suggestion's
 * author (the acceptor when no author is stored), and the suggestion goes. When the unit already holds
 * exactly that text in a translated-or-better state nothing is translated and the suggestion is only
 * removed. Other suggestions on the unit stay. The caller holds lockSuggestionUnits on the unit, taken before
 * anything else in its transaction, so a concurrent edit applies before or after, never in between, and the
 * recheck takes no unit lock after a translation row (check-rows.ts lock order).
 */
export async function acceptSuggestion(manager: EntityManager, unit: SuggestionUnit, suggestion: AcceptedSuggestion, actorId: number, state: number): Promise<void> {
  const [current]: Array<{ target: string; state: number }> = await manager.query('SELECT target, state FROM units WHERE id = $1', [unit.id]);
  // The callers checked the unit before; a file scan may have made it read-only since (the rule at the moment of writing).
  if (current.state === 100) throw permissionDenied('The string is read-only.');
  const authorId = suggestion.userId ?? actorId;
  if (!(current.target === suggestion.target && current.state >= 20)) {
    // A normal translation save (§5.3): automatic fixes, then a failing enforced check lowers the state (§3.4, §4.3).
    const context = (await loadCheckContexts(manager, [unit.id])).get(String(unit.id))!;
    const prepared = prepareTranslation(context, suggestion.target.split(PLURAL_SEPARATOR), state);
    const text = prepared.target.join(PLURAL_SEPARATOR);
    const [before]: Array<{ translated: number; total: number }> = await manager.query('SELECT translated, total FROM translations WHERE id = $1', [unit.translation_id]);
    await manager.query('UPDATE units SET target = $2, state = $3, pending = true WHERE id = $1', [unit.id, text, prepared.state]);
    const scope = { projectId: unit.project_id, componentId: unit.component_id, translationId: unit.translation_id, languageId: unit.language_id };
    await recordChanges(manager, [
      {
        ...scope,
        action: ACTION_ACCEPT,
        unitId: unit.id,
        userId: actorId,
        authorId,
        target: text,
        old: current.target,
        details: { state: prepared.state, old_state: current.state, source: unit.source, context: unit.context, ...translationDetails(prepared) },
      },
    ]);
    await manager.query('DELETE FROM suggestions WHERE id = $1', [suggestion.id]);
    await manager.query('UPDATE units u SET has_suggestion = EXISTS (SELECT 1 FROM suggestions s WHERE s.unit_id = u.id) WHERE u.id = $1', [unit.id]);
    // The new text's checks, and its siblings' (`inconsistent`), as any translation save reruns them.
    await recheckUnits(manager, [unit.id]);
    await refreshTranslationStatistics(manager, [unit.translation_id], { authorId });
    // 1 "Translation completed" when this acceptance completed the translation, as a translation edit records it.
    const [after]: Array<{ translated: number; total: number }> = await manager.query('SELECT translated, total FROM translations WHERE id = $1', [unit.translation_id]);
    if (after.translated === after.total && before.translated < before.total) {
      await recordChanges(manager, [{ ...scope, action: ACTION_COMPLETE, unitId: null, userId: actorId, authorId, target: '' }]);
    }
    return;
  }
  await manager.query('DELETE FROM suggestions WHERE id = $1', [suggestion.id]);
  await refreshSuggestionFlags(manager, [unit.id], [unit.translation_id]);
}
