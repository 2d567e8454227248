import { Flags } from './flags';

// Weblate's check ids, names and one-line descriptions (checks-suggestions-search.md §1.3–§1.6). The id is
// what check rows store, what `check:<id>` searches and component `enforced_checks` name; the flag forms
// (`_` → `-`) enable opt-in checks and, prefixed with `ignore-`, switch any check off.

/** A check id Weblate knows, with its name. */
export interface KnownCheck {
  id: string;
  name: string;
  /** In Weblate 4.18's list (the spec's era, §1.10); false for the checks added later. */
  weblate418: boolean;
}

export interface CheckDefinition {
  id: string;
  name: string;
  description: string;
}

/** Marks a check added after Weblate 4.18. */
const LATER = false;

const k = (id: string, name: string, weblate418 = true): KnownCheck => ({ id, name, weblate418 });

/**
 * Every check id Weblate knows ([latest] ids, §1.3–§1.6), including those Glossa does not evaluate, with
 * the names Weblate shows: the one list that component `enforced_checks` validation (the 4.18 ones,
 * src/modules/components/check-ids.ts), the checks Glossa evaluates and the names of stored checks draw from.
 */
export const WEBLATE_CHECKS: readonly KnownCheck[] = [
  k('same', 'Unchanged translation'),
  k('begin_newline', 'Starting newline'),
  k('end_newline', 'Trailing newline'),
  k('begin_space', 'Starting spaces'),
  k('end_space', 'Trailing space'),
  k('double_space', 'Double space'),
  k('end_stop', 'Mismatched full stop'),
  k('end_colon', 'Mismatched colon'),
  k('end_question', 'Mismatched question mark'),
  k('end_exclamation', 'Mismatched exclamation mark'),
  k('end_interrobang', 'Mismatched interrobang', LATER),
  k('end_ellipsis', 'Mismatched ellipsis'),
  k('end_semicolon', 'Mismatched semicolon'),
  k('escaped_newline', 'Mismatched \\n'),
  k('newline-count', 'Mismatching line breaks'),
  k('zero-width-space', 'Zero-width space'),
  k('kashida', 'Kashida letter used'),
  k('punctuation_spacing', 'Punctuation spacing'),
  k('multiple_capital', 'Multiple capitals', LATER),
  k('kabyle-characters', 'Non-standard characters in Kabyle', LATER),
  k('plurals', 'Missing plurals'),
  k('same-plurals', 'Same plurals'),
  k('duplicate', 'Consecutive duplicated words'),
  k('inconsistent', 'Inconsistent'),
  k('reused', 'Reused translation'),
  k('translated', 'Has been translated'),
  k('xml-invalid', 'XML syntax'),
  k('xml-tags', 'XML markup'),
  k('xml-chars-around-tags', 'Chars around XML tags', LATER),
  k('bbcode', 'BBCode markup'),
  k('max-length', 'Maximum length of translation'),
  k('max-lines', 'Maximum number of lines', LATER),
  k('max-size', 'Maximum size of translation'),
  k('placeholders', 'Placeholders'),
  k('regex', 'Regular expression'),
  k('url', 'URL'),
  k('safe-html', 'Unsafe HTML'),
  k('check_glossary', 'Does not follow glossary'),
  k('md-link', 'Markdown links'),
  k('md-reflink', 'Markdown references'),
  k('md-syntax', 'Markdown syntax'),
  k('rst-references', 'Inconsistent reStructuredText', LATER),
  k('rst-syntax', 'reStructuredText syntax error', LATER),
  k('asciidoc-markup', 'AsciiDoc markup', LATER),
  k('safe-mdx', 'Safe MDX', LATER),
  k('accelerator', 'Accelerator key', LATER),
  k('fluent-parts', 'Fluent parts', LATER),
  k('fluent-references', 'Fluent references', LATER),
  k('fluent-target-inner-html', 'Fluent translation inner HTML', LATER),
  k('fluent-target-syntax', 'Fluent translation syntax', LATER),
  k('prohibited_initial_character', 'Prohibited initial character', LATER),
  k('python_format', 'Python format'),
  k('python_brace_format', 'Python brace format'),
  k('php_format', 'PHP format'),
  k('c_format', 'C format'),
  k('objc_format', 'Objective-C format', LATER),
  k('perl_format', 'Perl format'),
  k('perl_brace_format', 'Perl brace format', LATER),
  k('javascript_format', 'JavaScript format'),
  k('lua_format', 'Lua format'),
  k('object_pascal_format', 'Object Pascal format'),
  k('scheme_format', 'Scheme format'),
  k('c_sharp_format', 'C# format'),
  k('laravel_format', 'Laravel format', LATER),
  k('java_printf_format', 'Java format'),
  k('java_format', 'Java MessageFormat'),
  k('percent_placeholders', 'Percent placeholders'),
  k('vue_format', 'Vue I18n formatting'),
  k('i18next_interpolation', 'i18next interpolation'),
  k('es_format', 'ECMAScript template literals'),
  k('automattic_components_format', 'Automattic components formatting', LATER),
  k('angularjs_format', 'AngularJS interpolation string'),
  k('icu_message_format', 'ICU MessageFormat'),
  k('qt_format', 'Qt format'),
  k('qt_plural_format', 'Qt plural format'),
  k('ruby_format', 'Ruby format'),
  k('ellipsis', 'Ellipsis'),
  k('optional_plural', 'Unpluralised'),
  k('multiple_failures', 'Multiple failing checks'),
  k('long_untranslated', 'Long untranslated'),
  k('unnamed_format', 'Multiple unnamed variables'),
  k('icu_message_format_syntax', 'ICU MessageFormat syntax'),
  k('fluent-source-syntax', 'Fluent source syntax', LATER),
  k('fluent-source-inner-html', 'Fluent source inner HTML', LATER),
  k('source-max-length', 'Source string length', LATER),
];

