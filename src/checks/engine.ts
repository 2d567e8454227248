import { IMPLEMENTED_CHECKS } from './check-list';
import { checkFlag, Flags } from './flags';
import { FORMAT_EXTRACTORS, compareTokens, type Token } from './placeholders';
import { safeHtmlApplies, sanitizeHtml } from './safe-html';
import { boundedSubject, compileSafeRegex, UnsafeRegexError } from './safe-regex';
import { PAIR_CHECKS, isValidUrl, markdownLinks, markdownSyntax, sameIsAcceptable, xmlElements } from './text-checks';

// The check engine: which of Weblate's translation checks fail for one unit (checks-suggestions-search.md
// §1.2–§1.9). Pure: no I/O, the caller gives the unit's texts, state, merged flags and languages.

export interface CheckUnit {
  /** Source plural forms (one element for a singular unit). */
  source: readonly string[];
  target: readonly string[];
  state: number;
  flags: Flags;
  /** Language codes as Glossa stores them ("pt_BR", "en"). */
  language: string;
  sourceLanguage: string;
  /**
   * For `inconsistent` (a project-wide batch check): the targets the same string (source + context) has in
   * the same language in the project's other components, translated ones only. Absent: not evaluated.
   */
  otherTranslations?: readonly string[];
}

/** Opt-in checks and the flag that switches each on (§1.4, §1.5). */
const OPT_IN: Readonly<Record<string, (flags: Flags) => boolean>> = {
  'max-length': (f) => f.has('max-length'),
  url: (f) => f.has('url'),
  'safe-html': (f) => f.has('safe-html') || f.has('auto-safe-html'),
  placeholders: (f) => f.has('placeholders'),
  regex: (f) => f.has('regex'),
  'md-link': (f) => f.has('md-text'),
  'md-syntax': (f) => f.has('md-text'),
};

const PAIR_CHECK_LIST = Object.entries(PAIR_CHECKS);
const FORMAT_IDS = Object.keys(FORMAT_EXTRACTORS);
const ALL_IDS = IMPLEMENTED_CHECKS.map((check) => check.id);
const enabledCache = new WeakMap<Flags, ReadonlySet<string>>();

/** The checks a set of flags leaves on: not ignored, and switched on when opt-in. Units share Flags objects, so this is computed once per distinct flags. */
function enabledChecks(flags: Flags): ReadonlySet<string> {
  let enabled = enabledCache.get(flags);
  if (enabled === undefined) {
    enabled = new Set(
      ALL_IDS.filter((id) => !flags.ignores(id) && (OPT_IN[id] === undefined || OPT_IN[id](flags)) && (!(id in FORMAT_EXTRACTORS) || flags.has(checkFlag(id)))),
    );
    enabledCache.set(flags, enabled);
  }
  return enabled;
}

const baseLanguage = (code: string): string => code.toLowerCase().split(/[_@-]/)[0];

/**
 * The ids of the checks that fail, in IMPLEMENTED_CHECKS order. Empty, read-only and source-language units
 * are not checked (§1.2), except `inconsistent`, which also runs on untranslated units.
 */
