// Reading Java properties (formats.md §3.6; java.util.Properties#load): logical lines joined across
// backslash continuations, `#`/`!` comment lines, key up to the first unescaped `=`, `:` or whitespace,
// `\uXXXX` and `\t \n \r \f` escapes. Written as a single linear scan: no regexes over untrusted text.

import { FormatParseError } from '../format';
import { LimitGuard } from './limits';
import { LineCursor, type PhysicalLine } from './lines';
import type { ParseLimits } from '../format';

export interface PropertiesEntry {
  /** The key as written, escapes included (Weblate's context). */
  rawKey: string;
  /** The key with escapes decoded (Weblate's source when the file is used bilingually). */
  key: string;
  value: string;
  /** Whitespace, delimiter and whitespace between key and value, as written (continuations removed). */
  separator: string;
  /** Leading whitespace of the entry's first line. */
  indent: string;
  /** Comment lines right above the entry (no blank line between), joined with "\n": the unit's note (see readProperties). */
  note: string;
  /** Offset of the first attached comment line (or of the entry's line when it has none). */
  blockStart: number;
  /** Offset of the entry's first line. */
  lineStart: number;
  /** Offset past the last content character of the entry (before the final line break). */
  contentEnd: number;
  /** Offset past the entry's final line break. */
  end: number;
  /** 1-based line of the entry's first line. */
  line: number;
}

function isWhitespace(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0c;
}

/** The line ends with an odd number of backslashes: the logical line continues on the next one. */
function continues(text: string, line: PhysicalLine): boolean {
  let count = 0;
  for (let i = line.contentEnd - 1; i >= line.start && text.charCodeAt(i) === 0x5c; i--) count++;
  return count % 2 === 1;
}

function isHex(code: number): boolean {
  return (code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x46) || (code >= 0x61 && code <= 0x66);
}

/**
 * Decodes property escapes. A malformed `\u` (fewer than four hex digits) is kept as written instead of
 * failing the whole file, the way translate-toolkit reads it leniently.
 */
export function unescapeProperties(raw: string): string {
  if (raw.indexOf('\\') < 0) return raw;
  let out = '';
  for (let i = 0; i < raw.length; i++) {
    const char = raw[i];
    if (char !== '\\') {
      out += char;
      continue;
    }
    i++;
    if (i >= raw.length) break;
    const next = raw[i];
    switch (next) {
      case 't':
        out += '\t';
        break;
      case 'n':
        out += '\n';
        break;
      case 'r':
        out += '\r';
        break;
      case 'f':
        out += '\f';
        break;
      case 'u': {
        const hex = raw.slice(i + 1, i + 5);
        if (hex.length === 4 && isHex(hex.charCodeAt(0)) && isHex(hex.charCodeAt(1)) && isHex(hex.charCodeAt(2)) && isHex(hex.charCodeAt(3))) {
          out += String.fromCharCode(parseInt(hex, 16));
          i += 4;
        } else {
          out += '\\u';
        }
        break;
      }
      default:
        out += next;
    }
  }
  return out;
}

/** Splits a logical line into raw key, separator and raw value (Java's rules). */
export function splitKeyValue(logical: string): { rawKey: string; separator: string; rawValue: string } {
  let i = 0;
  const length = logical.length;
  while (i < length) {
    const code = logical.charCodeAt(i);
    if (code === 0x5c) {
      i += 2;
      continue;
    }
    if (code === 0x3d || code === 0x3a || isWhitespace(code)) break;
    i++;
  }
  const keyEnd = Math.min(i, length);
  let j = keyEnd;
  while (j < length && isWhitespace(logical.charCodeAt(j))) j++;
  if (j < length && (logical[j] === '=' || logical[j] === ':')) {
    j++;
    while (j < length && isWhitespace(logical.charCodeAt(j))) j++;
  }
  return { rawKey: logical.slice(0, keyEnd), separator: logical.slice(keyEnd, j), rawValue: logical.slice(j) };
}

export interface PropertiesDocument {
  entries: PropertiesEntry[];
  /** The separator of the first entry that has one ("" when none does): the file's usual style. */
  firstSeparator: string;
}

/**
 * Every entry of the file in order, duplicates included (the format decides what a duplicate means). With
 * `onlyKeys` (a writer looking for the few entries it changes) other entries are skipped without decoding,
 * which keeps a one-edit write of a large file cheap.
 */
export function readProperties(text: string, limits: ParseLimits | undefined, onlyKeys?: ReadonlySet<string>): PropertiesDocument {
  const guard = new LimitGuard(limits);
  const line = new LineCursor(text);
  const entries: PropertiesEntry[] = [];
  let firstSeparator = '';
  let entryCount = 0;
  let comments: string[] = [];
  let commentStart = -1;
  while (line.next()) {
    let first = line.start;
    while (first < line.contentEnd && isWhitespace(text.charCodeAt(first))) first++;
    if (first === line.contentEnd) {
      // translate-toolkit quirk, kept because Weblate stores what it reads: a blank line detaches the comments
      // above it from the next entry (they become a comment-only unit, which Weblate drops), while blank
      // lines with no comment pending become empty note lines, so `a=1⏎⏎⏎# c⏎b=2` gives b the note "⏎⏎# c".
      if (commentStart >= 0) {
        comments = [];
        commentStart = -1;
      } else {
        comments.push('');
      }
      continue;
    }
    const firstChar = text[first];
    if (firstChar === '#' || firstChar === '!') {
      if (commentStart < 0) commentStart = line.start;
      comments.push(text.slice(line.start, line.contentEnd));
      continue;
    }
    const lineNumber = line.number;
    const lineStart = line.start;
    let logical = '';
    let segmentStart = first;
    for (;;) {
      if (continues(text, line) && line.end < text.length) {
        logical += text.slice(segmentStart, line.contentEnd - 1);
        line.next();
        segmentStart = line.start;
        while (segmentStart < line.contentEnd && isWhitespace(text.charCodeAt(segmentStart))) segmentStart++;
        continue;
      }
      logical += text.slice(segmentStart, line.contentEnd);
      break;
    }
    guard.countUnit(lineNumber);
    const { rawKey, separator, rawValue } = splitKeyValue(logical);
    if (entryCount === 0 && separator === '' && rawValue === '') {
      // Weblate refuses such a file: translate-toolkit would turn any text into keys (formats.md §3.6).
      throw new FormatParseError(`line ${lineNumber}: entry "${rawKey}" has no "=", ":" or space delimiter`);
    }
    entryCount++;
    if (firstSeparator === '') firstSeparator = separator;
    if (onlyKeys && !onlyKeys.has(rawKey)) {
      comments = [];
      commentStart = -1;
      continue;
    }
    const key = unescapeProperties(rawKey);
    const value = unescapeProperties(rawValue);
    guard.checkString(rawKey, lineNumber);
    guard.checkString(value, lineNumber);
    entries.push({
      rawKey,
      key,
      value,
      separator,
      indent: text.slice(lineStart, first),
      note: comments.join('\n'),
      blockStart: commentStart >= 0 ? commentStart : lineStart,
      lineStart,
      contentEnd: line.contentEnd,
      end: line.end,
      line: lineNumber,
    });
    comments = [];
    commentStart = -1;
  }
  return { entries, firstSeparator };
}
