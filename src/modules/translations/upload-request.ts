import { ApiValidationError } from '../../common/http/api-errors';
import type { FileFormat } from '../../formats/store';
import { usesTemplate } from '../../formats/format.registry';
import type { TranslationRef } from './translation-lookup.service';

// The fields of an upload and who may use which of them: Weblate 4.x UploadRequestSerializer (fields and
// check_perms) and check_upload_method_permissions (weblate/trans/util.py), weblate-api.md §10.8, §8.12.

export const UPLOAD_METHODS = ['translate', 'approve', 'suggest', 'fuzzy', 'replace', 'source', 'add'] as const;
export type UploadMethod = (typeof UPLOAD_METHODS)[number];
const CONFLICTS = ['', 'ignore', 'replace-translated', 'replace-approved'] as const;
export type Conflicts = (typeof CONFLICTS)[number];
const FUZZY = ['', 'process', 'approve'] as const;
export type FuzzyMode = (typeof FUZZY)[number];

export interface UploadOptions {
  method: UploadMethod;
  conflicts: Conflicts;
  fuzzy: FuzzyMode;
}

/**
 * Formats whose source strings an upload may update (`method=source`): Weblate allows it for formats with
 * `update_bilingual`, which in 4.x is gettext PO only (formats.md §5), on a bilingual component.
 */
const SOURCE_UPDATABLE = new Set(['po']);

/** Whether `method=source` can update this component's strings (the format and a bilingual component). */
export function sourceUpdatable(format: FileFormat | undefined, template: string): boolean {
  return format !== undefined && SOURCE_UPDATABLE.has(format.id) && !usesTemplate(format, template);
}

/** What a caller's rights come down to for the upload checks (RequestContext.can). */
export interface UploadCaller {
  can(permission: string): boolean;
}

/**
 * UploadRequestSerializer.check_perms, in its order, answered as it answers: 400 on the field. `conflicts`
 * other than ignore needs upload.overwrite, replace-approved needs unit.review, `source` only on the source
 * language, then the method's own right; the refusal carries Weblate's hint (for `add` on a translation:
 * "Try adding to the source instead of the translation.").
 */
export function checkUploadRights(caller: UploadCaller, translation: TranslationRef, format: FileFormat | undefined, options: UploadOptions): void {
  if (options.conflicts !== '' && options.conflicts !== 'ignore' && !caller.can('upload.overwrite')) {
    throw new ApiValidationError({ conflicts: ['You can not overwrite existing translations.'] });
  }
  if (options.conflicts === 'replace-approved' && !caller.can('unit.review')) {
    throw new ApiValidationError({ conflicts: ['You can not overwrite existing approved translations.'] });
  }
  if (options.method === 'source' && !translation.isSource) {
    throw new ApiValidationError({ method: ['Source upload is supported only on source language.'] });
  }
  if (!mayUseMethod(caller, translation, format, options.method)) {
    const hint = options.method === 'add' && !translation.isSource ? 'Try adding to the source instead of the translation.' : 'Check your permissions or use different translation object.';
    throw notAvailable(hint);
  }
}

/** `This method is not available here.` with Weblate's hint. */
export function notAvailable(hint = 'Check your permissions or use different translation object.'): ApiValidationError {
  return new ApiValidationError({ method: [`This method is not available here. ${hint}`] });
}

/** check_upload_method_permissions of Weblate 4.x. */
function mayUseMethod(caller: UploadCaller, translation: TranslationRef, format: FileFormat | undefined, method: UploadMethod): boolean {
  const { component } = translation;
  switch (method) {
    case 'translate':
    case 'fuzzy':
      return caller.can('unit.edit');
    case 'approve':
      return caller.can('unit.review');
    case 'suggest':
      return caller.can('suggestion.add');
    case 'add':
      return mayAddUnits(translation, format) && caller.can('unit.add');
    case 'replace':
      return translation.filename !== '' && caller.can('component.edit');
    case 'source':
      // Only upload.perform (checked before) and a format with a bilingual update.
      return sourceUpdatable(format, component.template);
  }
}

/**
 * Weblate's `unit.add` check (check_unit_add): the component manages strings (and, with a template, lets it be
 * edited), and a monolingual component takes new strings on its source language only (weblate-api.md §10.1).
 */
function mayAddUnits(translation: TranslationRef, format: FileFormat | undefined): boolean {
  const { component } = translation;
  if (!format) return false;
  const monolingual = usesTemplate(format, component.template);
  if (monolingual && !translation.isSource) return false;
  return component.manageUnits && (!monolingual || component.editTemplate);
}

/** UploadRequestSerializer's fields, validated like DRF; wlc's legacy `overwrite=yes` means replace-translated. */
export function parseUploadFields(fields: Record<string, unknown>, hasFile: boolean): UploadOptions {
  const errors: Record<string, string[]> = {};
  if (!hasFile) errors.file = ['No file was submitted.'];
  const choice = <T extends string>(name: string, choices: readonly T[], fallback: T): T => {
    const raw = fields[name];
    if (raw === undefined) return fallback;
    const match = choices.find((c) => c === raw);
    if (match === undefined) errors[name] = [`"${typeof raw === 'string' ? raw : JSON.stringify(raw)}" is not a valid choice.`];
    return match ?? fallback;
  };
  const method = choice('method', UPLOAD_METHODS, 'translate');
  let conflicts = choice('conflicts', CONFLICTS, '');
  const fuzzy = choice('fuzzy', FUZZY, '');
  for (const name of ['author_name', 'author_email']) {
    const value = fields[name];
    if (value !== undefined && (typeof value !== 'string' || value.length > 200)) errors[name] = ['Ensure this field has no more than 200 characters.'];
  }
  if (Object.keys(errors).length > 0) throw new ApiValidationError(errors);
  const overwrite = fields.overwrite;
  if (conflicts === '' && typeof overwrite === 'string' && ['yes', 'true', '1', 'on'].includes(overwrite.toLowerCase())) conflicts = 'replace-translated';
  return { method, conflicts, fuzzy };
}
