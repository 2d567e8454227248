import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { ApiError, ApiValidationError } from '../../common/http/api-errors';
import type { RequestContext } from '../../common/http/request-context';
import { FileParser } from '../../formats/file-parser';
import { FormatLimitError, FormatParseError } from '../../formats/format';
import { getFileFormat, usesTemplate } from '../../formats/format.registry';
import { assertUploadPluralMatches } from '../../formats/gettext';
import type { ParseOutcome } from '../../formats/parse-worker/parser-pool';
import { PLURAL_SEPARATOR, type FileFormat } from '../../formats/store';
import { ReplaceUploadService } from '../../sync/replace-upload.service';
import { SourceUploadService } from '../../sync/source-upload.service';
import { assertComponentUnlocked } from '../components/component-locked';
import { SuggestionUploadService } from '../suggestions/suggestion-upload.service';
import { addBilingualUnit } from '../units/bilingual-unit-add';
import { addMonolingualUnit, unwritableKeys } from '../units/monolingual-unit-add';
import { TranslationLookup, TranslationRef } from './translation-lookup.service';
import { storeUploadedTargets, type StoredUnit, type TargetUpdate } from './upload-store';
import { uploadFormatCandidates } from './upload-formats';
import { mergeableEntries, UnitMatcher, uploadEntries, type UploadEntry } from './upload-matching';
import { checkUploadRights, notAvailable, parseUploadFields, type Conflicts, type UploadOptions } from './upload-request';

// POST/PUT /api/translations/<p>/<c>/<lang>/file/ (weblate-api.md §10.8, §8.12; wlc-client.md §6.4): a
// translation file uploaded as multipart `file`, merged into the translation's units in one transaction
// (Weblate's merge_upload). Applied strings are stored pending (write-back commits them) and record 9
// "Translation uploaded"; `add` creates strings; `source` updates the component's files (SourceUploadService);
// `replace` makes the uploaded bytes the translation file (ReplaceUploadService).
//
// Counters as Weblate's merge_translations returns them (formats.md §5): only the translated entries of the
// file (and fuzzy ones with fuzzy=process/approve) take part; untranslated entries are neither applied nor
// skipped. `total` is the number of entries of the file, or, for a file read relative to the component's
// template, the template's string count; `count` repeats it; `result` is accepted > 0.

export { ACTION_UPLOAD } from './upload-store';

export interface UploadedFile {
  buffer: Buffer;
  size: number;
  /** The client's file name: its extension may name another registered format (formats.md §5). */
  originalname?: string;
}

/** The response, keys in Weblate's order (§10.8); wlc requires all six (wlc-client.md §5). */
export interface UploadResult {
  not_found: number;
  skipped: number;
  accepted: number;
  total: number;
  result: boolean;
  count: number;
}

/** The uploaded file as read: its entries, the format that read it and what Weblate's try_load made of it. */
interface UploadRead {
  outcome: ParseOutcome;
  entries: UploadEntry[];
  /** Read in the component's own format, so relative to its template when it has one. */
  ownFormat: boolean;
}

const counters = (notFound: number, skipped: number, accepted: number, total: number): UploadResult => ({
  not_found: notFound,
  skipped,
  accepted,
  total,
  result: accepted > 0,
  count: total,
});

