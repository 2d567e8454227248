// Translation checks on one pair of texts (a source form and the target form compared with it),
// checks-suggestions-search.md §1.3 and §1.7. Each answers true when the check FAILS. Language-specific
// punctuation rules are reduced to the sets of §1.7 and the Thai/Lojban exemptions; languages are given as
// lower-case base codes ("fr" for "fr_CA").

export interface PairContext {
  /** Base code of the target language. */
  language: string;
}

const FULL_STOPS = new Set(['.', '。', '।', '۔', '։', '·', '෴', '។', '።', '॥', '᱾', '။', '৷', '|']);
const COLONS = new Set([':', '：', '៖']);
const QUESTIONS = new Set(['?', '՞', '؟', '⸮', '？', '፧', '꘏', '⳺']);
const EXCLAMATIONS = new Set(['!', '！', '՜', '᥄', '႟', '߹']);
const SEMICOLONS = new Set([';', '；']);
const NO_END_PUNCTUATION = new Set(['th', 'jbo']);
const INTERROBANGS = ['?!', '!?', '؟!', '!؟', '？！', '！？', '⁈', '⁉'];

/** The last character (code point) of a text, without splitting the whole text. */
const last = (text: string): string => {
  if (text === '') return '';
  const code = text.charCodeAt(text.length - 1);
  return code >= 0xdc00 && code <= 0xdfff && text.length > 1 ? text.slice(-2) : text.slice(-1);
};

/** Whether a text has at most `n` code points (short texts only are split). */
const atMostChars = (text: string, n: number): boolean => text.length <= n || (text.length <= 2 * n && Array.from(text).length <= n);

function mismatchedEnd(source: string, target: string, set: ReadonlySet<string>): boolean {
  if (source === '' || target === '') return false;
  return set.has(last(source)) !== set.has(last(target));
}

const leadingSpaces = (text: string): number => text.length - text.replace(/^ +/, '').length;
const trailingSpaces = (text: string): number => text.length - text.replace(/ +$/, '').length;
const endsInterrobang = (text: string): boolean => INTERROBANGS.some((mark) => text.endsWith(mark));

export const PAIR_CHECKS: Readonly<Record<string, (source: string, target: string, ctx: PairContext) => boolean>> = {
  begin_newline: (s, t) => s.startsWith('\n') !== t.startsWith('\n'),
  end_newline: (s, t) => s.endsWith('\n') !== t.endsWith('\n'),
  begin_space: (s, t) => {
    if ((s.length <= 1 && t.length <= 1) || /^ *$/.test(t)) return false;
    return leadingSpaces(s) !== leadingSpaces(t);
  },
  end_space: (s, t) => {
    if (s === '' || t === '' || (s.length <= 1 && t.length <= 1) || /^ *$/.test(t)) return false;
    return trailingSpaces(s) !== trailingSpaces(t);
  },
  double_space: (s, t) => s.length > 1 && t.length > 1 && t.includes('  ') && !s.includes('  '),
  end_stop: (s, t, ctx) => {
    if (NO_END_PUNCTUATION.has(ctx.language) || atMostChars(s, 4)) return false;
    // A source ending "..." may end in "…" (the ellipsis check covers it).
    if (s.endsWith('...') && t.endsWith('…')) return false;
    return mismatchedEnd(s, t, FULL_STOPS);
  },
  end_colon: (s, t, ctx) => !NO_END_PUNCTUATION.has(ctx.language) && mismatchedEnd(s, t, COLONS),
  end_question: (s, t, ctx) => {
    if (NO_END_PUNCTUATION.has(ctx.language) || endsInterrobang(s) || endsInterrobang(t)) return false;
    const set = ctx.language === 'el' ? new Set([...QUESTIONS, ';', ';']) : QUESTIONS;
    return mismatchedEnd(s, t, set);
  },
  end_exclamation: (s, t, ctx) => {
    if (NO_END_PUNCTUATION.has(ctx.language) || ctx.language === 'hy' || endsInterrobang(s) || endsInterrobang(t)) return false;
    if (s.endsWith('Texy!') || t.endsWith('Texy!')) return false;
    if (ctx.language === 'eu' && t.includes('¡') && t.includes('!')) return false;
    return mismatchedEnd(s, t, EXCLAMATIONS);
  },
  end_ellipsis: (s, t) => {
    if (s === '' || t === '') return false;
    if (s.endsWith('...') && t.endsWith('…')) return false;
    return s.endsWith('…') !== t.endsWith('…');
  },
  end_semicolon: (s, t, ctx) => ctx.language !== 'el' && mismatchedEnd(s, t, SEMICOLONS),
  escaped_newline: (s, t) => escapedNewlines(s) !== escapedNewlines(t),
  'newline-count': (s, t) => s.split('\n').length !== t.split('\n').length,
  'zero-width-space': (s, t, ctx) => ctx.language !== 'km' && t.includes('\u200b') && !s.includes('\u200b'),
};

