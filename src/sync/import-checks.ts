import type { EntityManager } from 'typeorm';
import { runChecks } from '../checks/engine';
import type { Flags } from '../checks/flags';
import { BATCH_SOURCE_CHECKS, runSourceChecks } from '../checks/source-checks';
import { PLURAL_SEPARATOR } from '../common/text/word-count';
import { storeCheckResults } from './check-rows';
import { mergedFlags, sourceTextOf, type TranslationCheckSettings } from './unit-checks';

// The checks step of a file import (component-scanner.ts): the units the scan inserted or changed are
// checked from the values just written, in the scan's transaction of their translation.

/** A unit as an import stores it (inserts have no id yet). */
export interface ImportedUnit {
  id?: string;
  idHash: string;
  context: string;
  source: string;
  target: string;
  state: number;
  flags: string;
}

/**
 * Checks of the units a file import inserted or changed, computed from the values just written (no re-read)
 * in the import's transaction (§3.2: only changed units are rechecked); source checks for the source
 * translation (`settings.isSource`). `inconsistent` and the batch source checks are left to the deferred
 * passes (recheckUnits over unitsWithSiblings, refreshComponentSourceChecks), as Weblate's batch mode does.
 */
export async function checkImportedUnits(
  manager: EntityManager,
  translationId: number,
  sourceTranslationId: number | null,
  settings: TranslationCheckSettings,
  units: readonly ImportedUnit[],
): Promise<void> {
  if (units.length === 0) return;
  const sourceExtra = new Map<string, string>();
  if (sourceTranslationId !== null) {
    const rows: Array<{ id_hash: string; extra_flags: string }> = await manager.query(
      "SELECT id_hash, extra_flags FROM units WHERE translation_id = $1 AND extra_flags <> ''",
      [sourceTranslationId],
    );
    for (const row of rows) sourceExtra.set(row.id_hash, row.extra_flags);
  }
  // Most units share their flags: merge each distinct combination once.
  const flagCache = new Map<string, Flags>();
  const results: Array<{ unitId?: string; idHash: string; names: string[] }> = [];
  for (let start = 0; start < units.length; start += 2000) {
    if (start > 0) await new Promise((resolve) => setImmediate(resolve));
    for (const unit of units.slice(start, start + 2000)) {
      const extra = sourceExtra.get(unit.idHash) ?? '';
      const key = `${unit.flags}\u0000${extra}`;
      let flags = flagCache.get(key);
      if (flags === undefined) {
        flags = mergedFlags(settings, unit.flags, extra, '');
        flagCache.set(key, flags);
      }
      const source = unit.source.split(PLURAL_SEPARATOR);
      const names = settings.isSource
        ? runSourceChecks({ source: sourceTextOf(unit.source, unit.target), flags, sourceLanguage: settings.sourceLanguageCode, context: unit.context })
        : runChecks({
            source,
            target: unit.target.split(PLURAL_SEPARATOR),
            state: unit.state,
            flags,
            language: settings.languageCode,
            sourceLanguage: settings.sourceLanguageCode,
          });
      // New units have no rows to delete: only failing ones matter.
      if (unit.id !== undefined || names.length > 0) results.push({ unitId: unit.id, idHash: unit.idHash, names });
    }
  }
  const unresolved = results.filter((result) => result.unitId === undefined).map((result) => result.idHash);
  if (unresolved.length > 0) {
    const rows: Array<{ id: string; id_hash: string }> = await manager.query(
      'SELECT id, id_hash FROM units WHERE translation_id = $1 AND id_hash = ANY($2::bigint[])',
      [translationId, unresolved],
    );
    const byHash = new Map(rows.map((row) => [row.id_hash, row.id]));
    for (const result of results) if (result.unitId === undefined) result.unitId = byHash.get(result.idHash);
  }
  await storeCheckResults(
    manager,
    results.filter((result) => result.unitId !== undefined).map((result) => ({ unitId: result.unitId!, names: result.names })),
    ['inconsistent', ...BATCH_SOURCE_CHECKS],
  );
}
