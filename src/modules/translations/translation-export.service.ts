import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { GENERATOR } from '../../common/app-version';
import { hashToChecksum } from '../../common/hashing/weblate-hash';
import { notFound } from '../../common/http/api-errors';
import { pathOf } from '../../common/links/link-builder';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { getExporter } from '../../formats/exporter.registry';
import { getFileFormat, usesTemplate } from '../../formats/format.registry';
import type { ExportUnit, Exporter } from '../../formats/store';
import { splitForms } from '../../sync/store-changes';
import { compileRequestSearch, runSearch } from '../units/unit-query';
import type { TranslationFileDownload } from './translation-file.service';
import type { ComponentRef, TranslationRef } from './translation-lookup.service';

// `GET .../file/?format=<exporter>` (weblate-api.md §10.9, formats.md §4): a new file built from the
// database by one of the registered exporters (src/formats/exporter.registry.ts), not from the repository
// file; `q` filters the units as on the units list.

interface ExportRow {
  context: string;
  source: string;
  target: string;
  note: string;
  explanation: string;
  location: string;
  flags: string;
  state: number;
  id_hash: string;
}

@Injectable()
export class TranslationExportService {
  constructor(
    private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** The exporter, when registered and usable for the component (json/aresource/strings: monolingual only; mo: po only). */
  exporterFor(component: ComponentRef, exporterId: string): Exporter {
    const exporter = getExporter(exporterId);
    const format = getFileFormat(component.fileFormat);
    const monolingual = format ? usesTemplate(format, component.template) : component.template !== '';
    // Weblate raises Http404 for an exporter it does not have or that does not support the translation
    // (download_translation_file); DRF answers it as 404 with the message as `detail` (issue 11 item 4).
    if (!exporter || !exporter.accepts(component.fileFormat, monolingual)) throw notFound(`Conversion to ${exporterId} is not supported`);
    return exporter;
  }

  async download(translation: TranslationRef, exporterId: string, q: string): Promise<TranslationFileDownload> {
    const { component } = translation;
    const exporter = this.exporterFor(component, exporterId);
    const format = getFileFormat(component.fileFormat);
    const units = await this.units(translation, q);
    const [{ name, plural_number: pluralNumber, plural_formula: pluralFormula, last_change: lastChange }]: Array<{
      name: string;
      plural_number: number;
      plural_formula: string;
      last_change: string | null;
    }> = await this.dataSource.query(
      `SELECT l.name, COALESCE(t.plural_number, l.plural_number) AS plural_number, COALESCE(t.plural_formula, l.plural_formula) AS plural_formula,
              date_trunc('second', t.last_change) AS last_change
         FROM translations t JOIN languages l ON l.id = t.language_id WHERE t.id = $1`,
      [translation.id],
    );
    const content = exporter.export(units, {
      languageCode: translation.languageCode,
      languageName: name,
      sourceLanguageCode: component.sourceLanguageCode,
      plural: { number: pluralNumber, formula: pluralFormula },
      projectName: component.projectName,
      componentName: component.name,
      translationUrl: this.config.siteUrl + pathOf('projects', component.projectSlug, component.slug, translation.languageCode),
      generator: GENERATOR,
      monolingual: format ? usesTemplate(format, component.template) : component.template !== '',
    });
    return {
      content,
      contentType: exporter.contentType,
      // Weblate 5.x: `<project>-<component>-<language>.<ext>` (formats.md §4).
      downloadName: `${component.projectSlug}-${component.slug}-${translation.languageCode}.${exporter.extension}`,
      // Timestamps come back as text (UTC), as in TranslationFileService.
      lastModified: lastChange !== null ? new Date(`${lastChange.slice(0, 19)}Z`) : null,
    };
  }

  /** The translation's units in position order as exporters take them, filtered by `q`. */
  private async units(translation: TranslationRef, q: string): Promise<ExportUnit[]> {
    const params: unknown[] = [translation.id];
    const search = compileRequestSearch(q, params);
    const rows: ExportRow[] = await runSearch(this.dataSource, search, this.config.searchRegexTimeoutMs, (db) =>
      db.query(
        `SELECT u.context, u.source, u.target, u.note, COALESCE(su.explanation, '') AS explanation, u.location, u.flags, u.state, u.id_hash
           FROM units u LEFT JOIN units su ON su.id = u.source_unit_id
          WHERE u.translation_id = $1 ${search ? `AND (${search.sql})` : ''}
          ORDER BY u.position, u.id`,
        params,
      ),
    );
    return rows.map((row) => ({
      context: row.context,
      source: splitForms(row.source),
      target: splitForms(row.target),
      // The source string's explanation is a developer note too (formats.md §4 step 4).
      note: [row.note, row.explanation].filter((text) => text !== '').join('\n'),
      location: row.location,
      flags: row.flags,
      state: row.state,
      checksum: hashToChecksum(BigInt(row.id_hash)),
    }));
  }
}