const KNOWN_BY_ID = new Map(WEBLATE_CHECKS.map((check) => [check.id, check]));

/** Every check id Weblate knows. */
export const WEBLATE_CHECK_IDS: readonly string[] = WEBLATE_CHECKS.map((check) => check.id);

/** A check id of Weblate 4.18's list (valid in component `enforced_checks`, as the spec era validates it). */
export function isWeblate418Check(id: string): boolean {
  return KNOWN_BY_ID.get(id)?.weblate418 === true;
}

/** A check Glossa evaluates: Weblate's id and name (from WEBLATE_CHECKS, so the two never disagree) and a description. */
function d(id: string, description: string): CheckDefinition {
  const known = KNOWN_BY_ID.get(id);
  if (known === undefined) throw new Error(`Unknown check id: ${id}`);
  return { id, name: known.name, description };
}

/** The checks Glossa evaluates, in the order they run and are listed. */
export const IMPLEMENTED_CHECKS: readonly CheckDefinition[] = [
  d('same', 'Source and translation are identical'),
  d('begin_newline', 'Source and translation do not both start with a newline'),
  d('end_newline', 'Source and translation do not both end with a newline'),
  d('begin_space', 'Source and translation do not both start with the same number of spaces'),
  d('end_space', 'Source and translation do not both end with a space'),
  d('double_space', 'Translation contains double space'),
  d('end_stop', 'Source and translation do not both end with a full stop'),
  d('end_colon', 'Source and translation do not both end with a colon'),
  d('end_question', 'Source and translation do not both end with a question mark'),
  d('end_exclamation', 'Source and translation do not both end with an exclamation mark'),
  d('end_ellipsis', 'Source and translation do not both end with an ellipsis'),
  d('end_semicolon', 'Source and translation do not both end with a semicolon'),
  d('escaped_newline', 'Number of \\n literals in translation does not match source'),
  d('newline-count', 'Number of new lines in translation does not match source'),
  d('zero-width-space', 'Translation contains extra zero-width space character'),
  d('plurals', 'Some plural forms are untranslated'),
  d('same-plurals', 'Some plural forms are translated in the same way'),
  d('xml-invalid', 'The translation is not valid XML'),
  d('xml-tags', 'XML tags in translation do not match source'),
  d('md-link', 'Markdown links do not match source'),
  d('md-syntax', 'Markdown syntax does not match source'),
  d('max-length', 'Translation should not exceed given length'),
  d('url', 'The translation has to be a URL'),
  d('safe-html', 'The translation uses unsafe HTML markup'),
  d('placeholders', 'Translation is missing some placeholders'),
  d('regex', 'Translation does not match regular expression'),
  d('python_format', 'Python format string does not match source'),
  d('python_brace_format', 'Python brace format string does not match source'),
  d('php_format', 'PHP format string does not match source'),
  d('c_format', 'C format string does not match source'),
  d('javascript_format', 'JavaScript format string does not match source'),
  d('i18next_interpolation', 'The i18next interpolation does not match source'),
  d('icu_message_format', 'Syntax errors and/or placeholder mismatches in ICU MessageFormat strings'),
  d('inconsistent', 'This string has more than one translation in this project or is untranslated in some components'),
];

