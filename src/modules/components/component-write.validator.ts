import type { FieldErrors } from '../../common/http/api-errors';
import { type DrfRule, formFieldValue } from '../../common/http/drf-fields';
import { isFormBody } from '../../common/http/request-body';
import { assertFilemaskAllowed, compileLanguageRegex } from '../../vcs/filemask';
import { checkRepositoryHost, type HostLookup, type RepositoryHostPolicy } from '../../vcs/repository-host-policy';
import { assertBranchNameAllowed, assertRepositoryUrlAllowed } from '../../vcs/repository-url-policy';
import { assertSafeRelativePath } from '../../vcs/safe-path';
import { SLUG_PATTERN } from '../projects/dto/project-write.dto';
import { isKnownCheck } from './check-ids';
import type { ComponentSettingDefaults } from './component-defaults';

// Field validation of a component write body (POST …/components/, PUT and PATCH of a component) the way
// Weblate's ComponentSerializer does it (weblate-api.md §6.3, §10.11, §10.13): Django REST framework field
// semantics (coercion of "true"/"1", trimmed strings, one message per field, DRF's texts), unknown and
// read-only keys ignored, so a GET body modified and sent back with PUT works. It is written out rather
// than declared with class-validator because `source_language` is either a code or an object, and DRF
// reports only the first failure of each field. Checks that need the database (language exists, unique
// name/slug, project instructions) are the service's.

/** POST creates, PUT replaces (required fields required, others kept), PATCH updates any subset. */
export type ComponentWriteMode = 'create' | 'replace' | 'update';

/** Validated values keyed by wire name; `source_language` is the language code asked for. */
export type ComponentWriteValues = Partial<ComponentSettingDefaults> & {
  name?: string;
  slug?: string;
  repo?: string;
  filemask?: string;
  file_format?: string;
  source_language?: string;
};

export interface ComponentWriteContext {
  /** Registered `file_format` ids (src/formats/format.registry.ts). */
  fileFormats: readonly string[];
  allowLocalRepositories: boolean;
}

export interface ComponentWriteResult {
  values: ComponentWriteValues;
  errors: FieldErrors;
}

const REQUIRED = 'This field is required.';
const NOT_NULL = 'This field may not be null.';
const BLANK = 'This field may not be blank.';
const SLUG_MESSAGE = 'Enter a valid “slug” consisting of letters, numbers, underscores or hyphens.';

/** Enumerations of weblate-api.md §8.7, §8.8, §8.11. Only git is available as `vcs` here. */
export const VCS_CHOICES = ['git'] as const;
export const NEW_LANG_CHOICES = ['contact', 'url', 'add', 'none'] as const;
export const MERGE_STYLE_CHOICES = ['merge', 'rebase', 'merge_noff'] as const;
export const PRIORITY_CHOICES = [60, 80, 100, 120, 140] as const;
export const LANGUAGE_CODE_STYLE_CHOICES = [
  '', 'posix', 'posix_lowercase', 'bcp', 'posix_long', 'posix_long_lowercase', 'bcp_long', 'bcp_legacy', 'bcp_lower',
  'android', 'appstore', 'googleplay', 'linux', 'linux_lowercase',
] as const;
export const GLOSSARY_COLOR_CHOICES = [
  'navy', 'blue', 'aqua', 'teal', 'olive', 'green', 'lime', 'yellow', 'orange', 'red', 'maroon', 'fuchsia', 'purple',
  'black', 'gray', 'silver',
] as const;

type Check<T> = (value: T, context: ComponentWriteContext) => string | null;

type FieldSpec =
  | { kind: 'string'; required?: boolean; blank?: boolean; max?: number; check?: Check<string> }
  | { kind: 'boolean' }
  | { kind: 'integer'; min: number; max: number; check?: Check<number> }
  | { kind: 'choice'; choices: readonly (string | number)[] | ((context: ComponentWriteContext) => readonly string[]); required?: boolean }
  | { kind: 'list' }
  | { kind: 'language' };

const text = (max: number | undefined, options: { required?: boolean; blank?: boolean; check?: Check<string> } = {}): FieldSpec => ({
  kind: 'string',
  max,
  blank: options.blank ?? true,
  required: options.required,
  check: options.check,
});