@Injectable()
export class TranslationUploadService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly lookup: TranslationLookup,
    private readonly parser: FileParser,
    private readonly sources: SourceUploadService,
    private readonly replacer: ReplaceUploadService,
    private readonly suggestions: SuggestionUploadService,
  ) {}

  async upload(ctx: RequestContext, projectSlug: string, componentSlug: string, languageCode: string, file: UploadedFile | undefined, fields: Record<string, unknown>): Promise<UploadResult> {
    const translation = await this.lookup.translation(projectSlug, componentSlug, languageCode);
    // upload.perform was checked before the body was read (the routes' CheckOrder rule, translation-upload.controller.ts);
    // the rights of each method and conflict mode are checked below.
    assertComponentUnlocked(translation.component);
    const options = parseUploadFields(fields, file !== undefined);
    const format = getFileFormat(translation.component.fileFormat);
    checkUploadRights(ctx, translation, format, options);
    if (!format) throw notAvailable();
    const monolingual = usesTemplate(format, translation.component.template);
    const userId = ctx.caller!.id;
    if (options.method === 'source') return this.updateSources(userId, translation, format, file!);
    // The source translation takes new strings (add) and new sources (source) only.
    if (translation.isSource && options.method !== 'add') throw notAvailable();
    if (options.method === 'replace') return this.replaceFile(userId, translation, format, monolingual, file!);
    const read = await this.read(format, file!, translation);
    if (options.method === 'add') {
      const added = mergeableEntries(read.entries, options.fuzzy !== '');
      return this.dataSource.transaction((manager) =>
        monolingual && translation.isSource ? this.addToTemplate(manager, userId, translation, format, added, read.entries.length) : this.addMissing(manager, userId, translation, added, read.entries.length),
      );
    }
    const matchByKey = read.ownFormat ? monolingual : read.outcome.units.every((unit) => unit.source.length === 0);
    if (options.method === 'suggest') {
      // Stored as the uploader's suggestions; no string changes (checks-suggestions-search.md §5.6).
      const caller = { id: userId, mayVote: ctx.can('suggestion.vote') };
      const suggested = mergeableEntries(read.entries, options.fuzzy !== '');
      return this.dataSource.transaction((manager) => this.suggestions.addFromUpload(manager, caller, translation, suggested, matchByKey, read.entries.length));
    }
    return this.dataSource.transaction((manager) => this.apply(manager, userId, translation, read, { ...options, matchByKey, relative: read.ownFormat && monolingual }));
  }

  /**
   * Parsed in a worker thread within the configured limits (issue 10, item 2); a refused file changes nothing.
   * Tried in Weblate's order (upload-formats.ts), one format after the other until one reads the file; the
   * component format's error is the answer when none does. A PO whose Plural-Forms differs from the
   * translation's plural is refused, as Weblate's merge_upload refuses it (formats.md §3.1).
   */
  private async read(format: FileFormat, file: UploadedFile, translation: TranslationRef): Promise<UploadRead> {
    let failure: unknown = null;
    for (const candidate of uploadFormatCandidates(format, file.originalname ?? '', file.buffer)) {
      let outcome: ParseOutcome;
      try {
        outcome = await this.parser.parse(candidate, file.buffer, translation.languageCode);
      } catch (error) {
        if (!(error instanceof FormatParseError) || error instanceof FormatLimitError) return this.refuse(error);
        if (candidate === format || failure === null) failure = error;
        continue;
      }
      if (outcome.plural) {
        const [plural]: Array<{ number: number; formula: string }> = await this.dataSource.query(
          `SELECT COALESCE(t.plural_number, l.plural_number) AS number, COALESCE(t.plural_formula, l.plural_formula) AS formula
             FROM translations t JOIN languages l ON l.id = t.language_id WHERE t.id = $1`,
          [translation.id],
        );
        try {
          assertUploadPluralMatches(outcome, plural);
        } catch (error) {
          if (error instanceof FormatParseError) throw new ApiValidationError({ file: [error.message] });
          throw error;
        }
      }
      return { outcome, entries: uploadEntries(outcome.units), ownFormat: candidate === format };
    }
    return this.refuse(failure);
  }

  /** A file that cannot be read: 400 with the parser's message, 413 past the size limits. */
  private refuse(error: unknown): never {
    if (error instanceof FormatLimitError) {
      // Bytes, memory and time are the request's size (413); too many or too long strings are its content (400).
      if (error.kind === 'units' || error.kind === 'string-length') throw new ApiValidationError({ file: [`Uploaded translation file is refused: ${error.message}.`] });
      throw new ApiError(413, `Uploaded translation file is too big: ${error.message}.`);
    }
    if (error instanceof FormatParseError) throw new ApiValidationError({ file: [`Failed to parse uploaded file: ${error.message}`] });
    throw error;
  }

  /**
   * Method `source` (Weblate's handle_source): the file must read in the component's format; the files are
   * updated and read again (SourceUploadService). Counters: accepted = total = the source strings after it.
   */
  private async updateSources(userId: number, translation: TranslationRef, format: FileFormat, file: UploadedFile): Promise<UploadResult> {
    let template: ParseOutcome;
    try {
      template = await this.parser.parse(format, file.buffer, translation.component.sourceLanguageCode);
    } catch (error) {
      return this.refuse(error);
    }
    const outcome = await this.sources.update(translation.component.id, translation.id, template.units, file.buffer, userId);
    if (!outcome.result) throw new ApiValidationError({ file: [outcome.detail ?? 'The source strings could not be updated.'] });
    const units = outcome.units ?? 0;
    return counters(0, 0, units, units);
  }

  /**
   * Method `replace` (Weblate's handle_replace): the file must read in the component's own format (no other
   * format is tried, no plural check), then it replaces the translation file byte for byte and the component
   * is read again (ReplaceUploadService). Counters as Weblate's: accepted = the translation's strings after the
   * re-read, total = the file's strings (for a monolingual file, read against the template: the template's).
   */
  private async replaceFile(userId: number, translation: TranslationRef, format: FileFormat, monolingual: boolean, file: UploadedFile): Promise<UploadResult> {
    let outcome: ParseOutcome;
    try {
      outcome = await this.parser.parse(format, file.buffer, translation.languageCode);
    } catch (error) {
      return this.refuse(error);
    }
    const [language]: Array<{ name: string }> = await this.dataSource.query('SELECT name FROM languages WHERE id = $1', [translation.languageId]);
    const replaced = await this.replacer.replace(
      {
        id: translation.id,
        componentId: translation.component.id,
        projectId: translation.component.projectId,
        languageId: translation.languageId,
        languageCode: translation.languageCode,
        languageName: language.name,
        filename: translation.filename,
      },
      file.buffer,
      userId,
    );
    if (!replaced.result) throw new ApiValidationError({ file: [replaced.detail ?? 'The file could not be replaced.'] });
    const units = replaced.units ?? 0;
    return counters(0, 0, units, monolingual ? units : outcome.units.length);
  }

  /**
   * Method `add` on a bilingual component (Weblate's handle_add_upload): (context, source) pairs the component
   * lacks are added with their targets; existing pairs are skipped; not_found is always 0.
   */
  private async addMissing(manager: EntityManager, userId: number, translation: TranslationRef, added: UploadEntry[], total: number): Promise<UploadResult> {
    const units: Array<{ context: string; source: string }> = await manager.query('SELECT context, source FROM units WHERE translation_id = $1', [translation.id]);
    const known = new Set(units.map((unit) => `${unit.context}\u0000${unit.source}`));
    let accepted = 0;
    let skipped = 0;
    for (const entry of added) {
      const key = `${entry.context}\u0000${entry.source}`;
      if (entry.source === '' || known.has(key)) {
        skipped += 1;
        continue;
      }
      const data = { source: entry.source.split(PLURAL_SEPARATOR), target: entry.target.split(PLURAL_SEPARATOR), context: entry.context, state: entry.fuzzy ? 10 : 20 };
      await addBilingualUnit(manager, userId, translation, data, translation.component.translationReview);
      known.add(key);
      accepted += 1;
    }
    return counters(0, skipped, accepted, total);
  }

  /**
   * Method `add` on the source language of a monolingual component: the file is read as the template itself
   * (Weblate's try_load with is_template), and keys the template lacks join it and, untranslated, every
   * translation, as POST `.../units/` adds them; keys it has are skipped. The new keys must fit in the format
   * beside the existing ones (a json-nested key under a string is refused, 400 on `file`).
   */
  private async addToTemplate(manager: EntityManager, userId: number, translation: TranslationRef, format: FileFormat, added: UploadEntry[], total: number): Promise<UploadResult> {
    const rows: Array<{ context: string }> = await manager.query('SELECT context FROM units WHERE translation_id = $1 ORDER BY position, id', [translation.id]);
    const known = new Set(rows.map((row) => row.context));
    const fresh = added.filter((entry) => !known.has(entry.context));
    if (fresh.length > 0) {
      const problem = await unwritableKeys(this.parser, format, [...rows.map((row) => row.context), ...fresh.map((entry) => entry.context)]);
      if (problem !== null) throw new ApiValidationError({ file: [problem] });
    }
    for (const entry of fresh) await addMonolingualUnit(manager, userId, translation, entry.context, entry.target.split(PLURAL_SEPARATOR));
    return counters(0, added.length - fresh.length, fresh.length, total);
  }

  /** Methods translate, fuzzy and approve (Weblate's merge_translations). */
  private async apply(
    manager: EntityManager,
    userId: number,
    translation: TranslationRef,
    read: UploadRead,
    options: UploadOptions & { matchByKey: boolean; relative: boolean },
  ): Promise<UploadResult> {
    // Row locks: an edit through the API waits for the upload (and the other way round), nothing is lost.
    const units: StoredUnit[] = await manager.query(
      'SELECT id, context, target, state, source FROM units WHERE translation_id = $1 ORDER BY position, id FOR UPDATE',
      [translation.id],
    );
    let entries = mergeableEntries(read.entries, options.fuzzy !== '');
    let total = read.entries.length;
    if (options.relative) {
      // Read relative to the template (formats.md §5): only the template's keys are units of the upload, and
      // that reading holds when it gives at least one translated string; else the file is read on its own.
      const keys = new Set(units.map((unit) => unit.context));
      const inTemplate = entries.filter((entry) => keys.has(entry.context));
      if (inTemplate.length > 0) {
        entries = inTemplate;
        total = units.length;
      }
    }
    const matcher = new UnitMatcher(units, options.matchByKey);
    const methodState = options.method === 'approve' ? (translation.component.translationReview ? 30 : 20) : options.method === 'fuzzy' ? 10 : 20;
    const updates: TargetUpdate[] = [];
    let notFound = 0;
    let skipped = 0;
    for (const entry of entries) {
      const unit = matcher.find(entry);
      if (!unit) {
        notFound += 1;
        continue;
      }
      const newState = entry.fuzzy && options.fuzzy === 'process' ? 10 : methodState;
      if (unit.state === 100 || !mayOverwrite(unit.state, options.conflicts) || (unit.target === entry.target && unit.state === newState)) {
        skipped += 1;
        continue;
      }
      updates.push({ unit, target: entry.target, state: newState });
    }
    if (updates.length > 0) await storeUploadedTargets(manager, userId, translation, updates);
    return counters(notFound, skipped, updates.length, total);
  }
}

/** Whether `conflicts` lets the upload replace a string in this state (§10.8). */
function mayOverwrite(state: number, conflicts: Conflicts): boolean {
  if (state < 20) return true;
  if (conflicts === 'replace-approved') return true;
  return conflicts === 'replace-translated' && state !== 30;
}
