import { applyDecorators } from '@nestjs/common';
import { Transform, Type } from 'class-transformer';
import { ValidateBy, ValidateNested } from 'class-validator';
import { isFormBody } from './request-body';

/**
 * One request field validated the way a Django REST framework serializer field validates it, with DRF's
 * exact messages and one message per failure (weblate-api.md §4.3: `{"field": ["message"]}`). Stacking
 * class-validator's own decorators would report several messages for one bad value ("must be a string"
 * and "should not be empty") in class-validator's wording.
 *
 * Values arrive as JSON or as form fields (strings, request-body.ts), so integers, booleans and choices are
 * converted the way DRF's to_internal_value converts them before they are checked; a value that does not
 * convert is left alone and rejected with DRF's message. What a field reads from a form body is what DRF's
 * get_value reads from a QueryDict (formFieldValue): the last value of a repeated key, every value for a
 * list field (so one value is a one-item list), nothing for an empty optional value.
 */
export type DrfRule =
  | { type: 'string'; required?: boolean; allowBlank?: boolean; maxLength?: number; check?: (value: string) => string | null }
  | { type: 'integer'; required?: boolean; min?: number; max?: number }
  | { type: 'boolean'; required?: boolean }
  | { type: 'choice'; required?: boolean; choices: readonly (string | number)[] }
  /** ListField / many=True related fields: a JSON array, or every value of a form key. */
  | { type: 'list'; required?: boolean; child?: DrfRule; maxItems?: number }
  /** A nested serializer: only presence is checked here; use NestedDrfObject for the rest. */
  | { type: 'object'; required?: boolean };

// DRF BooleanField.TRUE_VALUES / FALSE_VALUES.
const TRUE_VALUES = new Set<unknown>(['t', 'T', 'y', 'Y', 'yes', 'Yes', 'YES', 'true', 'True', 'TRUE', 'on', 'On', 'ON', '1', 1, true]);
const FALSE_VALUES = new Set<unknown>(['f', 'F', 'n', 'N', 'no', 'No', 'NO', 'false', 'False', 'FALSE', 'off', 'Off', 'OFF', '0', 0, false]);

/**
 * What DRF's Field.get_value reads for `rule` from a form body's value (a string, or an array for a
 * repeated key): a list field takes every value; other fields the last one (QueryDict.__getitem__); an
 * empty value of an optional field that cannot be blank counts as absent.
 */
export function formFieldValue(rule: DrfRule, value: unknown): unknown {
  if (rule.type === 'list') return value === undefined ? undefined : Array.isArray(value) ? value : [value];
  const single = Array.isArray(value) ? value[value.length - 1] : value;
  // A nested serializer reads only `field.key` keys (nested by request-body.ts); a plain value is not it.
  if (rule.type === 'object') return typeof single === 'string' ? undefined : single;
  const blankAllowed = rule.type === 'string' && rule.allowBlank === true;
  if (single === '' && !rule.required && !blankAllowed) return undefined;
  return single;
}

/** Reads one field of a request body (JSON or form) as DRF's get_value does, before conversion. */
export function bodyFieldValue(body: unknown, key: string, rule: DrfRule): unknown {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return undefined;
  const value = (body as Record<string, unknown>)[key];
  return isFormBody(body) ? formFieldValue(rule, value) : value;
}

/** DRF's to_internal_value conversion; values it cannot convert are returned unchanged. */
export function convertDrfValue(rule: DrfRule, value: unknown): unknown {
  switch (rule.type) {
    case 'integer':
      // IntegerField: int(re_decimal.sub('', str(data))): "3", " 3 ", "3.0" and 3.0 are 3; 3.5 and True are not.
      if (typeof value === 'number') return Number.isInteger(value) ? value : value;
      return typeof value === 'string' && /^\s*-?\d+(\.0*)?\s*$/.test(value) ? Number.parseInt(value, 10) : value;
    case 'boolean':
      if (TRUE_VALUES.has(value)) return true;
      if (FALSE_VALUES.has(value)) return false;
      return value;
    case 'choice': {
      // DRF compares choices by their string form, so 10 and "10" both select the integer choice 10.
      const match = rule.choices.find((choice) => String(choice) === String(value));
      return match === undefined || typeof value === 'object' ? value : match;
    }
    case 'string':
      // CharField accepts numbers and stringifies them; booleans, lists and objects are "Not a valid string."
      return typeof value === 'number' ? String(value) : value;
    case 'list':
      return Array.isArray(value) && rule.child ? value.map((item) => convertDrfValue(rule.child!, item)) : value;
    default:
      return value;
  }
}

