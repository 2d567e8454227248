// Line wrapping of PO strings that Weblate rewrites (formats.md §3.1 "Wrapping"): translate-toolkit escapes
// the text, breaks it after every `\n` escape, then wraps each piece with a TextWrapper whose word-splitting
// rule keeps escapes whole, keeps spaces with the preceding word and splits URLs after `/`; east-asian wide
// characters count two columns. Each piece holds at most 77 columns of escaped text between its quotes, as
// gettext's own 79-column lines do. A leading `""` line is written when the string has more than one piece
// or its first piece is longer than 71 columns.
//
// The word splitter is a hand-written scanner rather than translate-toolkit's regex so that it runs in
// linear time on hostile input (no backtracking over long words); it yields the same chunks as that regex.

import { escapePo } from './po-escape';

export const PO_WRAP_WIDTH = 77;

const WORD = /[\p{L}\p{N}_]/u;
// Python's str.isspace() set (\s of a str pattern), which differs from JavaScript's \s.
const SPACE = /[\t\n\v\f\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]/;
const NARROW_PRINTABLE = /^[\x20-\x7e\xa0-\u02ff]*$/;
const ZERO_WIDTH = /[\p{Mn}\p{Me}\u200b-\u200f\u2060\ufeff]/u;

// East Asian Wide and Fullwidth ranges (wcwidth's table, abridged to the blocks text actually uses).
const WIDE_RANGES: readonly (readonly [number, number])[] = [
  [0x1100, 0x115f],
  [0x2e80, 0x303e],
  [0x3041, 0x33ff],
  [0x3400, 0x4dbf],
  [0x4e00, 0x9fff],
  [0xa000, 0xa4cf],
  [0xac00, 0xd7a3],
  [0xf900, 0xfaff],
  [0xfe30, 0xfe4f],
  [0xff00, 0xff60],
  [0xffe0, 0xffe6],
  [0x1f300, 0x1f64f],
  [0x1f900, 0x1f9ff],
  [0x20000, 0x2fffd],
  [0x30000, 0x3fffd],
];

/** wcwidth of one code point: -1 for control characters, 0 for combining marks, 2 for wide ones. */
function charWidth(char: string): number {
  const code = char.codePointAt(0) ?? 0;
  if (code === 0) return 0;
  if (code < 0x20 || (code >= 0x7f && code < 0xa0)) return -1;
  if (code < 0x300) return 1;
  if (ZERO_WIDTH.test(char)) return 0;
  for (const [low, high] of WIDE_RANGES) if (code >= low && code <= high) return 2;
  return 1;
}

/** wcswidth: -1 as soon as one character is a control character. */
function textWidth(chars: readonly string[]): number {
  let width = 0;
  for (const char of chars) {
    const one = charWidth(char);
    if (one < 0) return -1;
    width += one;
  }
  return width;
}

const IS_SPACE = 1;
const IS_WORD = 2;
const IS_URL_PART = 4;
const IS_WORD_WITH_SPACE = 8;
const IS_ASCII_LETTER = 16;
const IS_DASH_PRECEDER = 32;
const IS_DASH = 64;

/** Character classes of the splitter as bits; ASCII by code, the rest through Unicode property regexes. */
function classify(char: string): number {
  const code = char.charCodeAt(0);
  if (code < 0x80) {
    const letter = (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a);
    const digit = code >= 0x30 && code <= 0x39;
    const word = letter || digit || code === 0x5f;
    let bits = 0;
    if (code === 0x20 || (code >= 0x09 && code <= 0x0d) || (code >= 0x1c && code <= 0x1f)) bits |= IS_SPACE;
    if (word) bits |= IS_WORD | IS_WORD_WITH_SPACE | IS_DASH_PRECEDER;
    if (word || code === 0x2d) bits |= IS_URL_PART;
    if (letter) bits |= IS_ASCII_LETTER;
    if (code === 0x2d) bits |= IS_DASH;
    if ("!'&.,?".includes(char)) bits |= IS_WORD_WITH_SPACE | IS_DASH_PRECEDER;
    if ('=<>%'.includes(char)) bits |= IS_WORD_WITH_SPACE;
    if (char === '"') bits |= IS_DASH_PRECEDER;
    return bits;
  }
  let bits = 0;
  if (SPACE.test(char)) bits |= IS_SPACE;
  if (WORD.test(char)) bits |= IS_WORD | IS_WORD_WITH_SPACE | IS_DASH_PRECEDER;
  return bits;
}