const relativePath: Check<string> = (value) => (value === '' ? null : messageOf(() => assertSafeRelativePath(value)));
const regex: Check<string> = (value) =>
  value === '' ? null : messageOf(() => compileLanguageRegex(value), (error) => `Compilation failed: ${error}`);
const repositoryUrl: Check<string> = (value, context) =>
  value === '' ? null : messageOf(() => assertRepositoryUrlAllowed(value, { allowLocal: context.allowLocalRepositories }));
const branchName: Check<string> = (value) => (value === '' ? null : messageOf(() => assertBranchNameAllowed(value)));

/** Every writable field of weblate-api.md §6.3 (4.x), in serializer order. Lengths follow the entity. */
const FIELDS: Record<string, FieldSpec> = {
  name: text(100, { required: true, blank: false }),
  slug: text(100, { required: true, blank: false, check: (value) => (SLUG_PATTERN.test(value) ? null : SLUG_MESSAGE) }),
  source_language: { kind: 'language' },
  vcs: { kind: 'choice', choices: VCS_CHOICES },
  repo: text(300, { required: true, blank: false, check: repositoryUrl }),
  git_export: text(220),
  branch: text(200, { check: branchName }),
  push_branch: text(200, { check: branchName }),
  filemask: text(400, {
    required: true,
    blank: false,
    check: (value) =>
      value.includes('*') ? messageOf(() => assertFilemaskAllowed(value)) : 'File mask does not contain * as a language placeholder!',
  }),
  screenshot_filemask: text(400, { check: relativePath }),
  template: text(400, { check: relativePath }),
  edit_template: { kind: 'boolean' },
  intermediate: text(400, { check: relativePath }),
  new_base: text(400, { check: relativePath }),
  file_format: { kind: 'choice', choices: (context) => context.fileFormats, required: true },
  license: text(150),
  agreement: text(undefined),
  new_lang: { kind: 'choice', choices: NEW_LANG_CHOICES },
  language_code_style: { kind: 'choice', choices: LANGUAGE_CODE_STYLE_CHOICES },
  push: text(300, { check: repositoryUrl }),
  check_flags: text(undefined),
  priority: { kind: 'choice', choices: PRIORITY_CHOICES },
  enforced_checks: { kind: 'list' },
  restricted: { kind: 'boolean' },
  repoweb: text(200),
  report_source_bugs: text(254, {
    check: (value) => (value === '' || /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value) ? null : 'Enter a valid email address.'),
  }),
  merge_style: { kind: 'choice', choices: MERGE_STYLE_CHOICES },
  commit_message: text(undefined, { blank: false }),
  add_message: text(undefined, { blank: false }),
  delete_message: text(undefined, { blank: false }),
  merge_message: text(undefined, { blank: false }),
  addon_message: text(undefined, { blank: false }),
  pull_message: text(undefined, { blank: false }),
  allow_translation_propagation: { kind: 'boolean' },
  manage_units: { kind: 'boolean' },
  enable_suggestions: { kind: 'boolean' },
  suggestion_voting: { kind: 'boolean' },
  suggestion_autoaccept: {
    kind: 'integer',
    min: 0,
    max: 32767,
    check: (value) => (value === 1 ? 'A value of 1 is not allowed.' : null),
  },
  push_on_commit: { kind: 'boolean' },
  commit_pending_age: { kind: 'integer', min: 0, max: 2160 },
  auto_lock_error: { kind: 'boolean' },
  language_regex: text(500, { check: regex }),
  variant_regex: text(190, { check: regex }),
  is_glossary: { kind: 'boolean' },
  glossary_color: { kind: 'choice', choices: GLOSSARY_COLOR_CHOICES },
};

/** Write-only (weblate-api.md §6.3): accepted and validated; nothing to store, Glossa does not auto-share. */
const WRITE_ONLY_BOOLEANS = ['disable_autoshare'];

const TRUE_VALUES = new Set<unknown>(['t', 'T', 'y', 'Y', 'yes', 'Yes', 'YES', 'true', 'True', 'TRUE', 'on', 'On', 'ON', '1', 1, true]);
const FALSE_VALUES = new Set<unknown>(['f', 'F', 'n', 'N', 'no', 'No', 'NO', 'false', 'False', 'FALSE', 'off', 'Off', 'OFF', '0', 0, false]);

