import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { ApiValidationError, permissionDenied } from '../../common/http/api-errors';
import type { RequestContext } from '../../common/http/request-context';
import { FileParser } from '../../formats/file-parser';
import { getFileFormat, usesTemplate } from '../../formats/format.registry';
import type { FileFormat } from '../../formats/store';
import { TranslationLookup, TranslationRef } from '../translations/translation-lookup.service';
import { addBilingualUnit } from './bilingual-unit-add';
import { NewMonolingualUnitBody, parseNewBilingualUnitBody, parseNewMonolingualUnitBody } from './dto/unit-bodies';
import { checkManageUnits } from './unit-rules';
import { assertComponentUnlocked } from '../components/component-locked';
import { addMonolingualUnit, unwritableKeys } from './monolingual-unit-add';

/** Key/value formats whose entries cannot be plural (a `value` of several forms is refused). */
export const NO_PLURALS = new Set(['json', 'json-nested', 'properties', 'properties-utf8', 'properties-utf16', 'strings', 'strings-utf8', 'php', 'laravel', 'yaml', 'webextension', 'resx', 'csv', 'csv-simple']);

/**
 * POST `/api/translations/<p>/<c>/<lang>/units/` (weblate-api.md §10.1; bilingual components: bilingual-unit-add.ts). Monolingual: the
 * string is added to the source translation and, untranslated, to every other translation of the component.
 * The new source unit is marked pending: the next commit writes it into the template file (src/sync write-back);
 * its `state` is validated as Weblate does (§10.1) though source units are stored read-only (monolingual-unit-add.ts).
 */
@Injectable()
export class UnitAddService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly lookup: TranslationLookup,
    private readonly parser: FileParser,
  ) {}

  /** Returns the id of the unit created in the addressed (source) translation. */
  async add(ctx: RequestContext, projectSlug: string, componentSlug: string, languageCode: string, body: unknown): Promise<string> {
    const translation = await this.lookup.translation(projectSlug, componentSlug, languageCode);
    const { component } = translation;
    checkManageUnits({ isSource: translation.isSource, template: component.template, manageUnits: component.manageUnits, editTemplate: component.editTemplate });
    const format = getFileFormat(component.fileFormat);
    if (!format) throw permissionDenied('The file format does not support this.');
    if (!ctx.can('unit.add')) throw permissionDenied('Can not add unit');
    assertComponentUnlocked(component);
    if (!usesTemplate(format, component.template)) {
      const bilingual = parseNewBilingualUnitBody(body, translation.isSource);
      if (bilingual.source.length > 1 && NO_PLURALS.has(format.id)) throw new ApiValidationError({ source: ['Plurals are not supported by the file format.'] });
      if (bilingual.state === 30 && !ctx.can('unit.review')) throw new ApiValidationError({ state: ['You do not have permission to approve translations.'] });
      return this.dataSource.transaction((manager) => addBilingualUnit(manager, ctx.caller!.id, translation, bilingual, component.translationReview));
    }
    const parsed = parseNewMonolingualUnitBody(body);
    // The unit is stored under the name the format reads it back with (laravel `bye` -> `return[]->'bye'`), so
    // the next scan of the written file finds the same unit.
    const data = { ...parsed, key: format.contextForKey?.(parsed.key) ?? parsed.key };
    this.checkValue(translation, data, format);
    return this.dataSource.transaction(async (manager) => {
      await this.checkNew(manager, translation.id, data.key, format);
      return addMonolingualUnit(manager, ctx.caller!.id, translation, data.key, data.value);
    });
  }

  private checkValue(translation: TranslationRef, data: NewMonolingualUnitBody, format: FileFormat): void {
    // Key/value formats without plurals (languages-formats-hashing.md §2.1 for JSON).
    if (data.value.length > 1 && NO_PLURALS.has(format.id)) throw new ApiValidationError({ value: ['Plurals are not supported by the file format.'] });
    if (data.state === 0) throw new ApiValidationError({ state: ['Empty state is supported for blank strings only.'] });
    if (data.state === 30 && !translation.component.translationReview) {
      throw new ApiValidationError({ state: ['Approved state is not available as reviews are not enabled.'] });
    }
  }

  /** Duplicate keys are refused, and so is a key the format cannot write next to the component's keys. */
  private async checkNew(manager: EntityManager, sourceTranslationId: number, key: string, format: FileFormat): Promise<void> {
    const rows: Array<{ context: string }> = await manager.query('SELECT context FROM units WHERE translation_id = $1 ORDER BY position, id', [sourceTranslationId]);
    if (rows.some((row) => row.context === key)) {
      throw new ApiValidationError({ non_field_errors: ['This string seems to already exist.'] });
    }
    const problem = await unwritableKeys(this.parser, format, [...rows.map((row) => row.context), key]);
    if (problem !== null) throw new ApiValidationError({ key: [problem] });
  }
}
