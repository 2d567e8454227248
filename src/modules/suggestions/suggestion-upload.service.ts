import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { ApiValidationError } from '../../common/http/api-errors';
import { UnitMatcher, type UploadEntry } from '../translations/upload-matching';
import {
  acceptSuggestion,
  castVote,
  insertSuggestions,
  lockSuggestionUnits,
  SUGGESTION_UNIT_SELECT,
  type NewSuggestion,
  type SuggestionUnit,
} from './suggestion-store';

/** The upload's translation, as the upload code knows it (translation-lookup.service.ts). */
export interface SuggestUploadTarget {
  id: number;
  languageId: number;
  component: { id: number; projectId: number };
}

/** The six counts of an upload answer (weblate-api.md §10.8). */
export interface SuggestUploadResult {
  not_found: number;
  skipped: number;
  accepted: number;
  total: number;
  result: boolean;
  count: number;
}

interface MatchedUnit {
  id: string;
  context: string;
  source: string;
  target: string;
  state: number;
}

/**
 * Upload with `method=suggest` (checks-suggestions-search.md §5.6): every entry of the file that finds its unit
 * and brings a non-empty text other than the unit's current one, on a unit that is not read-only, becomes a
 * suggestion by the uploader (accepted); an identical suggestion already there is not repeated (skipped), but
 * gets the uploader's +1 when voting is on and it is someone else's, as adding it through the API would. The
 * units themselves are not changed, unless a vote brings a suggestion to the component's
 * `suggestion_autoaccept`: then it is accepted as a vote through the API accepts it (§5.5), crediting its
 * author. Runs in the upload's transaction; the suggestions are inserted with one statement.
 */
@Injectable()
export class SuggestionUploadService {
  async addFromUpload(
    manager: EntityManager,
    caller: { id: number; mayVote: boolean },
    translation: SuggestUploadTarget,
    uploaded: readonly UploadEntry[],
    monolingual: boolean,
    /** Entries in the file: Weblate's `total` counts them all, though only translated ones are suggested. */
    total: number,
  ): Promise<SuggestUploadResult> {
    const [settings]: Array<{ enable_suggestions: boolean; suggestion_voting: boolean; suggestion_autoaccept: number }> = await manager.query(
      'SELECT enable_suggestions, suggestion_voting, suggestion_autoaccept FROM components WHERE id = $1',
      [translation.component.id],
    );
    // Weblate's suggestion.add is refused on the translation when suggestions are off: the method is then unavailable.
    if (!settings.enable_suggestions) throw new ApiValidationError({ method: ['This method is not available here.'] });
    const mayVote = settings.suggestion_voting && caller.mayVote;
    const units: MatchedUnit[] = await manager.query('SELECT id, context, source, target, state FROM units WHERE translation_id = $1 ORDER BY position, id', [translation.id]);
    const existing: Array<{ id: number; unit_id: string; target: string; user_id: number | null }> = await manager.query(
      'SELECT s.id, s.unit_id, s.target, s.user_id FROM suggestions s JOIN units u ON u.id = s.unit_id WHERE u.translation_id = $1 ORDER BY s.id',
      [translation.id],
    );
    const known = new Map<string, { id: number; userId: number | null }>();
    for (const row of existing) if (!known.has(`${row.unit_id}\u0000${row.target}`)) known.set(`${row.unit_id}\u0000${row.target}`, { id: row.id, userId: row.user_id });
    const matcher = new UnitMatcher(units, monolingual);
    const created: NewSuggestion[] = [];
    const votes: number[] = [];
    let notFound = 0;
    let skipped = 0;
    for (const entry of uploaded) {
      const unit = matcher.find(entry);
      if (!unit) {
        notFound += 1;
        continue;
      }
      const key = `${unit.id}\u0000${entry.target}`;
      const same = known.get(key);
      if (entry.target === '' || entry.target === unit.target || unit.state === 100 || same !== undefined) {
        if (same !== undefined && mayVote && same.userId !== caller.id && entry.target !== unit.target) votes.push(same.id);
        skipped += 1;
        continue;
      }
      known.set(key, { id: 0, userId: caller.id });
      created.push({ unitId: unit.id, target: entry.target, source: unit.source, context: unit.context });
    }
    const autoaccept = mayVote && settings.suggestion_autoaccept > 0;
    if (autoaccept) {
      // Every unit whose suggestion this upload votes for may be accepted: their locks (with siblings and
      // translation rows) come before any write, as the acceptance's recheck needs (check-rows.ts lock order).
      const votedUnits = existing.filter((row) => votes.includes(row.id)).map((row) => String(row.unit_id));
      await lockSuggestionUnits(manager, [...created.map((item) => item.unitId), ...votedUnits]);
    }
    const scope = { projectId: translation.component.projectId, componentId: translation.component.id, translationId: translation.id, languageId: translation.languageId };
    const ids = await insertSuggestions(manager, caller.id, scope, created);
    for (const id of [...new Set(votes)]) await castVote(manager, id, caller.id, 1);
    if (mayVote && ids.length > 0) {
      await manager.query(
        `INSERT INTO suggestion_votes (suggestion_id, user_id, value) SELECT id, $2, 1 FROM unnest($1::int[]) AS ids(id) ON CONFLICT DO NOTHING`,
        [ids, caller.id],
      );
    }
    if (autoaccept) await this.acceptReached(manager, [...ids, ...votes], settings.suggestion_autoaccept, caller.id);
    return { not_found: notFound, skipped, accepted: created.length, total, result: created.length > 0, count: total };
  }

  /** Accepts the suggestions among `ids` whose votes reach the threshold, one per unit, as SuggestionsService.applyVote does. */
  private async acceptReached(manager: EntityManager, ids: readonly number[], threshold: number, actorId: number): Promise<void> {
    const reached: Array<{ id: number; target: string; user_id: number | null; unit_id: string }> = await manager.query(
      `SELECT DISTINCT ON (s.unit_id) s.id, s.target, s.user_id, s.unit_id FROM suggestions s
        WHERE s.id = ANY($1::int[]) AND (SELECT COALESCE(sum(v.value), 0) FROM suggestion_votes v WHERE v.suggestion_id = s.id) >= $2
        ORDER BY s.unit_id, s.id`,
      [ids, threshold],
    );
    for (const row of reached) {
      const [unit]: SuggestionUnit[] = await manager.query(`${SUGGESTION_UNIT_SELECT} WHERE u.id = $1`, [row.unit_id]);
      if (unit.state === 100 || unit.locked) continue;
      await acceptSuggestion(manager, unit, { id: row.id, target: row.target, userId: row.user_id }, actorId, unit.state === 30 ? 30 : 20);
    }
  }
}
