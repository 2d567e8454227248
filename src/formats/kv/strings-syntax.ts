// Reading Apple .strings files (formats.md §3.4): `"key" = "value";` entries, `/* */` and `//` comments
// (the comments since the previous entry are the entry's note), quoted strings with `\"` `\\` `\n` `\t`
// `\r` `\Uxxxx` escapes, and old-style unquoted tokens. One linear scan with explicit positions so the
// writer can replace a value token and nothing else.

import { FormatParseError, type ParseLimits } from '../format';
import { LimitGuard } from './limits';

export interface StringsEntry {
  key: string;
  value: string;
  note: string;
  /** Offsets of the value token, quotes included. */
  valueStart: number;
  valueEnd: number;
  /** From the first attached comment's line (or the entry's line) to past the entry's line break. */
  blockStart: number;
  blockEnd: number;
  /** The entry's comments start after a blank line (Xcode's layout): new entries copy that spacing. */
  blankLineBefore: boolean;
  line: number;
}

/** Xcode writes this for strings without a comment; Weblate drops it when reading (§3.4). */
const XCODE_PLACEHOLDER = '/* No comment provided by engineer. */';

function isSpace(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d || code === 0x0c;
}

function isHex(code: number): boolean {
  return (code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x46) || (code >= 0x61 && code <= 0x66);
}

function unescapeStrings(raw: string): string {
  if (raw.indexOf('\\') < 0) return raw;
  let out = '';
  for (let i = 0; i < raw.length; i++) {
    const char = raw[i];
    if (char !== '\\' || i + 1 >= raw.length) {
      out += char;
      continue;
    }
    const next = raw[++i];
    if (next === 'n') out += '\n';
    else if (next === 't') out += '\t';
    else if (next === 'r') out += '\r';
    else if (
      (next === 'U' || next === 'u') &&
      i + 4 < raw.length &&
      isHex(raw.charCodeAt(i + 1)) &&
      isHex(raw.charCodeAt(i + 2)) &&
      isHex(raw.charCodeAt(i + 3)) &&
      isHex(raw.charCodeAt(i + 4))
    ) {
      out += String.fromCharCode(parseInt(raw.slice(i + 1, i + 5), 16));
      i += 4;
    } else out += next;
  }
  return out;
}

/** Start of the line holding `pos` when only blanks precede it there, else `pos`. */
function lineStartIfBlank(text: string, pos: number): number {
  let i = pos;
  while (i > 0 && (text[i - 1] === ' ' || text[i - 1] === '\t')) i--;
  return i === 0 || text[i - 1] === '\n' || text[i - 1] === '\r' ? i : pos;
}

/** Past the line break after `pos` when only blanks follow it there, else `pos`. */
function lineEndIfBlank(text: string, pos: number): number {
  let i = pos;
  while (i < text.length && (text[i] === ' ' || text[i] === '\t')) i++;
  if (i >= text.length) return i;
  if (text[i] === '\r') return text[i + 1] === '\n' ? i + 2 : i + 1;
  if (text[i] === '\n') return i + 1;
  return pos;
}

class Scanner {
  pos = 0;
  private line = 1;
  private lineCountedTo = 0;

  constructor(readonly text: string) {}

  /** 1-based line of `offset` (offsets are asked for in increasing order, so counting stays linear). */
  lineOf(offset: number): number {
    for (let i = this.lineCountedTo; i < offset; i++) {
      const code = this.text.charCodeAt(i);
      if (code === 0x0a || (code === 0x0d && this.text.charCodeAt(i + 1) !== 0x0a)) this.line++;
    }
    this.lineCountedTo = Math.max(this.lineCountedTo, offset);
    return this.line;
  }

  fail(offset: number, problem: string): never {
    throw new FormatParseError(`line ${this.lineOf(offset)}: ${problem}`);
  }

  skipSpace(): void {
    while (this.pos < this.text.length && isSpace(this.text.charCodeAt(this.pos))) this.pos++;
  }

  /** A quoted string or a bare token: its text, escapes decoded (`raw`: only `\"`, as keys are read). */
  token(what: string, raw = false): string {
    const { text } = this;
    const start = this.pos;
    if (text[start] === '"') {
      let i = start + 1;
      for (let code = text.charCodeAt(i); i < text.length && code !== 0x22; code = text.charCodeAt(i)) i += code === 0x5c ? 2 : 1;
      if (i >= text.length) this.fail(start, `unterminated ${what} string`);
      this.pos = i + 1;
      const content = text.slice(start + 1, i);
      return raw ? content.split('\\"').join('"') : unescapeStrings(content);
    }
    let i = start;
    while (i < text.length) {
      const char = text[i];
      if (isSpace(text.charCodeAt(i)) || char === '=' || char === ';' || char === '"' || char === '/') break;
      i++;
    }
    if (i === start) this.fail(start, `expected a ${what}`);
    this.pos = i;
    return text.slice(start, i);
  }
}

