import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ApiError, ApiValidationError } from '../../../common/http/api-errors';
import { bodyFieldValue, convertDrfValue, drfFieldError, type DrfRule } from '../../../common/http/drf-fields';
import { MAX_FLAGS_LENGTH, parseFlagItems } from '../../../checks/flags';
import { asObject, parseUnitWriteBody, type UnitWriteBody } from './unit-bodies';

// Request bodies of the bulk routes (Glossa extensions, issue 14 item 5), read with DRF's field rules and
// messages like every other body: unknown keys are ignored, each bad field is named in `{"field": ["msg"]}`.

type Errors = Record<string, string[]>;

/** One field converted and validated as DRF would; the error, if any, goes into `errors`. */
function field(data: Record<string, unknown>, key: string, rule: DrfRule, errors: Errors): unknown {
  const value = convertDrfValue(rule, bodyFieldValue(data, key, rule));
  const error = drfFieldError(rule, value);
  if (error !== null) errors[key] = [error];
  return value;
}

/** Bulk edit states (Weblate's BulkEditForm): -1 leaves the state alone. */
export const BULK_EDIT_STATES = [-1, 10, 20, 30] as const;

/** POST `…/bulk/` of a project, component or translation (Weblate's bulk edit form, integration.md §6.1). */
export class BulkEditBody {
  @ApiProperty({ description: 'Search query selecting the strings (the search language of `q` on unit lists)' }) q: string;
  @ApiPropertyOptional({ enum: BULK_EDIT_STATES, default: -1, description: '-1 leaves the state; 10 needs editing, 20 translated, 30 approved' }) state?: number;
  @ApiPropertyOptional({ description: 'Flags to add to the source strings (Weblate flag syntax)', default: '' }) add_flags?: string;
  @ApiPropertyOptional({ description: 'Flags to remove from the source strings', default: '' }) remove_flags?: string;
  @ApiPropertyOptional({ type: [Number], description: 'Ids of project labels to add to the source strings' }) add_labels?: number[];
  @ApiPropertyOptional({ type: [Number], description: 'Ids of project labels to remove from the source strings' }) remove_labels?: number[];
}

export interface BulkEditRequest {
  q: string;
  state: number;
  addFlags: string;
  removeFlags: string;
  /** Label ids (whether they are the project's labels is the service's check). */
  addLabels: number[];
  removeLabels: number[];
}

const FLAGS_RULE: DrfRule = {
  type: 'string',
  allowBlank: true,
  maxLength: MAX_FLAGS_LENGTH,
  // Weblate's FlagField refuses what its flag parser cannot read; ours reads anything, so only a name is required.
  check: (value) => (value.trim() !== '' && parseFlagItems(value).length === 0 ? 'Invalid translation flag.' : null),
};
const LABELS_RULE: DrfRule = { type: 'list', maxItems: 100 };

/** Django's ModelMultipleChoiceField: every value must be a primary key (an integer, or its text). */
function labelIds(values: unknown[]): { ids: number[] } | { error: string } {
  const ids: number[] = [];
  for (const value of values) {
    const text = typeof value === 'number' || typeof value === 'string' ? String(value).trim() : null;
    if (text === null || !/^\d{1,9}$/.test(text)) return { error: `“${typeof value === 'string' ? value : JSON.stringify(value)}” is not a valid value.` };
    if (!ids.includes(Number(text))) ids.push(Number(text));
  }
  return { ids };
}

export function parseBulkEditBody(body: unknown): BulkEditRequest {
  const data = asObject(body);
  const errors: Errors = {};
  const q = field(data, 'q', { type: 'string', required: true, maxLength: 10_000 }, errors);
  const state = field(data, 'state', { type: 'choice', choices: BULK_EDIT_STATES }, errors);
  const addFlags = field(data, 'add_flags', FLAGS_RULE, errors);
  const removeFlags = field(data, 'remove_flags', FLAGS_RULE, errors);
  const labels: Record<string, number[]> = {};
  for (const key of ['add_labels', 'remove_labels']) {
    const value = field(data, key, LABELS_RULE, errors);
    if (errors[key] !== undefined || !Array.isArray(value)) continue;
    const parsed = labelIds(value);
    if ('error' in parsed) errors[key] = [parsed.error];
    else labels[key] = parsed.ids;
  }
  if (Object.keys(errors).length > 0) throw new ApiValidationError(errors);
  return {
    q: q as string,
    state: (state as number | undefined) ?? -1,
    addFlags: (addFlags as string | undefined) ?? '',
    removeFlags: (removeFlags as string | undefined) ?? '',
    addLabels: labels.add_labels ?? [],
    removeLabels: labels.remove_labels ?? [],
  };
}