export function runChecks(unit: CheckUnit): string[] {
  const { flags } = unit;
  const failing: string[] = [];
  const enabledIds = enabledChecks(flags);
  const enabled = (id: string): boolean => enabledIds.has(id);
  const language = baseLanguage(unit.language);
  if (unit.state === 100 || flags.has('read-only')) return failing;
  const checked = unit.state !== 0 && unit.target.some((form) => form !== '');
  if (checked) {
    const pairs = unit.target.map((target, index) => ({ source: pairedSource(unit.source, index), target }));
    const test = (id: string, fails: () => boolean): void => {
      if (enabled(id) && fails()) failing.push(id);
    };
    test('same', () => sameFails(unit, pairs, language));
    for (const [id, check] of PAIR_CHECK_LIST) {
      test(id, () => pairs.some((pair) => pair.target !== '' && check(pair.source, pair.target, { language })));
    }
    const plural = unit.source.length > 1;
    test('plurals', () => plural && unit.target.some((form) => form === '') && unit.target.some((form) => form !== ''));
    test('same-plurals', () => plural && unit.target.length > 1 && unit.target[0] !== '' && unit.target.every((form) => form === unit.target[0]));
    const xml = xmlActive(unit);
    test('xml-invalid', () => xml && pairs.some((pair) => pair.target !== '' && xmlElements(pair.source) !== null && xmlElements(pair.target) === null));
    test('xml-tags', () => xml && pairs.some((pair) => sameSequence(xmlElements(pair.source), xmlElements(pair.target)) === false));
    test('md-link', () => pairs.some((pair) => pair.target !== '' && markdownLinks(pair.source).join('\n') !== markdownLinks(pair.target).join('\n')));
    test('md-syntax', () => pairs.some((pair) => pair.target !== '' && markdownSyntax(pair.source).join(' ') !== markdownSyntax(pair.target).join(' ')));
    test('max-length', () => maxLengthFails(unit));
    test('url', () => unit.source.some((form) => form !== '') && unit.target.some((form) => !isValidUrl(form)));
    // Fails when cleaning the HTML would change the translation (§1.4 safe-html).
    test('safe-html', () => safeHtmlApplies(flags, unit.source) && pairs.some((pair) => pair.target !== '' && sanitizeHtml(pair.target, pair.source) !== pair.target));
    test('placeholders', () => placeholdersFail(unit, pairs));
    test('regex', () => regexFails(unit));
    for (const id of FORMAT_IDS) test(id, () => formatFails(id, unit, pairs));
  }
  if (unit.otherTranslations !== undefined && enabled('inconsistent') && inconsistent(unit)) failing.push('inconsistent');
  return failing;
}

/**
 * The source form a target form is compared with (§1.2): the same index while the source has it (singular
 * with singular), otherwise the last (plural) source form. Weblate matches forms by their example numbers;
 * Glossa does not keep those per form, so differing plural counts compare with the last form.
 */
function pairedSource(source: readonly string[], index: number): string {
  return index < source.length ? source[index] : source[source.length - 1];
}

function sameFails(unit: CheckUnit, pairs: ReadonlyArray<{ source: string; target: string }>, language: string): boolean {
  // Not for translations into the source's own base language, nor English variants/Interlingua from English.
  const sourceBase = baseLanguage(unit.sourceLanguage);
  if (language === sourceBase || (sourceBase === 'en' && (language === 'en' || language === 'ia'))) return false;
  const strict = unit.flags.has('strict-same');
  return pairs.some((pair) => {
    if (pair.source !== pair.target || (pair.source.length <= 1 && pair.target.length <= 1)) return false;
    return !sameIsAcceptable(pair.source, placeablesOf(unit, pair.source), strict);
  });
}

/** Placeholder texts of the enabled formats in a text (removed before the `same` check). */
function placeablesOf(unit: CheckUnit, text: string): string[] {
  const found: string[] = [];
  for (const [id, extract] of Object.entries(FORMAT_EXTRACTORS)) {
    if (!unit.flags.has(checkFlag(id))) continue;
    if (id === 'icu_message_format') {
      found.push(...(text.match(/\{[^{}]*\}/g) ?? []));
      continue;
    }
    const prefix = id.includes('brace') || id === 'i18next_interpolation' ? '' : '%';
    for (const token of extract(text).tokens) if (token.text !== '') found.push(prefix + token.text);
  }
  for (const literal of placeholderParams(unit.flags)) if (typeof literal === 'string') found.push(literal);
  return found;
}

function xmlActive(unit: CheckUnit): boolean {
  if (unit.flags.has('safe-html') || unit.flags.has('auto-safe-html')) return false;
  if (unit.flags.has('xml-text')) return true;
  return unit.source.every((form) => /<[A-Za-z_/][^<>]*>/.test(form) && xmlElements(form) !== null);
}

/** False when both parse and differ; null when either does not parse (left to xml-invalid). */
function sameSequence(a: string[] | null, b: string[] | null): boolean | null {
  if (a === null || b === null) return null;
  return a.join('\n') === b.join('\n');
}

/** The length of a text as the length checks measure it: after `replacements:FROM:TO…` and, with `xml-text`, without tags (§1.7). */
export function measuredLength(flags: Flags, text: string): number {
  let result = text;
  const replacements = flags.params('replacements') ?? [];
  for (let i = 0; i + 1 < replacements.length; i += 2) result = result.split(replacements[i].value).join(replacements[i + 1].value);
  if (flags.has('xml-text')) result = result.replace(/<[^<>]*>/g, '');
  return Array.from(result).length;
}