/** Literal backslash-n sequences, after removing Windows paths such as `C:\new\dir` (§1.3). */
function escapedNewlines(text: string): number {
  const withoutPaths = text.replace(/[A-Za-z]:\\[^\s"']*/g, '');
  return withoutPaths.split('\\n').length - 1;
}

// --- same (§1.7) ---------------------------------------------------------------------------------------

const URL_LIKE = /\b(?:https?|ftps?):\/\/[^\s<>"]+|\bwww\.[^\s<>"]+/gi;
const EMAIL = /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g;
const TAG = /<[^<>]*>/g;
const TEMPLATE = /\{[\w.]*\}/g;
const HASHTAG = /#\w+/g;
const PATH = /(?:[\w.-]*\/)+[\w.-]+|[\w-]+\.[a-z]{2,4}\b/gi;

/**
 * Whether an unchanged translation is acceptable: the exceptions of §1.7 in order, without Weblate's
 * built-in word list (not determined, §10): words of at most two characters are the only ignorable words.
 * `placeables` are the texts of placeholders of the enabled formats, removed first.
 */
export function sameIsAcceptable(source: string, placeables: readonly string[], strict: boolean): boolean {
  let rest = source;
  for (const placeable of placeables) if (placeable !== '') rest = rest.split(placeable).join(' ');
  rest = rest.replace(TAG, ' ');
  if (!/[\p{L}\p{N}]/u.test(rest)) return true;
  if (strict) return false;
  if (rest.replace(/[\d:/,.\s]/g, '').length <= 1) return true;
  if (/\(c\) copyright|©/i.test(source)) return true;
  rest = rest.replace(URL_LIKE, ' ').replace(EMAIL, ' ').replace(TEMPLATE, ' ').replace(HASHTAG, ' ').replace(PATH, ' ');
  const letters = rest.replace(/[\s\p{P}\p{S}\d]/gu, '');
  if (letters.length <= 1 || letters === letters.toUpperCase()) return true;
  const words = rest.split(/[\s\p{P}\p{S}\d]+/u).filter((word) => word !== '');
  return words.every((word) => word.length <= 2);
}

// --- markup --------------------------------------------------------------------------------------------

/** The element sequence of an XML fragment (tag names with attribute names), or null when it is not well formed. */
export function xmlElements(text: string): string[] | null {
  const stripped = text.replace(/&(?:[a-zA-Z][\w.-]*|#\d+|#x[0-9a-fA-F]+);/g, '');
  if (/&/.test(stripped)) return null;
  const sequence: string[] = [];
  const open: string[] = [];
  const tag = /<(\/?)([A-Za-z_][\w.:-]*)((?:\s+[A-Za-z_][\w.:-]*\s*=\s*(?:"[^"<]*"|'[^'<]*'))*)\s*(\/?)>|<!--[\s\S]*?-->|</g;
  for (const match of stripped.matchAll(tag)) {
    if (match[0].startsWith('<!--')) continue;
    if (match[0] === '<') return null;
    const [, closing, name, attributes, selfClosing] = match;
    if (closing) {
      if (open.pop() !== name) return null;
      sequence.push(`/${name}`);
      continue;
    }
    const attributeNames = [...attributes.matchAll(/([A-Za-z_][\w.:-]*)\s*=/g)].map((a) => a[1]);
    sequence.push([name, ...attributeNames].join(' '));
    if (!selfClosing) open.push(name);
  }
  if (open.length > 0 || /[<>]/.test(stripped.replace(tag, ''))) return null;
  return sequence;
}

/** Markdown inline links `[text](url)` and the run of inline markup symbols, for md-link / md-syntax. */
export function markdownLinks(text: string): string[] {
  return [...text.matchAll(/\[[^\]]*\]\(([^)\s]*)(?:\s+"[^"]*")?\)/g)].map((match) => match[1]);
}

export function markdownSyntax(text: string): string[] {
  const withoutLinks = text.replace(/\[[^\]]*\]\([^)]*\)/g, '');
  return [...withoutLinks.matchAll(/\*\*|__|~~|`+|(?<!\w)[*_](?=\S)|(?<=\S)[*_](?!\w)/g)].map((match) => match[0]).sort();
}

/** Django's URLValidator in spirit: http(s)/ftp(s) scheme, a host name or address, no spaces (§1.4 url). */
export function isValidUrl(text: string): boolean {
  if (/\s/.test(text) || text.length > 2048) return false;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return false;
  }
  if (!['http:', 'https:', 'ftp:', 'ftps:'].includes(url.protocol)) return false;
  const host = url.hostname;
  return host === 'localhost' || /^\[[0-9a-f:.]+\]$/i.test(host) || /^\d{1,3}(\.\d{1,3}){3}$/.test(host) || /^([a-z0-9\u00a1-\uffff-]+\.)+[a-z\u00a1-\uffff-]{2,}\.?$/i.test(host);
}