/** End (exclusive) of the run of characters having `bit` that starts at each index, computed backwards. */
function runEnds(ends: Int32Array, kinds: Uint8Array, n: number, bit: number): Int32Array {
  ends.fill(n, n, n + 3);
  for (let i = n - 1; i >= 0; i--) ends[i] = kinds[i] & bit ? ends[i + 1] : i;
  return ends;
}

// Small typed arrays are slow to allocate in V8, so the splitter reuses one set, grown as needed.
let scratch = { kinds: new Uint8Array(256), codes: new Uint16Array(256), runs: Array.from({ length: 7 }, () => new Int32Array(256)) };

function scratchFor(size: number): typeof scratch {
  if (scratch.kinds.length < size) {
    const capacity = Math.max(size, scratch.kinds.length * 2);
    scratch = {
      kinds: new Uint8Array(capacity),
      codes: new Uint16Array(capacity),
      runs: Array.from({ length: 7 }, () => new Int32Array(capacity)),
    };
  }
  return scratch;
}

const SLASH = 0x2f;
const BACKSLASH = 0x5c;
const DOT = 0x2e;
const HYPHEN = 0x2d;
const NEWLINE = 0x0a;

/** Splits escaped text into translate-toolkit's wrap chunks: separators and the text between them. */
export function splitWrapChunks(chars: readonly string[]): string[][] {
  const n = chars.length;
  // Padded past the end so the look-aheads below never read outside the arrays.
  const { kinds, codes, runs } = scratchFor(n + 3);
  kinds.fill(0, n, n + 3);
  codes.fill(0, n, n + 3);
  for (let i = 0; i < n; i++) {
    kinds[i] = classify(chars[i]);
    codes[i] = chars[i].charCodeAt(0);
  }
  const space = runEnds(runs[0], kinds, n, IS_SPACE);
  const word = runEnds(runs[1], kinds, n, IS_WORD);
  const urlPart = runEnds(runs[2], kinds, n, IS_URL_PART);
  const wordWithSpace = runEnds(runs[3], kinds, n, IS_WORD_WITH_SPACE);
  const dash = runEnds(runs[4], kinds, n, IS_DASH);
  // nextLetter[i]: first index >= i holding an ASCII letter (n when none).
  const nextLetter = runs[5].fill(n, n, n + 3);
  for (let i = n - 1; i >= 0; i--) nextLetter[i] = kinds[i] & IS_ASCII_LETTER ? i : nextLetter[i + 1];
  const nonSpaceNonWord = runs[6].fill(n, n, n + 3);
  for (let i = n - 1; i >= 0; i--) nonSpaceNonWord[i] = kinds[i] & (IS_SPACE | IS_WORD) ? i : nonSpaceNonWord[i + 1];

  const chunks: string[][] = [];
  let plainStart = 0;
  let i = 0;
  while (i < n) {
    // The separator that starts at i (its end), trying the alternatives in translate-toolkit's order; -1: none.
    let end = -1;
    const afterWord = word[i];
    const classEnd = wordWithSpace[i];
    if (space[i] > i) end = space[i];
    else if (urlPart[i] > i && codes[urlPart[i]] === SLASH) end = urlPart[i] + 1;
    else if (codes[afterWord] === BACKSLASH && afterWord + 1 < n && codes[afterWord + 1] !== NEWLINE) end = word[afterWord + 2];
    else if (codes[i] === DOT && word[i + 1] > i + 1) end = i + 1;
    else if (classEnd > i && space[classEnd] > classEnd) end = space[classEnd];
    else {
      const wordStart = nonSpaceNonWord[i];
      const wordEnd = word[wordStart];
      if (
        wordEnd - wordStart >= 2 &&
        kinds[wordEnd - 1] & IS_ASCII_LETTER &&
        codes[wordEnd] === HYPHEN &&
        word[wordEnd + 1] - (wordEnd + 1) >= 2 &&
        nextLetter[wordEnd + 2] < word[wordEnd + 1]
      ) {
        end = wordEnd + 1;
      } else if (i > 0 && kinds[i - 1] & IS_DASH_PRECEDER && dash[i] - i >= 2 && word[dash[i]] > dash[i]) {
        end = dash[i];
      }
    }
    if (end === -1) {
      i++;
      continue;
    }
    if (i > plainStart) chunks.push(chars.slice(plainStart, i));
    chunks.push(chars.slice(i, end));
    i = end;
    plainStart = end;
  }
  if (n > plainStart) chunks.push(chars.slice(plainStart));
  return chunks;
}

