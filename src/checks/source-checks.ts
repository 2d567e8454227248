import { maxLengthLimit, measuredLength } from './engine';
import { checkFlag, type Flags } from './flags';
import { fluentInnerHtmlFails, fluentSyntaxFails } from './fluent-source';
import { FORMAT_EXTRACTORS } from './placeholders';

// Weblate's source checks (checks-suggestions-search.md §1.6): rules on the source string alone, evaluated on
// the unit of the source-language translation and stored there. Pure, like the translation engine. The batch
// source checks (`multiple_failures`, `long_untranslated`) look at the string's translations and live in
// src/sync/source-unit-checks.ts.

export interface SourceCheckUnit {
  /** Source plural forms (one element for a singular unit). */
  source: readonly string[];
  flags: Flags;
  /** Language code of the source ("en", "en_GB"). */
  sourceLanguage: string;
  /** The unit's key (Fluent: `id` for a value, `id.attribute` for an attribute). */
  context?: string;
}

/** The source checks computed component-wide from the string's translations (§1.6 "Batch"). */
export const BATCH_SOURCE_CHECKS: readonly string[] = ['multiple_failures', 'long_untranslated'];

/** A word character followed by "(s)" and then a non-word character or the end: "file(s)" (§1.6 optional_plural). */
const OPTIONAL_PLURAL = /[\p{L}\p{N}_]\(s\)(?![\p{L}\p{N}_])/u;

/** Formats whose placeholders can be positional: printf-like and Python brace (i18next and ICU name every argument). */
const POSITIONAL_FORMATS = ['python_format', 'c_format', 'javascript_format', 'php_format', 'python_brace_format'];

/** English sources leave room for longer translations: 85 % of `max-length` (§1.6 source-max-length). */
const ENGLISH_SOURCE_SHARE = 0.85;

const baseLanguage = (code: string): string => code.toLowerCase().split(/[_@-]/)[0];

/** The ids of the per-string source checks that fail, in check-list order. Batch source checks are not evaluated here. */
export function runSourceChecks(unit: SourceCheckUnit): string[] {
  const { flags } = unit;
  const failing: string[] = [];
  const forms = unit.source.filter((form) => form !== '');
  if (forms.length === 0) return failing;
  const test = (id: string, fails: () => boolean): void => {
    if (!flags.ignores(id) && fails()) failing.push(id);
  };
  test('ellipsis', () => forms.some((form) => form.includes('...')));
  // Only a string that is not plural already should use plural forms instead of "(s)".
  test('optional_plural', () => unit.source.length === 1 && OPTIONAL_PLURAL.test(unit.source[0]));
  test('unnamed_format', () => unnamedFormatFails(flags, forms));
  // Runs with the ICU format check and is switched off with it too (§1.6).
  if (flags.has('icu-message-format') && !flags.ignores('icu_message_format')) {
    test('icu_message_format_syntax', () => forms.some((form) => FORMAT_EXTRACTORS.icu_message_format(form).error !== undefined));
  }
  if (flags.has('max-length')) test('source-max-length', () => sourceMaxLengthFails(unit));
  // Off unless flagged (Weblate's default_disabled); the Fluent format sets both flags (check-list.ts).
  if (flags.has('fluent-source-syntax')) test('fluent-source-syntax', () => fluentSyntaxFails(unit.source[0]));
  if (flags.has('fluent-source-inner-html')) test('fluent-source-inner-html', () => fluentInnerHtmlFails(unit.source[0], unit.context ?? ''));
  return failing;
}

/** Two or more positional placeholders (`%s … %s`, `{} … {}`) of an enabled format: translators cannot reorder them (§1.6). */
function unnamedFormatFails(flags: Flags, forms: readonly string[]): boolean {
  return POSITIONAL_FORMATS.some((id) => {
    if (!flags.has(checkFlag(id))) return false;
    const extract = FORMAT_EXTRACTORS[id];
    // An incomplete directive (empty token) names no argument; it is not a variable.
    return forms.some((form) => extract(form).tokens.filter((token) => !token.named && token.text !== '').length >= 2);
  });
}

function sourceMaxLengthFails(unit: SourceCheckUnit): boolean {
  const limit = maxLengthLimit(unit.flags);
  // The max-length check reports an unparsable parameter on every translation; the source check does not repeat it.
  if (limit === null) return false;
  const threshold = baseLanguage(unit.sourceLanguage) === 'en' ? Math.floor(limit * ENGLISH_SOURCE_SHARE) : limit;
  return unit.source.some((form) => measuredLength(unit.flags, form) > threshold);
}
