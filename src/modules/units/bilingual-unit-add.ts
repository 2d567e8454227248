import type { EntityManager } from 'typeorm';
import { calculateHash } from '../../common/hashing/weblate-hash';
import { ApiValidationError } from '../../common/http/api-errors';
import { countWords } from '../../common/text/word-count';
import { PLURAL_SEPARATOR } from '../../formats/store';
import type { TranslationRef } from '../translations/translation-lookup.service';
import type { NewBilingualUnitBody } from './dto/unit-bodies';
import { recordNewUnits, type CreatedUnit } from './new-unit-records';

// POST `.../units/` of a bilingual component (weblate-api.md §10.1): the (source, context) pair is added to
// the source translation and to the addressed translation, or to every translation when the source one is
// addressed; the non-source units carry the submitted target and are pending, so the next commit appends
// them to their files (FileFormat.write appends a key the file lacks). id_hash = hash(source, context).

export async function addBilingualUnit(manager: EntityManager, userId: number, translation: TranslationRef, data: NewBilingualUnitBody, review: boolean): Promise<string> {
  const { component } = translation;
  const source = data.source.join(PLURAL_SEPARATOR);
  const target = data.target.some((form) => form !== '') ? data.target.join(PLURAL_SEPARATOR) : '';
  const state = data.state ?? (target === '' ? 0 : 20);
  if (state === 30 && !review) throw new ApiValidationError({ state: ['Approved state is not available as reviews are not enabled.'] });
  if (state === 0 && target !== '') throw new ApiValidationError({ state: ['Empty state is supported for blank strings only.'] });
  const idHash = calculateHash(source, data.context).toString();
  const [sourceTranslation]: Array<{ id: number; language_id: number }> = await manager.query(
    'SELECT id, language_id FROM translations WHERE component_id = $1 AND is_source',
    [component.id],
  );
  const exists: unknown[] = await manager.query('SELECT 1 FROM units WHERE translation_id = ANY($1::int[]) AND id_hash = $2', [
    [sourceTranslation?.id ?? translation.id, translation.id],
    idHash,
  ]);
  if (exists.length > 0) throw new ApiValidationError({ non_field_errors: ['This string seems to already exist.'] });
  const common = [idHash, idHash, data.context, source, countWords(source, component.sourceLanguageCode), [...source].length];
  const insert = async (translationId: number, sourceUnitId: string | null, unitTarget: string, unitState: number, pending: boolean): Promise<string> => {
    const [{ id }]: Array<{ id: string }> = await manager.query(
      `INSERT INTO units (translation_id, source_unit_id, id_hash, content_hash, context, source, num_words, num_chars, target,
                          state, position, priority, pending)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, (SELECT count(*) + 1 FROM units WHERE translation_id = $1), 100, $11)
       RETURNING id`,
      [translationId, sourceUnitId, ...common, unitTarget, unitState, pending],
    );
    return id;
  };
  const created: CreatedUnit[] = [];
  let sourceUnitId: string | null = null;
  if (sourceTranslation) {
    sourceUnitId = await insert(sourceTranslation.id, null, source, 100, false);
    await manager.query('UPDATE units SET source_unit_id = id WHERE id = $1', [sourceUnitId]);
    created.push({ id: sourceUnitId, translation_id: sourceTranslation.id, language_id: sourceTranslation.language_id, target: source });
  }
  const others: Array<{ id: number; language_id: number }> = translation.isSource
    ? await manager.query('SELECT id, language_id FROM translations WHERE component_id = $1 AND NOT is_source ORDER BY id', [component.id])
    : [{ id: translation.id, language_id: translation.languageId }];
  for (const other of others) {
    const id = await insert(other.id, sourceUnitId, target, state, true);
    created.push({ id, translation_id: other.id, language_id: other.language_id, target });
  }
  await recordNewUnits(manager, component, created, userId);
  return created.find((unit) => unit.translation_id === translation.id)?.id ?? created[0].id;
}