/** The `max-length:N` limit, or null when the parameter does not parse (the check then fails, §1.1). */
export function maxLengthLimit(flags: Flags): number | null {
  const param = flags.params('max-length')?.[0]?.value ?? '';
  return /^\d{1,9}$/.test(param) ? Number(param) : null;
}

function maxLengthFails(unit: CheckUnit): boolean {
  const limit = maxLengthLimit(unit.flags);
  if (limit === null) return true;
  return unit.target.some((form) => measuredLength(unit.flags, form) > limit);
}

/** `placeholders:` parameters: literal strings, or compiled expressions for `r"…"` ones; throws on an unsafe one. */
function placeholderParams(flags: Flags): Array<string | RegExp> {
  const insensitive = flags.has('case-insensitive');
  return (flags.params('placeholders') ?? [])
    .filter((param) => param.value !== '')
    .map((param) => {
      if (!param.regex) return param.value;
      try {
        return compileSafeRegex(param.value, insensitive ? 'giu' : 'gu');
      } catch {
        return '';
      }
    })
    .filter((p) => p !== '');
}

function placeholdersIn(text: string, params: ReadonlyArray<string | RegExp>, insensitive: boolean): Set<string> {
  const found = new Set<string>();
  const subject = boundedSubject(text);
  for (const param of params) {
    if (typeof param === 'string') {
      if (insensitive ? subject.toLowerCase().includes(param.toLowerCase()) : subject.includes(param)) found.add(insensitive ? param.toLowerCase() : param);
      continue;
    }
    for (const match of subject.matchAll(param)) found.add(insensitive ? match[0].toLowerCase() : match[0]);
  }
  return found;
}

function placeholdersFail(unit: CheckUnit, pairs: ReadonlyArray<{ source: string; target: string }>): boolean {
  const raw = unit.flags.params('placeholders') ?? [];
  const params = placeholderParams(unit.flags);
  // A regular-expression parameter that is unsafe or invalid fails the check (§1.1).
  if (raw.filter((p) => p.value !== '').length !== params.length) return true;
  const insensitive = unit.flags.has('case-insensitive');
  return pairs.some((pair) => {
    if (pair.target === '') return false;
    const source = placeholdersIn(pair.source, params, insensitive);
    const target = placeholdersIn(pair.target, params, insensitive);
    return source.size !== target.size || [...source].some((p) => !target.has(p));
  });
}

function regexFails(unit: CheckUnit): boolean {
  const pattern = unit.flags.params('regex')?.[0]?.value ?? '';
  // An empty pattern disables the check (§1.4).
  if (pattern === '') return false;
  let regex: RegExp;
  try {
    regex = compileSafeRegex(pattern, 'u');
  } catch (error) {
    if (error instanceof UnsafeRegexError) return true;
    throw error;
  }
  return unit.target.some((form) => form !== '' && !regex.test(boundedSubject(form)));
}

/** A format check (§1.9): syntax errors of the target, then missing and extra placeholders per form. */
function formatFails(id: string, unit: CheckUnit, pairs: ReadonlyArray<{ source: string; target: string }>): boolean {
  const extract = FORMAT_EXTRACTORS[id];
  const plural = unit.source.length > 1;
  const strict = unit.flags.has('strict-format');
  const pluralSource = unit.source[unit.source.length - 1];
  return pairs.some((pair, index) => {
    if (pair.source === '' || pair.target === '') return false;
    const target = extract(pair.target);
    let sourceTokens: Token[] = extract(pair.source).tokens;
    if (target.error !== undefined && extract(pair.source).error === undefined) return true;
    // A singular without placeholders borrows the plural's (§1.9 step 5).
    if (plural && index === 0 && sourceTokens.length === 0) sourceTokens = extract(pluralSource).tokens;
    const { missing, extra } = compareTokens(sourceTokens, target.tokens);
    if (extra.length > 0) return true;
    // The singular of a plural unit may omit placeholders ("one file" for "%d file"), unless strict-format.
    if (missing.length > 0 && plural && index === 0 && !strict) return false;
    return missing.length > 0;
  });
}

/** §1.3 inconsistent: translated elsewhere with a different text, or untranslated here while translated elsewhere. */
function inconsistent(unit: CheckUnit): boolean {
  const others = unit.otherTranslations ?? [];
  if (others.length === 0) return false;
  const mine = unit.state >= 20 ? unit.target.join('\u001e\u001e') : null;
  return others.some((other) => other !== mine);
}
