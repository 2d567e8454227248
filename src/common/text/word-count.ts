// Weblate's `count_words` (languages-formats-hashing.md §5.1, weblate-api.md §9.8).

/** Plural forms are stored joined with two ASCII record separators (weblate-api.md §9.5). */
export const PLURAL_SEPARATOR = '\x1e\x1e';

// Python's `str.split()` whitespace set, spelled out because JS `\s` differs: it lacks
// U+001C–001F and U+0085 and adds U+FEFF (§5.1).
const PYTHON_WHITESPACE =
  '\\u0009-\\u000D\\u001C-\\u001F\\u0020\\u0085\\u00A0\\u1680\\u2000-\\u200A\\u2028\\u2029\\u202F\\u205F\\u3000';
const WHITESPACE_RUN = new RegExp(`[${PYTHON_WHITESPACE}]+`, 'u');

// Characters counted as one word each in languages written without spaces (Weblate 5.x, PR #10690).
const CJK_CHARACTER = /[\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}\p{scx=Hangul}\p{scx=Bopomofo}]/gu;

// Base language codes (before `_`, `-` or `@`) for which the CJK rule applies (§5.1).
const SPACELESS_LANGUAGES = new Set(['zh', 'ja', 'ko', 'th', 'km', 'lo', 'my']);

// Placeholder forms some formats put in an unused singular slot; Weblate does not count them.
const UNUSED_SINGULAR_PREFIX = '<unused singular';

function countWhitespaceTokens(text: string): number {
  // Like Python's split(): leading/trailing whitespace yields no empty tokens.
  return text.split(WHITESPACE_RUN).filter((token) => token !== '').length;
}

function countSpacelessTokens(text: string): number {
  // Each CJK character is a word; the text between them falls back to the whitespace rule.
  const cjkCount = text.match(CJK_CHARACTER)?.length ?? 0;
  return cjkCount + countWhitespaceTokens(text.replace(CJK_CHARACTER, ' '));
}

function isSpacelessLanguage(languageCode: string): boolean {
  const base = languageCode.split(/[_\-@]/, 1)[0].toLowerCase();
  return SPACELESS_LANGUAGES.has(base);
}

/** `num_words` of a (possibly plural) source string in the given source language. */
export function countWords(source: string, sourceLanguageCode = 'en'): number {
  const count = isSpacelessLanguage(sourceLanguageCode) ? countSpacelessTokens : countWhitespaceTokens;
  return source
    .split(PLURAL_SEPARATOR)
    .filter((form) => !form.startsWith(UNUSED_SINGULAR_PREFIX))
    .reduce((total, form) => total + count(form), 0);
}
