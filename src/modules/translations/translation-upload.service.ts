import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { ApiError, ApiValidationError, permissionDenied } from '../../common/http/api-errors';
import type { RequestContext } from '../../common/http/request-context';
import { FileParser } from '../../formats/file-parser';
import { FormatLimitError, FormatParseError, type ParsedUnit, type TranslationFileFormat } from '../../formats/format';
import { getFileFormat } from '../../formats/format.registry';
import { refreshTranslationStatistics } from '../../sync/translation-statistics';
import { ACTION_NEW_CONTRIBUTOR } from '../changes/change-actions';
import { ChangeRecord, recordChanges } from '../changes/change-recorder';
import { assertComponentUnlocked } from '../components/component-locked';
import { TranslationLookup, TranslationRef } from './translation-lookup.service';

// POST/PUT /api/translations/<p>/<c>/<lang>/file/ (weblate-api.md §10.8, §8.12; wlc-client.md §6.4): a
// translation file uploaded as multipart `file`, merged into the translation's units in one transaction.
// Applied strings are stored pending (write-back commits them) and record 9 "Translation uploaded".

export const ACTION_UPLOAD = 9;
const STORE_BATCH = 2000;

const METHODS = ['translate', 'approve', 'suggest', 'fuzzy', 'replace', 'source', 'add'] as const;
type UploadMethod = (typeof METHODS)[number];
/** Methods Glossa applies; the others need storage Glossa lacks (suggestions) or bilingual formats. */
const SUPPORTED_METHODS: ReadonlySet<UploadMethod> = new Set(['translate', 'approve', 'fuzzy', 'replace']);
const CONFLICTS = ['', 'ignore', 'replace-translated', 'replace-approved'] as const;
type Conflicts = (typeof CONFLICTS)[number];
const FUZZY = ['', 'process', 'approve'] as const;

export interface UploadedFile {
  buffer: Buffer;
  size: number;
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

interface StoredUnit {
  id: string;
  context: string;
  target: string;
  state: number;
  source: string;
}

@Injectable()
export class TranslationUploadService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly lookup: TranslationLookup,
    private readonly parser: FileParser,
  ) {}

  async upload(ctx: RequestContext, projectSlug: string, componentSlug: string, languageCode: string, file: UploadedFile | undefined, fields: Record<string, unknown>): Promise<UploadResult> {
    const translation = await this.lookup.translation(projectSlug, componentSlug, languageCode);
    // upload.perform (plain 403, §10.8); the rights of each method and conflict mode are checked below.
    if (!ctx.can('upload.perform')) throw permissionDenied();
    assertComponentUnlocked(translation.component);
    const options = parseFields(fields, file);
    checkUploadRights(ctx, translation, options);
    if (!SUPPORTED_METHODS.has(options.method) || translation.isSource) {
      throw new ApiValidationError({ method: ['This method is not available here.'] });
    }
    const format = getFileFormat(translation.component.fileFormat);
    if (!format) throw new ApiValidationError({ method: ['This method is not available here.'] });
    const leaves = await this.parse(format, file!);
    const uploaded = leaves.map((leaf) => ({ context: leaf.context, target: leaf.source }));
    return this.dataSource.transaction((manager) => this.apply(manager, ctx.caller!.id, translation, uploaded, options));
  }

  /** Parsed in a worker thread within the configured limits (issue 10, item 2); a refused file changes nothing. */
  private async parse(format: TranslationFileFormat, file: UploadedFile): Promise<ParsedUnit[]> {
    try {
      return (await this.parser.parse(format, file.buffer)).units;
    } catch (error) {
      if (error instanceof FormatLimitError) {
        // Bytes, memory and time are the request's size (413); too many or too long strings are its content (400).
        if (error.kind === 'units' || error.kind === 'string-length') throw new ApiValidationError({ file: [`Uploaded translation file is refused: ${error.message}.`] });
        throw new ApiError(413, `Uploaded translation file is too big: ${error.message}.`);
      }
      if (error instanceof FormatParseError) throw new ApiValidationError({ file: [`Failed to parse uploaded file: ${error.message}`] });
      throw error;
    }
  }

  private async apply(
    manager: EntityManager,
    userId: number,
    translation: TranslationRef,
    uploaded: Array<{ context: string; target: string }>,
    options: { method: UploadMethod; conflicts: Conflicts },
  ): Promise<UploadResult> {
    // Row locks: an edit through the API waits for the upload (and the other way round), nothing is lost.
    const units: StoredUnit[] = await manager.query(
      'SELECT id, context, target, state, source FROM units WHERE translation_id = $1 ORDER BY position, id FOR UPDATE',
      [translation.id],
    );
    const byContext = new Map(units.map((unit) => [unit.context, unit]));
    const newState = options.method === 'approve' ? (translation.component.translationReview ? 30 : 20) : options.method === 'fuzzy' ? 10 : 20;
    const conflicts = options.method === 'replace' ? 'replace-approved' : options.conflicts;
    const updates: Array<{ unit: StoredUnit; target: string; state: number }> = [];
    let notFound = 0;
    let skipped = 0;
    const seen = new Set<string>();
    for (const entry of uploaded) {
      const unit = byContext.get(entry.context);
      if (!unit) {
        notFound += 1;
        continue;
      }
      seen.add(unit.context);
      if (entry.target === '' || unit.state === 100 || !mayOverwrite(unit.state, conflicts) || (unit.target === entry.target && unit.state === newState)) {
        skipped += 1;
        continue;
      }
      updates.push({ unit, target: entry.target, state: newState });
    }
    if (options.method === 'replace') {
      // The upload replaces the file: strings it lacks end up untranslated (§10.8).
      for (const unit of units) if (!seen.has(unit.context) && unit.state !== 0 && unit.state !== 100) updates.push({ unit, target: '', state: 0 });
    }
    const accepted = updates.filter((update) => update.target !== '').length;
    if (updates.length > 0) await this.store(manager, userId, translation, updates);
    return { not_found: notFound, skipped, accepted, total: uploaded.length, result: accepted > 0, count: uploaded.length };
  }

  private async store(manager: EntityManager, userId: number, translation: TranslationRef, updates: Array<{ unit: StoredUnit; target: string; state: number }>): Promise<void> {
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
      const batch = updates.slice(start, start + STORE_BATCH);
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
            details: { state: update.state, old_state: update.unit.state, source: update.unit.source, context: update.unit.context },
          }),
        ),
      );
    }
    await refreshTranslationStatistics(manager, [translation.id], { authorId: userId });
  }
}

