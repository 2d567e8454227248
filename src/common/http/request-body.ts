import { ApiError } from './api-errors';

/*
 * Request bodies as Django REST framework's default parsers give them to a view (issue 12 item 1): JSON,
 * `application/x-www-form-urlencoded` and `multipart/form-data` on every write. A form body is a QueryDict
 * (every key may repeat); handlers get one plain object for all three, so a route reads a JSON body and a
 * form body alike:
 *
 *  - a key sent once is its string, a repeated key the array of its values (QueryDict.getlist); what DRF's
 *    fields read from it (the last value for a scalar field, the list for a list field) is drf-fields.ts;
 *  - `a.b=1` keys become the nested object `{a: {b: "1"}}`, as DRF's parse_html_dict reads nested
 *    serializers from form input (brackets, `a[b]=1`, are not DRF syntax and stay literal keys);
 *  - file parts of a multipart body are not kept: the file-upload routes parse their own multipart bodies
 *    (multer, with the upload limits of src/modules/translations/upload-limits.ts) and are skipped
 *    (multipart-body.interceptor.ts).
 *
 * Every object of a form body carries FORM_BODY (not enumerable), so fields can tell a form value from JSON
 * (DRF: a ListField takes a single form value as a one-item list, a JSON string is "not a list").
 */

export const FORM_BODY = Symbol('glossa.formBody');

/** One form body's values: key → every value in order (Django's QueryDict). */
export type QueryDictValues = Map<string, string[]>;

/** Whether `value` is (part of) a body parsed from a form rather than from JSON. */
export function isFormBody(value: unknown): boolean {
  return value !== null && typeof value === 'object' && (value as Record<symbol, unknown>)[FORM_BODY] === true;
}

function markForm<T extends object>(target: T): T {
  Object.defineProperty(target, FORM_BODY, { value: true, enumerable: false });
  return target;
}

/** The handlers' view of a QueryDict: strings, arrays for repeated keys, dotted keys nested. */
export function formBodyOf(values: QueryDictValues): Record<string, unknown> {
  const body = markForm(Object.create(null) as Record<string, unknown>);
  for (const [key, list] of values) {
    const value = list.length === 1 ? list[0] : [...list];
    const dot = key.indexOf('.');
    if (dot <= 0 || dot === key.length - 1) {
      body[key] = value;
      continue;
    }
    // parse_html_dict: `prefix.rest` belongs to the nested object `prefix` (one level, as DRF nests by field).
    const prefix = key.slice(0, dot);
    const existing = body[prefix];
    const nested = isFormBody(existing) ? (existing as Record<string, unknown>) : markForm(Object.create(null) as Record<string, unknown>);
    if (existing !== undefined && !isFormBody(existing)) {
      // A plain `prefix` value and `prefix.x` keys: keep the plain value, as DRF reads the field from its own key first.
      body[key] = value;
      continue;
    }
    nested[key.slice(dot + 1)] = value;
    body[prefix] = nested;
  }
  return body;
}

/** Appends one field to a QueryDict. */
function append(values: QueryDictValues, key: string, value: string): void {
  const list = values.get(key);
  if (list) list.push(value);
  else values.set(key, [value]);
}

/** Django's DATA_UPLOAD_MAX_NUMBER_FIELDS: more fields in a urlencoded body are refused. */
export const MAX_FORM_FIELDS = 1000;

/** Parses a urlencoded body text into a QueryDict (the URL standard's parser: `+` is a space). */
export function parseUrlencoded(text: string, maxFields: number = MAX_FORM_FIELDS): QueryDictValues {
  const values: QueryDictValues = new Map();
  const params = new URLSearchParams(text);
  let count = 0;
  for (const [key, value] of params) {
    if (++count > maxFields) throw new ApiError(400, `Too many form fields: at most ${maxFields}.`);
    append(values, key, value);
  }
  return values;
}

/** A QueryDict from the values of a parsed form: strings, and arrays of strings for repeated keys. */
export function queryDictOf(fields: Record<string, unknown>): QueryDictValues {
  const values: QueryDictValues = new Map();
  for (const [key, value] of Object.entries(fields)) {
    if (typeof value === 'string') values.set(key, [value]);
    else if (Array.isArray(value) && value.every((item) => typeof item === 'string')) values.set(key, [...(value as string[])]);
    // Anything else came from bracket syntax (`a[b]=1`), which DRF reads as a literal key no field names.
  }
  return values;
}
