import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ApiValidationError } from '../../../common/http/api-errors';
import { bodyFieldValue, type DrfRule } from '../../../common/http/drf-fields';

// Request bodies of the unit writes, read the way DRF's serializers read them (weblate-api.md §10.1, §10.2):
// unknown keys are ignored, list fields must be JSON lists, `state` accepts an integer or its string form.
// They are parsed by hand rather than with class-validator because DRF's messages and the "present but
// empty" distinctions (PATCH needs both target and state) are part of the contract.

/** Unit states a client may name (4.x choices, weblate-api.md §8.2); 100 passes here and is refused later. */
const STATE_CHOICES = new Set([0, 10, 20, 30, 100]);

/** PUT/PATCH `/api/units/<id>/` (UnitWriteSerializer). */
export class UnitWriteBody {
  @ApiPropertyOptional({ type: [String] }) target?: string[];
  @ApiPropertyOptional({ enum: [0, 10, 20, 30] }) state?: number;
  @ApiPropertyOptional() explanation?: string;
  @ApiPropertyOptional() extra_flags?: string;
  @ApiPropertyOptional({ type: [Number], description: 'Label ids' }) labels?: number[];
}

/** POST `/api/translations/<p>/<c>/<source language>/units/` of a monolingual component (§10.1). */
export class NewMonolingualUnitBody {
  @ApiProperty({ description: 'Key of the new string (JSON keys joined with dots)' }) key: string;
  @ApiProperty({ type: [String], description: 'Source text, one element (no plurals in JSON)' }) value: string[];
  @ApiPropertyOptional({ enum: [0, 10, 20, 30] }) state?: number;
}

type Errors = Record<string, string[]>;

/** DRF serializers take a JSON object; anything else is a `non_field_errors` 400. */
export function asObject(body: unknown): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    const type = Array.isArray(body) ? 'list' : typeof body === 'string' ? 'str' : typeof body;
    throw new ApiValidationError({ non_field_errors: [`Invalid data. Expected a dictionary, but got ${type}.`] });
  }
  return body as Record<string, unknown>;
}

/** PluralField/ListField: a JSON array, or every value of a form key (one form value is a one-item list). */
const LIST_FIELD: DrfRule = { type: 'list' };

function stringList(data: Record<string, unknown>, field: string, errors: Errors): string[] | undefined {
  const value = bodyFieldValue(data, field, LIST_FIELD);
  if (!Array.isArray(value)) {
    const type = typeof value === 'string' ? 'str' : value === null ? 'NoneType' : typeof value;
    errors[field] = [`Expected a list of items but got type "${type}".`];
    return undefined;
  }
  if (value.some((item) => typeof item !== 'string')) {
    errors[field] = ['Not a valid string.'];
    return undefined;
  }
  return value as string[];
}

function stateChoice(value: unknown, errors: Errors): number | undefined {
  const number = typeof value === 'number' ? value : typeof value === 'string' && /^-?\d+$/.test(value) ? Number(value) : NaN;
  if (!Number.isInteger(number) || !STATE_CHOICES.has(number)) {
    errors.state = [`"${String(value)}" is not a valid choice.`];
    return undefined;
  }
  return number;
}

function text(value: unknown, field: string, errors: Errors): string | undefined {
  if (typeof value !== 'string') {
    errors[field] = ['Not a valid string.'];
    return undefined;
  }
  return value;
}

/**
 * Label ids as DRF's PrimaryKeyRelatedField(many=True) reads them (an integer or an integer string); whether
 * they are labels of the unit's project is the service's check (weblate-api.md §10.2: 400 otherwise).
 */
function labelIds(values: unknown[], errors: Errors): number[] | undefined {
  // A Set, not Array#includes: the list's length is bounded only by the body limit, and a quadratic
  // de-duplication of a megabyte of ids would hold the event loop for seconds.
  const ids = new Set<number>();
  for (const value of values) {
    let id: number;
    if (typeof value === 'number' && Number.isInteger(value)) id = value;
    else if (typeof value === 'string' && /^\s*-?\d{1,15}\s*$/.test(value)) id = Number(value);
    else {
      errors.labels = [`Incorrect type. Expected pk value, received ${pythonType(value)}.`];
      return undefined;
    }
    if (id < 1 || id > 2_147_483_647) {
      errors.labels = [`Invalid pk "${String(value)}" - object does not exist.`];
      return undefined;
    }
    ids.add(id);
  }
  return [...ids];
}