/** The answer of a bulk edit: how many strings changed ("Bulk edit completed, N strings were updated."). */
export class BulkEditResponse {
  @ApiProperty() updated: number;
}

/** One item of a bulk translate request. */
export class BulkTranslateItemBody {
  @ApiPropertyOptional({ description: 'Unit id (give id or context)' }) id?: number;
  @ApiPropertyOptional({ description: 'Key/context of the string in this translation (give id or context)' }) context?: string;
  @ApiProperty({ type: [String], description: 'Target, one string per plural form (a single string is one form)' }) target: string[];
  @ApiProperty({ enum: [0, 10, 20, 30] }) state: number;
  @ApiPropertyOptional({ description: 'ETag of GET /api/units/<id>/; the item fails with 412 when the unit changed since' }) if_match?: string;
}

/** POST `/api/translations/<p>/<c>/<l>/units/bulk/`. */
export class BulkTranslateBody {
  @ApiProperty({ type: [BulkTranslateItemBody], description: 'At most BULK_MAX_ITEMS (10,000) items' }) items: BulkTranslateItemBody[];
  @ApiPropertyOptional({ default: false, description: 'true: any failed item means nothing is applied (400)' }) atomic?: boolean;
}

/** One item as read: the unit it names and the edit, or why it cannot be applied. */
export type ItemError = ApiError | ApiValidationError;

export type BulkTranslateItem =
  | { index: number; ok: true; id: string | null; context: string | null; edit: UnitWriteBody; ifMatch: string | null }
  | { index: number; ok: false; error: ItemError };

export interface BulkTranslateRequest {
  atomic: boolean;
  items: BulkTranslateItem[];
}

/**
 * The request's own shape is validated as a whole (400 for the request); each item is validated on its own,
 * so a bad item becomes that item's 400 result while the others go on.
 */
export function parseBulkTranslateBody(body: unknown, maxItems: number): BulkTranslateRequest {
  const data = asObject(body);
  const errors: Errors = {};
  const atomic = field(data, 'atomic', { type: 'boolean' }, errors);
  const items = field(data, 'items', { type: 'list', required: true, maxItems }, errors);
  if (errors.items === undefined && (items as unknown[]).length === 0) errors.items = ['This list may not be empty.'];
  if (Object.keys(errors).length > 0) throw new ApiValidationError(errors);
  return { atomic: atomic === true, items: (items as unknown[]).map((item, index) => parseItem(item, index)) };
}

const ID_RULE: DrfRule = { type: 'integer', min: 1, max: Number.MAX_SAFE_INTEGER };
const CONTEXT_RULE: DrfRule = { type: 'string', allowBlank: true, maxLength: 10_000 };
const IF_MATCH_RULE: DrfRule = { type: 'string', maxLength: 200 };

function parseItem(raw: unknown, index: number): BulkTranslateItem {
  try {
    const data = asObject(raw);
    const errors: Errors = {};
    const id = 'id' in data ? field(data, 'id', ID_RULE, errors) : undefined;
    const context = 'context' in data ? field(data, 'context', CONTEXT_RULE, errors) : undefined;
    const ifMatch = 'if_match' in data ? field(data, 'if_match', IF_MATCH_RULE, errors) : undefined;
    if (id === undefined && context === undefined) errors.non_field_errors = ['Either id or context is required.'];
    else if (id !== undefined && context !== undefined) errors.non_field_errors = ['Give either id or context, not both.'];
    let edit: UnitWriteBody = {};
    try {
      // target and state as PATCH /api/units/<id>/ reads them; the item's other keys are ignored there.
      const fields = pick(data, ['target', 'state']);
      // A single string is one form (the bulk route's convenience; PATCH itself wants a list).
      if (typeof fields.target === 'string') fields.target = [fields.target];
      edit = parseUnitWriteBody(fields);
    } catch (error) {
      if (!(error instanceof ApiValidationError)) throw error;
      Object.assign(errors, error.fields);
    }
    if (Object.keys(errors).length > 0) return { index, ok: false, error: new ApiValidationError(errors) };
    return {
      index,
      ok: true,
      id: id === undefined ? null : String(id),
      context: context === undefined ? null : (context as string),
      edit,
      ifMatch: ifMatch === undefined ? null : (ifMatch as string),
    };
  } catch (error) {
    if (error instanceof ApiError || error instanceof ApiValidationError) return { index, ok: false, error };
    throw error;
  }
}

/** Only the keys present (parseUnitWriteBody tells an absent key from a null one). */
function pick(data: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  const picked: Record<string, unknown> = {};
  for (const key of keys) if (key in data) picked[key] = data[key];
  return picked;
}
