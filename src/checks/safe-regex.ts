// User-supplied regular expressions (`regex:` and `placeholders:r"…"` flags, checks-suggestions-search.md
// §1.4) run in this process on every save and import, so a hostile pattern must not be able to hang it.
// JavaScript's RegExp has no timeout; Weblate bounds evaluation with one. Glossa instead only accepts
// patterns whose backtracking cost stays polynomial and small:
//   * at most MAX_PATTERN_LENGTH characters and MAX_QUANTIFIERS quantifiers;
//   * no quantified group that itself contains a quantifier or an alternation (`(a+)+`, `(a|aa)*`, the
//     exponential "evil regex" shapes);
//   * no backreferences (`\1`, `\k<name>`), whose matching is NP-hard in general;
//   * matched against at most MAX_SUBJECT_LENGTH characters of a text.
// Anything else is rejected as unparseable, which makes the check fail (Weblate reports a flag it cannot
// parse as a failing check rather than passing silently, §1.1).

export const MAX_PATTERN_LENGTH = 200;
export const MAX_QUANTIFIERS = 10;
export const MAX_SUBJECT_LENGTH = 10_000;

export class UnsafeRegexError extends Error {
  override readonly name = 'UnsafeRegexError';
}

const cache = new Map<string, RegExp | UnsafeRegexError>();

/** Compiles a pattern under the rules above, or throws UnsafeRegexError. */
export function compileSafeRegex(pattern: string, flags = 'u'): RegExp {
  const key = `${flags}/${pattern}`;
  let compiled = cache.get(key);
  if (compiled === undefined) {
    try {
      assertSafe(pattern);
      compiled = new RegExp(pattern, flags);
    } catch (error) {
      compiled = error instanceof UnsafeRegexError ? error : new UnsafeRegexError(`Invalid regular expression: ${(error as Error).message}`);
    }
    if (cache.size > 1000) cache.clear();
    cache.set(key, compiled);
  }
  if (compiled instanceof UnsafeRegexError) throw compiled;
  return compiled;
}

/** The subject as matched: long texts are cut at MAX_SUBJECT_LENGTH characters. */
export const boundedSubject = (text: string): string => (text.length > MAX_SUBJECT_LENGTH ? text.slice(0, MAX_SUBJECT_LENGTH) : text);

function assertSafe(pattern: string): void {
  if (pattern.length > MAX_PATTERN_LENGTH) throw new UnsafeRegexError(`Regular expression longer than ${MAX_PATTERN_LENGTH} characters`);
  // Per open group: whether it contains a quantifier or an alternation.
  const groups: Array<{ risky: boolean }> = [];
  let quantifiers = 0;
  let lastClosedRisky = false;
  let inClass = false;
  for (let i = 0; i < pattern.length; i += 1) {
    const ch = pattern[i];
    if (ch === '\\') {
      const next = pattern[i + 1] ?? '';
      if (!inClass && (/[1-9]/.test(next) || next === 'k')) throw new UnsafeRegexError('Backreferences are not allowed in regular expressions');
      i += 1;
      lastClosedRisky = false;
      continue;
    }
    if (inClass) {
      if (ch === ']') inClass = false;
      continue;
    }
    if (ch === '[') {
      inClass = true;
      lastClosedRisky = false;
      continue;
    }
    const quantifier = ch === '*' || ch === '+' || ch === '?' || (ch === '{' && /^\{\d+(,\d*)?\}/.test(pattern.slice(i)));
    if (quantifier) {
      // A lazy or possessive suffix (`*?`) is part of the previous quantifier.
      if (ch === '?' && /[*+?}]/.test(pattern[i - 1] ?? '')) continue;
      quantifiers += 1;
      if (quantifiers > MAX_QUANTIFIERS) throw new UnsafeRegexError(`More than ${MAX_QUANTIFIERS} quantifiers in a regular expression`);
      if (lastClosedRisky && ch !== '?') throw new UnsafeRegexError('Nested quantifiers are not allowed in regular expressions');
      for (const group of groups) group.risky = true;
      if (ch === '{') i = pattern.indexOf('}', i);
      lastClosedRisky = false;
      continue;
    }
    if (ch === '(') {
      groups.push({ risky: false });
      // `(?:`, `(?=`, `(?!`, `(?<=`, `(?<!`, `(?<name>`: the `?` opens a group kind, it quantifies nothing.
      const kind = /^\(\?(?::|=|!|<=|<!|<[A-Za-z_]\w*>)/.exec(pattern.slice(i));
      if (kind) i += kind[0].length - 1;
      lastClosedRisky = false;
      continue;
    }
    if (ch === ')') {
      const group = groups.pop();
      lastClosedRisky = group?.risky ?? false;
      if (group?.risky) for (const outer of groups) outer.risky = true;
      continue;
    }
    if (ch === '|') for (const group of groups) group.risky = true;
    lastClosedRisky = false;
  }
}
