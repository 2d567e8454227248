import type { EntityManager } from 'typeorm';
import { refreshTranslationStatistics } from '../../sync/translation-statistics';
import { recheckUnits } from '../../sync/unit-checks';
import { ACTION_NEW_UNIT } from '../changes/change-actions';
import { recordChanges } from '../changes/change-recorder';

/** One unit a POST `.../units/` created, in one of the component's translations. */
export interface CreatedUnit {
  /** bigint ids come back from pg as text. */
  id: string;
  translation_id: number;
  language_id: number;
  target: string;
}

/**
 * The history and statistics of units added through the API: a "New string" change (Weblate's action for
 * unit additions) per created unit, authored by the caller, then the counters of every translation touched.
 */
export async function recordNewUnits(
  manager: EntityManager,
  component: { id: number; projectId: number },
  created: readonly CreatedUnit[],
  userId: number,
): Promise<void> {
  await recordChanges(
    manager,
    created.map((unit) => ({
      action: ACTION_NEW_UNIT,
      projectId: component.projectId,
      componentId: component.id,
      translationId: unit.translation_id,
      languageId: unit.language_id,
      unitId: unit.id,
      userId,
      authorId: userId,
      target: unit.target,
    })),
  );
  // Checks of the new strings (a translated bilingual addition can fail some), before the counters.
  await recheckUnits(manager, created.map((unit) => unit.id));
  await refreshTranslationStatistics(manager, created.map((unit) => unit.translation_id), { authorId: userId });
}