/** DRF BooleanField: the spellings above, anything else is invalid. */
export function parseDrfBoolean(value: unknown): boolean | undefined {
  if (TRUE_VALUES.has(value)) return true;
  if (FALSE_VALUES.has(value)) return false;
  return undefined;
}

export function validateComponentWrite(body: unknown, mode: ComponentWriteMode, context: ComponentWriteContext): ComponentWriteResult {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    const got = Array.isArray(body) ? 'list' : body === null ? 'NoneType' : typeof body;
    return { values: {}, errors: { non_field_errors: [`Invalid data. Expected a dictionary, but got ${got}.`] } };
  }
  const input = isFormBody(body) ? formInput(body as Record<string, unknown>) : (body as Record<string, unknown>);
  const values: Record<string, unknown> = {};
  const errors: FieldErrors = {};
  for (const [field, spec] of Object.entries(FIELDS)) {
    const present = Object.prototype.hasOwnProperty.call(input, field) && input[field] !== undefined;
    if (!present) {
      const required = (spec.kind === 'string' || spec.kind === 'choice') && spec.required === true;
      if (required && mode !== 'update') errors[field] = [REQUIRED];
      continue;
    }
    const outcome = validateField(spec, input[field], context);
    if ('error' in outcome) {
      errors[field] = typeof outcome.error === 'string' ? [outcome.error] : outcome.error;
    } else {
      values[field] = outcome.value;
    }
  }
  for (const field of WRITE_ONLY_BOOLEANS) {
    if (input[field] !== undefined && parseDrfBoolean(input[field]) === undefined) errors[field] = ['Must be a valid boolean.'];
  }
  // Weblate turns units management on when a template is given and the request is silent about it (§6.3).
  if (!Object.prototype.hasOwnProperty.call(input, 'manage_units') && typeof values.template === 'string' && values.template !== '') {
    values.manage_units = true;
  }
  return { values: values as ComponentWriteValues, errors };
}

/**
 * A form body (request-body.ts) read as DRF's fields read a QueryDict: the list field takes every value,
 * the others the last one, and an empty optional value is absent (drf-fields.ts formFieldValue).
 */
function formInput(body: Record<string, unknown>): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) {
    const spec = (FIELDS as Record<string, FieldSpec | undefined>)[key];
    const rule: DrfRule =
      spec?.kind === 'list' ? { type: 'list' } : spec?.kind === 'language' ? { type: 'string', required: true } : { type: 'string', required: spec !== undefined && 'required' in spec && spec.required === true, allowBlank: spec?.kind === 'string' && spec.blank === true };
    input[key] = spec?.kind === 'language' && isFormBody(value) ? value : formFieldValue(rule, value);
  }
  return input;
}

/** The URL fields git connects to; their hosts are checked once the fields themselves are valid. */
const NETWORK_URL_FIELDS = ['repo', 'push'] as const;

/**
 * Refuses `repo`/`push` values whose host is (or resolves to) a non-public address the policy does not
 * allow (issue 10 item 6): `{"repo": ["…"]}`, as the URL policy's own errors. A name that does not resolve
 * now is accepted: the check is repeated before every fetch and push, where it is refused. `changed` limits
 * the check to the fields a PUT or PATCH actually changes, so an edit of another field never fails on them.
 */
export async function repositoryHostErrors(
  values: ComponentWriteValues,
  policy: RepositoryHostPolicy,
  options: { lookup?: HostLookup; changed?: (field: 'repo' | 'push') => boolean } = {},
): Promise<FieldErrors> {
  const errors: FieldErrors = {};
  for (const field of NETWORK_URL_FIELDS) {
    const value = values[field];
    if (!value || (options.changed && !options.changed(field))) continue;
    const problem = await checkRepositoryHost(value, policy, { lookup: options.lookup, unresolved: 'accept' }).then(
      () => null,
      (error: Error) => error.message,
    );
    if (problem !== null) errors[field] = [problem];
  }
  return errors;
}

type FieldOutcome = { value: unknown } | { error: string | Record<string, string[]> };