/** Whether `conflicts` lets the upload replace a string in this state (§10.8). */
function mayOverwrite(state: number, conflicts: Conflicts): boolean {
  if (state < 20) return true;
  if (conflicts === 'replace-approved') return true;
  return conflicts === 'replace-translated' && state !== 30;
}

/**
 * UploadRequestSerializer.check_perms of Weblate 4.x (weblate/api/serializers.py) with
 * check_upload_method_permissions (weblate/trans/util.py), answered as it answers them: 400 on the field.
 * Issue 10, item 1: `replace` (which empties every string the file lacks, approved ones too) needs
 * component.edit, and overwriting approved strings needs unit.review.
 */
function checkUploadRights(ctx: RequestContext, translation: TranslationRef, options: { method: UploadMethod; conflicts: Conflicts }): void {
  if (options.conflicts !== '' && options.conflicts !== 'ignore' && !ctx.can('upload.overwrite')) {
    throw new ApiValidationError({ conflicts: ['You can not overwrite existing translations.'] });
  }
  if (options.conflicts === 'replace-approved' && !ctx.can('unit.review')) {
    throw new ApiValidationError({ conflicts: ['You can not overwrite existing approved translations.'] });
  }
  if (options.method === 'source' && !translation.isSource) {
    throw new ApiValidationError({ method: ['Source upload is supported only on source language.'] });
  }
  if (!mayUseMethod(ctx, translation, options.method)) throw new ApiValidationError({ method: ['This method is not available here.'] });
}

function mayUseMethod(ctx: RequestContext, translation: TranslationRef, method: UploadMethod): boolean {
  switch (method) {
    case 'translate':
    case 'fuzzy':
      return ctx.can('unit.edit');
    case 'approve':
      return ctx.can('unit.review');
    case 'suggest':
      return ctx.can('suggestion.add');
    case 'add':
      return ctx.can('unit.add');
    case 'replace':
      return translation.filename !== '' && ctx.can('component.edit');
    case 'source':
      // Weblate: only formats with a bilingual update (PO in 4.x); Glossa's formats have none.
      return false;
  }
}

/** UploadRequestSerializer: choices validated like DRF; wlc's legacy `overwrite=yes` means replace-translated. */
function parseFields(fields: Record<string, unknown>, file: UploadedFile | undefined): { method: UploadMethod; conflicts: Conflicts } {
  const errors: Record<string, string[]> = {};
  if (!file) errors.file = ['No file was submitted.'];
  const choice = <T extends string>(name: string, choices: readonly T[], fallback: T): T => {
    const raw = fields[name];
    if (raw === undefined) return fallback;
    const match = choices.find((c) => c === raw);
    if (match === undefined) errors[name] = [`"${typeof raw === 'string' ? raw : JSON.stringify(raw)}" is not a valid choice.`];
    return match ?? fallback;
  };
  const method = choice('method', METHODS, 'translate');
  let conflicts = choice('conflicts', CONFLICTS, '');
  choice('fuzzy', FUZZY, '');
  for (const name of ['author_name', 'author_email']) {
    const value = fields[name];
    if (value !== undefined && (typeof value !== 'string' || value.length > 200)) errors[name] = ['Ensure this field has no more than 200 characters.'];
  }
  if (Object.keys(errors).length > 0) throw new ApiValidationError(errors);
  const overwrite = fields.overwrite;
  if (conflicts === '' && typeof overwrite === 'string' && ['yes', 'true', '1', 'on'].includes(overwrite.toLowerCase())) conflicts = 'replace-translated';
  return { method, conflicts };
}