/** DRF's message for an already converted value, or null when it is valid. */
export function drfFieldError(rule: DrfRule, value: unknown): string | null {
  if (value === undefined) return rule.required ? 'This field is required.' : null;
  if (value === null) return rule.type === 'object' ? null : 'This field may not be null.';
  switch (rule.type) {
    case 'string': {
      if (typeof value !== 'string') return 'Not a valid string.';
      if (!rule.allowBlank && value.trim() === '') return 'This field may not be blank.';
      if (rule.maxLength !== undefined && value.length > rule.maxLength) {
        return `Ensure this field has no more than ${rule.maxLength} characters.`;
      }
      return rule.check?.(value) ?? null;
    }
    case 'integer': {
      if (typeof value !== 'number' || !Number.isSafeInteger(value)) return 'A valid integer is required.';
      if (rule.min !== undefined && value < rule.min) return `Ensure this value is greater than or equal to ${rule.min}.`;
      if (rule.max !== undefined && value > rule.max) return `Ensure this value is less than or equal to ${rule.max}.`;
      return null;
    }
    case 'boolean':
      return typeof value === 'boolean' ? null : 'Must be a valid boolean.';
    case 'choice':
      return rule.choices.includes(value as string | number) ? null : `"${String(value)}" is not a valid choice.`;
    case 'list': {
      if (!Array.isArray(value)) return `Expected a list of items but got type "${pythonTypeName(value)}".`;
      if (rule.maxItems !== undefined && value.length > rule.maxItems) return `Ensure this field has no more than ${rule.maxItems} elements.`;
      for (const item of value) {
        const error = rule.child ? drfFieldError({ ...rule.child, required: true }, item) : null;
        if (error !== null) return error;
      }
      return null;
    }
    case 'object':
      return null;
  }
}

function pythonTypeName(value: unknown): string {
  if (value === null) return 'NoneType';
  if (typeof value === 'string') return 'str';
  if (typeof value === 'object' && !Array.isArray(value)) return 'dict';
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int' : 'float';
  if (Array.isArray(value)) return 'list';
  return typeof value;
}

/** The property decorator: DRF conversion, then DRF validation with a single message. */
export function DrfField(rule: DrfRule): PropertyDecorator {
  return applyDecorators(
    Transform(({ value, obj }) => convertDrfValue(rule, isFormBody(obj) ? formFieldValue(rule, value) : value)),
    ValidateBy({
      name: `drf${rule.type}`,
      validator: {
        validate: (value: unknown) => drfFieldError(rule, value) === null,
        defaultMessage: (args) => drfFieldError(rule, args?.value) ?? '',
      },
    }),
  );
}

/**
 * A nested serializer field: presence (DrfField), then the nested DTO's own fields, which appear as
 * `{"field": {"nested": ["message"]}}`; a value that is not an object gets DRF's "Expected a dictionary".
 */
export function NestedDrfObject(dto: () => new () => object, options: { required?: boolean } = {}): PropertyDecorator {
  return applyDecorators(
    DrfField({ type: 'object', required: options.required }),
    ValidateNested({
      message: (args) => (args.value === null ? 'This field may not be null.' : `Invalid data. Expected a dictionary, but got ${pythonTypeName(args.value)}.`),
    }),
    Type(dto),
  );
}

/** Django's EmailValidator, simplified: one `@`, a dotted domain, no spaces (message as in DRF EmailField). */
export function checkEmail(value: string): string | null {
  return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value) ? null : 'Enter a valid email address.';
}

/** Query parameters may repeat (`?id=1&id=2`); Django's QueryDict.get() uses the last value. */
export function lastQueryValue(value: unknown): string | undefined {
  if (Array.isArray(value)) return lastQueryValue(value[value.length - 1]);
  return typeof value === 'string' ? value : undefined;
}