interface Chunk {
  chars: string[];
  /** Characters before `start` already went to earlier lines (an over-long chunk being cut). */
  start: number;
  /** wcswidth of chars[start..]: -1 when it holds a control character. */
  width: number;
}

/**
 * translate-toolkit's PoWrapper._wrap_chunks: greedy fill by display width; a chunk wider than a line is cut
 * where the line is full. Cutting advances an offset instead of copying, so the work stays linear.
 */
function wrapChunks(parts: string[][], width: number): string[] {
  const chunks: Chunk[] = parts.map((chars) => ({ chars, start: 0, width: textWidth(chars) }));
  const lines: string[] = [];
  let next = 0;
  while (next < chunks.length) {
    const line: string[] = [];
    let lineWidth = 0;
    while (next < chunks.length && lineWidth + chunks[next].width <= width) {
      const chunk = chunks[next++];
      line.push(chunk.start === 0 ? chunk.chars.join('') : chunk.chars.slice(chunk.start).join(''));
      lineWidth += chunk.width;
    }
    if (next < chunks.length && chunks[next].width > width) {
      const chunk = chunks[next];
      const room = width - lineWidth;
      let used = 0;
      let cut = chunk.start;
      for (; cut < chunk.chars.length; cut++) {
        const charW = charWidth(chunk.chars[cut]);
        if (used + charW > room) break;
        used += charW;
      }
      line.push(chunk.chars.slice(chunk.start, cut).join(''));
      chunk.start = cut;
      chunk.width -= used;
    }
    if (line.length > 0) lines.push(line.join(''));
  }
  return lines;
}

/** The quoted lines (each `"…"`, without keyword) translate-toolkit writes for `text`. */
export function quoteForPo(text: string, width = PO_WRAP_WIDTH): string[] {
  const escaped = escapePo(text);
  const pieces = escaped.split('\\n');
  for (let i = 0; i < pieces.length - 1; i++) pieces[i] += '\\n';
  const lines: string[] = [];
  const firstLength = [...pieces[0]].length;
  if (pieces.length > 2 || (pieces.length === 2 && pieces[1] !== '') || firstLength > width - 6) lines.push('""');
  for (const piece of pieces) {
    if (piece === '') continue;
    if (piece.length <= width && NARROW_PRINTABLE.test(piece)) {
      // Fits on one line whatever the chunks are (most strings): skip the splitter.
      lines.push(`"${piece}"`);
      continue;
    }
    for (const line of wrapChunks(splitWrapChunks([...piece]), width)) lines.push(`"${line}"`);
  }
  return lines;
}

/** `keyword "…"` lines as translate-toolkit lays them out: the first quoted line joins the keyword. */
export function renderPoString(keyword: string, text: string): string[] {
  const quoted = quoteForPo(text);
  if (quoted.length === 0) return [`${keyword} ""`];
  return [`${keyword} ${quoted[0]}`, ...quoted.slice(1)];
}
