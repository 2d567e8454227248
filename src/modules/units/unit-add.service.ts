import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { calculateHash } from '../../common/hashing/weblate-hash';
import { ApiValidationError, permissionDenied } from '../../common/http/api-errors';
import type { RequestContext } from '../../common/http/request-context';
import { countWords } from '../../common/text/word-count';
import { FormatWriteError, type PathPart, type TranslationFileFormat } from '../../formats/format';
import { getFileFormat } from '../../formats/format.registry';
import { ACTION_NEW_UNIT } from '../changes/change-actions';
import { recordChanges } from '../changes/change-recorder';
import { TranslationLookup, TranslationRef } from '../translations/translation-lookup.service';
import { refreshTranslationStatistics } from '../../sync/translation-statistics';
import { NewMonolingualUnitBody, parseNewMonolingualUnitBody } from './dto/unit-bodies';
import { checkManageUnits } from './unit-rules';
import { assertComponentUnlocked } from '../components/component-locked';

/**
 * The source translation is read-only in Glossa (its file is the template, as after an import), so a new source
 * unit is state 100 like every other source unit; a `state` in the body is validated as Weblate does (§10.1).
 */
const SOURCE_STATE = 100;

/**
 * POST `/api/translations/<p>/<c>/<lang>/units/` for monolingual components (weblate-api.md §10.1): the
 * string is added to the source translation and, untranslated, to every other translation of the component.
 * The new source unit is marked pending: the next commit writes it into the template file (src/sync write-back).
 */
@Injectable()
export class UnitAddService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly lookup: TranslationLookup,
  ) {}

  /** Returns the id of the unit created in the addressed (source) translation. */
  async add(ctx: RequestContext, projectSlug: string, componentSlug: string, languageCode: string, body: unknown): Promise<string> {
    const translation = await this.lookup.translation(projectSlug, componentSlug, languageCode);
    const { component } = translation;
    checkManageUnits({ isSource: translation.isSource, template: component.template, manageUnits: component.manageUnits, editTemplate: component.editTemplate });
    const format = getFileFormat(component.fileFormat);
    // Only monolingual formats are implemented; a bilingual component could not store the string in a file.
    if (!format || !format.monolingual || component.template === '') throw permissionDenied('The file format does not support this.');
    if (!ctx.can('unit.add')) throw permissionDenied('Can not add unit');
    assertComponentUnlocked(component);
    const data = parseNewMonolingualUnitBody(body);
    this.checkValue(translation, data);
    const path = format.pathFromContext(data.key);
    if (path.length === 0 || path.some((part) => 'key' in part && part.key === '')) {
      throw new ApiValidationError({ key: ['The key is not valid for this file format.'] });
    }
    return this.dataSource.transaction(async (manager) => {
      await this.checkNew(manager, translation.id, data.key, path, format);
      return this.insert(manager, ctx.caller!.id, translation, data, path);
    });
  }

  private checkValue(translation: TranslationRef, data: NewMonolingualUnitBody): void {
    // JSON formats have no plurals (languages-formats-hashing.md §2.1).
    if (data.value.length > 1) throw new ApiValidationError({ value: ['Plurals are not supported by the file format.'] });
    if (data.state === 0) throw new ApiValidationError({ state: ['Empty state is supported for blank strings only.'] });
    if (data.state === 30 && !translation.component.translationReview) {
      throw new ApiValidationError({ state: ['Approved state is not available as reviews are not enabled.'] });
    }
  }

  /** Duplicate keys are refused, and so is a key whose place in the file is taken by an object or a value. */
  private async checkNew(manager: EntityManager, sourceTranslationId: number, key: string, path: PathPart[], format: TranslationFileFormat): Promise<void> {
    const rows: Array<{ context: string; file_location: { path?: PathPart[] } | null }> = await manager.query(
      'SELECT context, file_location FROM units WHERE translation_id = $1 ORDER BY position, id',
      [sourceTranslationId],
    );
    if (rows.some((row) => row.context === key)) {
      throw new ApiValidationError({ non_field_errors: ['This string seems to already exist.'] });
    }
    const entries = rows.map((row) => ({ path: row.file_location?.path ?? format.pathFromContext(row.context), valueType: 'string' as const, target: '' }));
    try {
      format.serialize([...entries, { path, valueType: 'string', target: '' }]);
    } catch (error) {
      if (error instanceof FormatWriteError) throw new ApiValidationError({ key: [error.message] });
      throw error;
    }
  }

  private async insert(manager: EntityManager, userId: number, translation: TranslationRef, data: NewMonolingualUnitBody, path: PathPart[]): Promise<string> {
    const { component } = translation;
    const source = data.value[0];
    // Monolingual identity (weblate-api.md §9.2, §9.3): id_hash from the key, content_hash from source + key.
    const idHash = calculateHash(data.key).toString();
    const contentHash = calculateHash(source, data.key).toString();
    const location = JSON.stringify({ path, valueType: 'string' });
    const common = [idHash, contentHash, data.key, source, countWords(source, component.sourceLanguageCode), [...source].length, location];
    const [{ id }]: Array<{ id: string }> = await manager.query(
      `INSERT INTO units (translation_id, id_hash, content_hash, context, source, num_words, num_chars, file_location, target,
                          state, position, priority, pending)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $5, $9,
               (SELECT count(*) + 1 FROM units WHERE translation_id = $1), 100, true)
       RETURNING id`,
      [translation.id, ...common, SOURCE_STATE],
    );
    await manager.query('UPDATE units SET source_unit_id = id WHERE id = $1', [id]);
    // Every other translation gets the string untranslated, at the end (position = its count + 1, §9.7).
    const others: Array<{ id: string; translation_id: number; language_id: number }> = await manager.query(
      `INSERT INTO units (translation_id, source_unit_id, id_hash, content_hash, context, source, num_words, num_chars,
                          file_location, target, state, position, priority, pending)
       SELECT t.id, $1, $2, $3, $4, $5, $6, $7, $8::jsonb, '', 0,
              (SELECT count(*) + 1 FROM units x WHERE x.translation_id = t.id), 100, false
         FROM translations t WHERE t.component_id = $9 AND t.id <> $10
        ORDER BY t.id
       RETURNING id, translation_id, (SELECT language_id FROM translations WHERE id = translation_id) AS language_id`,
      [id, ...common, component.id, translation.id],
    );
    const created = [{ id, translation_id: translation.id, language_id: translation.languageId, target: source }, ...others.map((o) => ({ ...o, target: '' }))];
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
    await refreshTranslationStatistics(manager, created.map((unit) => unit.translation_id), { authorId: userId });
    return id;
  }
}