function pythonType(value: unknown): string {
  if (value === null) return 'NoneType';
  if (Array.isArray(value)) return 'list';
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'number') return 'float';
  return typeof value === 'object' ? 'dict' : 'str';
}

export function parseUnitWriteBody(body: unknown): UnitWriteBody {
  const data = asObject(body);
  const errors: Errors = {};
  const parsed: UnitWriteBody = {};
  if ('target' in data) parsed.target = stringList(data, 'target', errors);
  if ('state' in data) parsed.state = stateChoice(data.state, errors);
  if ('explanation' in data) parsed.explanation = text(data.explanation, 'explanation', errors);
  if ('extra_flags' in data) parsed.extra_flags = text(data.extra_flags, 'extra_flags', errors);
  if ('labels' in data) {
    const labels = bodyFieldValue(data, 'labels', LIST_FIELD);
    if (!Array.isArray(labels)) errors.labels = [`Expected a list of items but got type "${typeof labels}".`];
    else parsed.labels = labelIds(labels, errors);
  }
  if (Object.keys(errors).length > 0) throw new ApiValidationError(errors);
  return parsed;
}

export function parseNewMonolingualUnitBody(body: unknown): NewMonolingualUnitBody {
  const data = asObject(body);
  const errors: Errors = {};
  let key: string | undefined;
  let value: string[] | undefined;
  let state: number | undefined;
  if (!('key' in data)) errors.key = ['This field is required.'];
  else if (typeof data.key !== 'string') errors.key = ['Not a valid string.'];
  else if (data.key.trim() === '') errors.key = ['This field may not be blank.'];
  else key = data.key;
  if (!('value' in data)) errors.value = ['This field is required.'];
  else value = stringList(data, 'value', errors);
  if (value !== undefined && value.length === 0) errors.value = ['This list may not be empty.'];
  else if (value !== undefined && value.some((form) => form === '')) errors.value = ['This field may not be blank.'];
  if ('state' in data) state = stateChoice(data.state, errors);
  // 100 is not a choice when adding (§10.1).
  if (state === 100) errors.state = ['"100" is not a valid choice.'];
  if (Object.keys(errors).length > 0) throw new ApiValidationError(errors);
  return { key: key!, value: value!, state };
}

/** POST `/api/translations/<p>/<c>/<lang>/units/` of a bilingual component (§10.1). */
export interface NewBilingualUnitBody {
  source: string[];
  target: string[];
  context: string;
  state?: number;
}

/** `target` is required and non-blank on a non-source translation, optional on the source translation. */
export function parseNewBilingualUnitBody(body: unknown, isSource: boolean): NewBilingualUnitBody {
  const data = asObject(body);
  const errors: Errors = {};
  let source: string[] | undefined;
  let target: string[] = [];
  let context = '';
  let state: number | undefined;
  if (!('source' in data)) errors.source = ['This field is required.'];
  else source = stringList(data, 'source', errors);
  if (source !== undefined && (source.length === 0 || source.every((form) => form === ''))) errors.source = ['This field may not be blank.'];
  if (!('target' in data)) {
    if (!isSource) errors.target = ['This field is required.'];
  } else {
    target = stringList(data, 'target', errors) ?? [];
    if (!isSource && !errors.target && target.every((form) => form === '')) errors.target = ['This field may not be blank.'];
  }
  if ('context' in data) context = text(data.context, 'context', errors) ?? '';
  if ('state' in data) state = stateChoice(data.state, errors);
  if (state === 100) errors.state = ['"100" is not a valid choice.'];
  if (Object.keys(errors).length > 0) throw new ApiValidationError(errors);
  return { source: source!, target, context, state };
}