/** Lines holding only whitespace inside the whitespace run text[start, end). */
function countBlankLines(text: string, start: number, end: number): number {
  let breaks = 0;
  for (let i = start; i < end; i++) {
    const code = text.charCodeAt(i);
    if (code === 0x0a || (code === 0x0d && text.charCodeAt(i + 1) !== 0x0a)) breaks++;
  }
  // The first break ends the line of whatever came before the run, unless the run starts a line.
  const atLineStart = start === 0 || text[start - 1] === '\n' || text[start - 1] === '\r';
  return atLineStart ? breaks : Math.max(0, breaks - 1);
}

/** A blank line in text[start, end) (which holds only whitespace between two entries). */
function hasBlankLine(text: string, start: number, end: number): boolean {
  // The gap usually starts right after the previous entry's line break; then one more break is a blank line.
  const atLineStart = start === 0 || text[start - 1] === '\n' || text[start - 1] === '\r';
  let breaks = atLineStart ? 1 : 0;
  for (let i = start; i < end; i++) {
    const code = text.charCodeAt(i);
    if (code === 0x0d && text.charCodeAt(i + 1) === 0x0a) continue;
    if (code === 0x0a || code === 0x0d) {
      if (++breaks >= 2) return true;
    } else if (code !== 0x20 && code !== 0x09) breaks = 0;
  }
  return false;
}

export interface StringsDocument {
  entries: StringsEntry[];
  /** Most entries are separated by a blank line (Xcode's layout): appended entries follow suit. */
  blankLineSeparated: boolean;
}

/**
 * Entries in file order, duplicates included. With `onlyKeys` (a writer looking for the few entries it
 * changes) other entries are scanned but not materialised.
 */
export function readStrings(text: string, limits: ParseLimits | undefined, onlyKeys?: ReadonlySet<string>): StringsDocument {
  const guard = new LimitGuard(limits);
  const scanner = new Scanner(text);
  const entries: StringsEntry[] = [];
  let comments: string[] = [];
  let blockStart = -1;
  let previousEnd = 0;
  let count = 0;
  let spaced = 0;
  let realComments = false;
  for (;;) {
    const spaceStart = scanner.pos;
    scanner.skipSpace();
    // translate-toolkit quirk, kept because Weblate stores what it reads: a blank line detaches pending
    // comments; blank lines with no comment pending become empty note lines ("⏎// z" for a comment after
    // one blank line).
    for (let blank = countBlankLines(text, spaceStart, scanner.pos); blank > 0; blank--) {
      if (realComments) {
        comments = [];
        blockStart = -1;
        realComments = false;
      } else comments.push('');
    }
    const pos = scanner.pos;
    if (pos >= text.length) break;
    if (text.startsWith('/*', pos)) {
      const close = text.indexOf('*/', pos + 2);
      if (close < 0) scanner.fail(pos, 'unterminated /* comment');
      if (blockStart < 0) blockStart = pos;
      realComments = true;
      comments.push(text.slice(pos, close + 2));
      scanner.pos = close + 2;
      continue;
    }
    if (text.startsWith('//', pos)) {
      let end = pos;
      while (end < text.length && text[end] !== '\n' && text[end] !== '\r') end++;
      if (blockStart < 0) blockStart = pos;
      realComments = true;
      comments.push(text.slice(pos, end));
      scanner.pos = end;
      continue;
    }
    const entryStart = pos;
    const line = scanner.lineOf(entryStart);
    guard.countUnit(line);
    // translate-toolkit decodes only \" in keys and keeps `\\`, `\n`... as written: Weblate's context.
    const key = scanner.token('key', true);
    scanner.skipSpace();
    if (text[scanner.pos] !== '=') scanner.fail(scanner.pos, `expected "=" after key "${key}"`);
    scanner.pos++;
    scanner.skipSpace();
    const valueStart = scanner.pos;
    const value = scanner.token('value');
    const valueEnd = scanner.pos;
    scanner.skipSpace();
    if (text[scanner.pos] !== ';') scanner.fail(scanner.pos, `expected ";" after the value of "${key}"`);
    scanner.pos++;
    guard.checkString(key, line);
    guard.checkString(value, line);
    const first = blockStart >= 0 ? blockStart : entryStart;
    const start = lineStartIfBlank(text, first);
    const blockEnd = lineEndIfBlank(text, scanner.pos);
    const blankLineBefore = count > 0 && hasBlankLine(text, previousEnd, start);
    if (blankLineBefore) spaced++;
    count++;
    previousEnd = blockEnd;
    if (onlyKeys && !onlyKeys.has(key)) {
      comments = [];
      blockStart = -1;
      realComments = false;
      continue;
    }
    entries.push({
      key,
      value,
      note: comments.filter((comment) => comment !== XCODE_PLACEHOLDER).join('\n'),
      valueStart,
      valueEnd,
      blockStart: start,
      blockEnd,
      blankLineBefore,
      line,
    });
    comments = [];
    blockStart = -1;
    realComments = false;
  }
  return { entries, blankLineSeparated: count > 1 && spaced * 2 >= count - 1 };
}