function validateField(spec: FieldSpec, raw: unknown, context: ComponentWriteContext): FieldOutcome {
  if (raw === null) return spec.kind === 'language' ? { error: { non_field_errors: [NOT_NULL] } } : { error: NOT_NULL };
  switch (spec.kind) {
    case 'string': {
      // DRF CharField: numbers are turned into text, booleans and structures are not; whitespace is trimmed.
      if (typeof raw !== 'string' && typeof raw !== 'number') return { error: 'Not a valid string.' };
      const value = String(raw).trim();
      if (value === '') return spec.blank ? { value } : { error: BLANK };
      if (spec.max !== undefined && [...value].length > spec.max) {
        return { error: `Ensure this field has no more than ${spec.max} characters.` };
      }
      const problem = spec.check?.(value, context) ?? null;
      return problem === null ? { value } : { error: problem };
    }
    case 'boolean': {
      const value = parseDrfBoolean(raw);
      return value === undefined ? { error: 'Must be a valid boolean.' } : { value };
    }
    case 'integer': {
      const value = parseDrfInteger(raw);
      if (value === undefined) return { error: 'A valid integer is required.' };
      if (value > spec.max) return { error: `Ensure this value is less than or equal to ${spec.max}.` };
      if (value < spec.min) return { error: `Ensure this value is greater than or equal to ${spec.min}.` };
      const problem = spec.check?.(value, context) ?? null;
      return problem === null ? { value } : { error: problem };
    }
    case 'choice': {
      // DRF ChoiceField compares the text of the input with the text of each choice.
      const choices = typeof spec.choices === 'function' ? spec.choices(context) : spec.choices;
      const match = typeof raw === 'string' || typeof raw === 'number' ? choices.find((choice) => String(choice) === String(raw)) : undefined;
      return match === undefined ? { error: `"${displayValue(raw)}" is not a valid choice.` } : { value: match };
    }
    case 'list': {
      if (!Array.isArray(raw) || raw.some((item) => typeof item !== 'string')) return { error: 'Enforced checks has to be a list.' };
      // Weblate's validate_enforced_checks: every item must be a known check id, the first unknown one is named.
      const unknown = (raw as string[]).find((item) => !isKnownCheck(item));
      if (unknown !== undefined) return { error: `Unsupported enforced check: ${unknown}` };
      return { value: [...(raw as string[])] };
    }
    case 'language': {
      // `"en"` or `{"code": "en"}` (weblate-api.md §6.3); other keys of a full language object are ignored.
      if (typeof raw === 'string') return raw.trim() === '' ? { error: { code: [BLANK] } } : { value: raw.trim() };
      if (typeof raw !== 'object' || Array.isArray(raw)) {
        return { error: { non_field_errors: [`Invalid data. Expected a dictionary, but got ${Array.isArray(raw) ? 'list' : pythonType(raw)}.`] } };
      }
      const code = (raw as Record<string, unknown>).code;
      if (code === undefined) return { error: { code: [REQUIRED] } };
      if (typeof code !== 'string') return { error: { code: ['Not a valid string.'] } };
      return code.trim() === '' ? { error: { code: [BLANK] } } : { value: code.trim() };
    }
  }
}

/** DRF IntegerField: integers, integral floats and their decimal spellings (`"5"`, `"5.0"`). */
function parseDrfInteger(raw: unknown): number | undefined {
  if (typeof raw === 'number') return Number.isInteger(raw) ? raw : undefined;
  if (typeof raw === 'string' && /^\s*-?\d+(\.0*)?\s*$/.test(raw)) return Number.parseInt(raw, 10);
  return undefined;
}

function displayValue(raw: unknown): string {
  if (typeof raw === 'boolean') return raw ? 'True' : 'False';
  return typeof raw === 'object' ? JSON.stringify(raw) : String(raw);
}

function pythonType(raw: unknown): string {
  if (typeof raw === 'number') return Number.isInteger(raw) ? 'int' : 'float';
  if (typeof raw === 'boolean') return 'bool';
  return typeof raw;
}

/** Runs a throwing check and returns its message (policy errors are written to be shown to users). */
function messageOf(check: () => unknown, format: (message: string) => string = (message) => message): string | null {
  try {
    check();
    return null;
  } catch (error) {
    return format(error instanceof Error ? error.message : String(error));
  }
}