/** The source checks Glossa evaluates (§1.6), stored on source units, in the order they run and are listed. */
export const IMPLEMENTED_SOURCE_CHECKS: readonly CheckDefinition[] = [
  d('ellipsis', 'The string uses three dots (...) instead of an ellipsis character (…)'),
  d('optional_plural', 'The string is used as plural, but not using plural forms'),
  d('unnamed_format', 'There are multiple unnamed variables in the string, making it impossible for translators to reorder them'),
  d('icu_message_format_syntax', 'Syntax errors in ICU MessageFormat strings'),
  d('source-max-length', 'The source string is longer than its translations may be (max-length)'),
  d('fluent-source-syntax', 'Fluent syntax error in source'),
  d('fluent-source-inner-html', 'Fluent source should be valid inner HTML'),
  d('multiple_failures', 'The translations in several languages have failing checks'),
  d('long_untranslated', 'The string has not been translated for a long time'),
];

/** Translation checks, then source checks: the order a unit's checks are listed in. */
export const LISTED_CHECKS: readonly CheckDefinition[] = [...IMPLEMENTED_CHECKS, ...IMPLEMENTED_SOURCE_CHECKS];

const BY_ID = new Map(LISTED_CHECKS.map((check) => [check.id, check]));

/** Name and description of a stored check id (other Weblate ids get their name and no description, unknown ids their id). */
export function describeCheck(id: string): CheckDefinition {
  return BY_ID.get(id) ?? { id, name: KNOWN_BY_ID.get(id)?.name ?? id, description: '' };
}

/** Flags file formats add to every unit (§2.3), for the formats Glossa reads. */
export const FORMAT_DEFAULT_FLAGS: Readonly<Record<string, string>> = {
  i18next: 'i18next-interpolation',
  i18nextv4: 'i18next-interpolation',
  arb: 'icu-message-format',
  // Weblate's Fluent format turns on its fluent-* checks (§2.3); Glossa evaluates the two source checks.
  fluent: 'fluent-source-syntax, fluent-source-inner-html',
};

/** Bounds the memory of effectiveFlags' cache; a full cache starts over (distinct flag strings are few). */
const MERGED_FLAGS_CACHE_SIZE = 10_000;
const mergedFlagsCache = new Map<string, Flags>();

/**
 * A unit's effective flags, merged in Weblate's order (§2.2): format defaults, component `check_flags`, the
 * file's unit flags, the source string's `extra_flags`, the unit's own `extra_flags`.
 */
export function effectiveFlags(fileFormat: string, checkFlags: string, unitFlags: string, sourceExtraFlags: string, extraFlags: string): Flags {
  // The units of a component mostly share their flag strings: one Flags object per distinct combination
  // (Flags is immutable) also lets the engine compute each set of enabled checks once (engine.ts).
  const key = `${fileFormat}\u0000${checkFlags}\u0000${unitFlags}\u0000${sourceExtraFlags}\u0000${extraFlags}`;
  let flags = mergedFlagsCache.get(key);
  if (flags === undefined) {
    if (mergedFlagsCache.size >= MERGED_FLAGS_CACHE_SIZE) mergedFlagsCache.clear();
    flags = Flags.merge(FORMAT_DEFAULT_FLAGS[fileFormat], checkFlags, unitFlags, sourceExtraFlags, extraFlags);
    mergedFlagsCache.set(key, flags);
  }
  return flags;
}

