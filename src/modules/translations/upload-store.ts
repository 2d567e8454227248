import type { EntityManager } from 'typeorm';
import { refreshTranslationStatistics } from '../../sync/translation-statistics';
import { prepareTranslations, recheckUnits } from '../../sync/unit-checks';
import { ACTION_NEW_CONTRIBUTOR } from '../changes/change-actions';
import { recordChanges, type ChangeRecord } from '../changes/change-recorder';
import type { TranslationRef } from './translation-lookup.service';

// Stores the targets an upload applies (weblate-api.md §10.8): pending (write-back commits them), with 9
// "Translation uploaded" per string authored by the uploader, 45 "New contributor" on a first contribution,
// and the translation's statistics.

export const ACTION_UPLOAD = 9;
const STORE_BATCH = 2000;

export interface StoredUnit {
  id: string;
  context: string;
  target: string;
  state: number;
  source: string;
}

export interface TargetUpdate {
  unit: StoredUnit;
  target: string;
  state: number;
}

export async function storeUploadedTargets(manager: EntityManager, userId: number, translation: TranslationRef, updates: readonly TargetUpdate[]): Promise<void> {
  const scope = {
    projectId: translation.component.projectId,
    componentId: translation.component.id,
    translationId: translation.id,
    languageId: translation.languageId,
    userId,
    authorId: userId,
  };
  const [{ contributed }]: Array<{ contributed: boolean }> = await manager.query(
    'SELECT EXISTS (SELECT 1 FROM changes WHERE translation_id = $1 AND user_id = $2) AS contributed',
    [translation.id, userId],
  );
  if (!contributed) await recordChanges(manager, [{ ...scope, action: ACTION_NEW_CONTRIBUTOR, unitId: null, target: '' }]);
  // In batches, history rows built per batch: a file may bring MAX_UNITS_PER_FILE strings, and each
  // statement's parameters are built and encoded on the main thread; other requests run between the
  // batches (issue 10, item 2). Change ids still follow the file's order.
  for (let start = 0; start < updates.length; start += STORE_BATCH) {
    // Automatic fixes and enforced checks (the translate step, src/sync/unit-checks.ts).
    const slice = updates.slice(start, start + STORE_BATCH);
    const prepared = await prepareTranslations(manager, slice.map((u) => ({ unitId: u.unit.id, target: u.target, state: u.state })));
    const batch = slice.map((u, index) => ({ ...u, target: prepared[index].target, state: prepared[index].state, details: prepared[index].details }));
    await manager.query(
      `UPDATE units u SET target = r.target, state = r.state, pending = true
         FROM unnest($1::bigint[], $2::text[], $3::smallint[]) AS r(id, target, state) WHERE u.id = r.id`,
      [batch.map((u) => u.unit.id), batch.map((u) => u.target), batch.map((u) => u.state)],
    );
    await recordChanges(
      manager,
      batch.map(
        (update): ChangeRecord => ({
          ...scope,
          action: ACTION_UPLOAD,
          unitId: update.unit.id,
          target: update.target,
          old: update.unit.target,
          details: { state: update.state, old_state: update.unit.state, source: update.unit.source, context: update.unit.context, ...update.details },
        }),
      ),
    );
  }
  // Quality checks of the stored strings (checks-suggestions-search.md §3.2).
  await recheckUnits(manager, updates.map((update) => update.unit.id));
  await refreshTranslationStatistics(manager, [translation.id], { authorId: userId });
}
