import { RE2JS } from 're2js';

// A component's `filemask` (e.g. `translations/*/app.json`) names one file per language: the `*` is the
// language code, every other character is literal, and `*` never crosses a `/` (Weblate escapes the mask and
// turns the `*` into `([^/]*)`). The mask is user input that later becomes a path to write, so traversal is
// refused here rather than trusted to the filesystem layer.

/** A filemask that is not a single-`*` relative pattern. The message is safe to show to API users. */
export class FilemaskError extends Error {
  override readonly name = 'FilemaskError';
}

/** A `language_regex` that cannot be compiled. */
export class LanguageRegexError extends Error {
  override readonly name = 'LanguageRegexError';
}

export interface FilemaskMatch {
  path: string;
  languageCode: string;
}

/** Weblate's default `language_regex`: any code without a dot (skips `*.bak`-style leftovers). */
export const DEFAULT_LANGUAGE_REGEX = '^[^.]+$';

/** Throws {@link FilemaskError} unless `filemask` is relative, stays inside the repository and has one `*`. */
export function assertFilemaskAllowed(filemask: string): void {
  if (typeof filemask !== 'string' || filemask.trim() === '') throw new FilemaskError('File mask must not be empty.');
  if (/[\u0000-\u001f\u007f\\]/.test(filemask)) {
    throw new FilemaskError('File mask must not contain control characters or backslashes.');
  }
  if (filemask.startsWith('/') || /^[A-Za-z]:/.test(filemask)) {
    throw new FilemaskError('File mask must be a path relative to the repository.');
  }
  const segments = filemask.split('/');
  if (segments.includes('..')) throw new FilemaskError('File mask must not contain "..".');
  if (segments.some((segment) => segment.toLowerCase() === '.git')) {
    throw new FilemaskError('File mask must not point into .git.');
  }
  const stars = filemask.split('*').length - 1;
  if (stars !== 1) {
    throw new FilemaskError('File mask must contain exactly one "*" as the language placeholder.');
  }
}

/** The file path of `languageCode` under `filemask` (where a new translation file goes). */
export function filemaskPath(filemask: string, languageCode: string): string {
  assertFilemaskAllowed(filemask);
  if (languageCode === '' || languageCode === '.' || languageCode === '..' || /[/\\\u0000-\u001f]/.test(languageCode)) {
    throw new FilemaskError(`"${languageCode}" cannot be used as a language code in a file name.`);
  }
  return filemask.replace('*', languageCode);
}

/** A compiled `language_regex`: whether a language code passes it. */
export interface LanguageFilter {
  test(code: string): boolean;
}

// Python's leading inline flags; `a`, `L` and `u` choose character classes and change nothing that matters
// for language codes, `x` (verbose) has no RE2 equivalent.
const PYTHON_FLAGS: Record<string, number> = { i: RE2JS.CASE_INSENSITIVE, m: RE2JS.MULTILINE, s: RE2JS.DOTALL, a: 0, L: 0, u: 0 };

/**
 * Compiles a Python-style `language_regex` with Python's `re.match` semantics (anchored at the start only).
 * The pattern comes from API users and runs against directory names from the repository, so it runs on
 * RE2 (re2js, a pure JavaScript port): matching takes time linear in the code, whatever the pattern. With
 * JavaScript's backtracking engine, `^(a+)+$` against a directory `aaaa…a!` blocked the server for seconds,
 * doubling with each character (issue 10 item 8). RE2 has no backreferences and no lookaround, so such
 * patterns are refused when a component is written (Weblate's "Compilation failed: …" message). Python's
 * `(?P<name>…)`, `\A` and leading inline flags are RE2 syntax too; `\Z` is RE2's `\z`.
 */
export function compileLanguageRegex(pattern: string): LanguageFilter {
  let source = pattern;
  let flags = 0;
  const inline = /^\(\?([aiLmsux]+)\)/.exec(source);
  if (inline) {
    if (inline[1].includes('x')) throw new LanguageRegexError('Verbose (?x) language filters are not supported.');
    for (const flag of inline[1]) flags |= PYTHON_FLAGS[flag];
    source = source.slice(inline[0].length);
  }
  source = source.replace(/\\./gs, (token) => (token === '\\Z' ? '\\z' : token));
  try {
    // The pattern alone first, so an error quotes what the user wrote, not the anchoring around it.
    RE2JS.compile(source, flags);
    const compiled = RE2JS.compile(`^(?:${source})`, flags);
    return { test: (code) => compiled.test(code) };
  } catch (error) {
    const reason = (error instanceof Error ? error.message : String(error)).replace(/^error parsing regexp: /, '');
    throw new LanguageRegexError(`Invalid language filter: ${reason} (RE2 syntax: no backreferences or lookaround)`);
  }
}

/** Files matching `filemask`, with the language code the `*` stood for, filtered by `languageRegex`, by path. */
export function matchFilemask(
  files: string[],
  filemask: string,
  languageRegex: string = DEFAULT_LANGUAGE_REGEX,
): FilemaskMatch[] {
  assertFilemaskAllowed(filemask);
  const [before, after] = filemask.split('*');
  const maskRe = new RegExp(`^${escapeRegExp(before)}([^/]*)${escapeRegExp(after)}$`, 's');
  const languageRe = compileLanguageRegex(languageRegex);
  const matches: FilemaskMatch[] = [];
  for (const file of files) {
    const languageCode = maskRe.exec(file)?.[1];
    // An empty code (`translations//app.json`) names no language, and `.`/`..` are directories, not codes.
    if (!languageCode || languageCode === '.' || languageCode === '..') continue;
    if (!languageRe.test(languageCode)) continue;
    matches.push({ path: file, languageCode });
  }
  return matches.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}
