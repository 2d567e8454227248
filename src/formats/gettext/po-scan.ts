// Finding the entries a write changes without reading the whole file (issue 11: one edit written back to a
// 50,000-entry file in < 200 ms). One pass over the lines finds the entries by the boundary rules of
// po-parser's EntryParser, decodes only msgctxt and msgid, and fully parses only the first entry (the
// header) and the entries a change names. The full light parse it replaces tokenised every line, and the
// parse worker parsed the whole file once more before that to check the limits (node --cpu-prof: the two
// were almost all of a one-edit commit). The scan enforces the same limits itself.

import { FormatLimitError, FormatParseError, type ParseLimits } from '../format';
import { byteLineGetter, readPoBytes, type PoBytes } from './po-bytes';
import { decodePo } from './po-charset';
import { findClosingQuote, unescapePo } from './po-escape';
import { detectNewline, findHeader, lineGetter, lineStartsOf, parseEntryAt, type PoDocument, type PoEntry } from './po-parser';
import type { LoadedPo } from './po-units';

export interface EntryIdentity {
  msgctxt: string | null;
  msgid: string;
}

const enum Part {
  None,
  Msgctxt,
  Msgid,
  Other,
}

const SPACE = 0x20;
const TAB = 0x09;

function isBlankRange(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const char = text.charCodeAt(i);
    if (char !== SPACE && char !== TAB && char !== 0x0d && char !== 0x0a && char !== 0x0c && char !== 0x0b) return false;
  }
  return true;
}

/** The keyword at `at` (EntryParser's KEYWORD: a name, `[n]` for msgstr, blanks, then `"` or the line end). */
function keywordAt(text: string, at: number, end: number): Part | null {
  let part: Part;
  let after: number;
  if (text.startsWith('msgctxt', at)) [part, after] = [Part.Msgctxt, at + 7];
  else if (text.startsWith('msgid_plural', at)) [part, after] = [Part.Other, at + 12];
  else if (text.startsWith('msgid', at)) [part, after] = [Part.Msgid, at + 5];
  else if (text.startsWith('msgstr', at)) {
    [part, after] = [Part.Other, at + 6];
    if (text.charCodeAt(after) === 0x5b /* [ */) {
      const close = text.indexOf(']', after);
      if (close === -1 || close >= end || !/^\d+$/.test(text.slice(after + 1, close))) return null;
      after = close + 1;
    }
  } else return null;
  while (text.charCodeAt(after) === SPACE || text.charCodeAt(after) === TAB) after++;
  return after >= end || text.charCodeAt(after) === 0x22 || isBlankRange(text, after, end) ? part : null;
}

/**
 * A PoDocument holding only the first live entry (the header, when the file has one) and the live entries
 * `wanted` accepts, fully parsed, in file order. The entries in between are not materialised: the document
 * is fit for replacing entries in place and appending, not for removing entries (assemble then reads each
 * removed entry's neighbours).
 */
export function scanPoDocument(
  text: string,
  wanted: (identity: EntryIdentity) => boolean,
  limits: ParseLimits = {},
  lineReader: (lineStarts: Int32Array) => (index: number) => string = (lineStarts) => lineGetter(text, lineStarts),
  /** Told every live entry (identity and lines), in file order: po-write-cache.ts keeps them. */
  record?: (identity: EntryIdentity, first: number, last: number) => void,
): PoDocument {
  const lineStarts = lineStartsOf(text);
  const lineAt = lineReader(lineStarts);
  const lineCount = lineStarts.length - 1;
  const maxUnits = limits.maxUnits ?? Infinity;
  const maxLength = limits.maxStringLength ?? Infinity;
  const entries: PoEntry[] = [];
  let units = 0;
  let firstLiveSeen = false;

  // The entry being read: its lines, what it has seen (as EntryParser's PoEntry fields), and the line
  // ranges of its msgctxt and msgid parts, decoded only when the entry ends.
  let open = false;
  let first = 0;
  let last = 0;
  let obsolete = false;
  let hasKeyword = false;
  let hasMsgstr = false;
  let ctxFrom = -1;
  let ctxTo = -1;
  let idFrom = -1;
  let idTo = -1;
  let part = Part.None;
  let partFrom = 0;
  let partTo = 0;
  // Characters of the part's lines (bytes, for a Latin-1 image of UTF-8): an upper bound of its decoded
  // length, decoded exactly only past the limit.
  let partRaw = 0;

  const fail = (index: number, problem: string): never => {
    throw new FormatParseError(`line ${index + 1}: ${problem}`);
  };
  /** The part on lines from..to decoded; past `bound` characters, the line where it went past (as EntryParser). */
  const decode = (from: number, to: number, bound = Infinity): string => {
    let value = '';
    for (let index = from; index <= to; index++) {
      const line = lineAt(index);
      const quote = line.indexOf('"');
      const close = quote === -1 ? -1 : findClosingQuote(line, quote);
      if (close === -1) fail(index, 'unterminated string');
      value += unescapePo(line.slice(quote + 1, close));
      if (value.length > bound) throw new FormatLimitError('string-length', `line ${index + 1}: string longer than ${bound} characters`);
    }
    return value;
  };
  const endPart = (): void => {
    if (part !== Part.None && partRaw > maxLength) decode(partFrom, partTo, maxLength);
    part = Part.None;
  };
  const start = (index: number): void => {
    open = true;
    first = last = index;
    obsolete = hasKeyword = hasMsgstr = false;
    ctxFrom = ctxTo = idFrom = idTo = -1;
    part = Part.None;
  };
  const finish = (): void => {
    if (!open) return;
    endPart();
    open = false;
    if (obsolete || idFrom === -1) return;
    if (!hasMsgstr) fail(last, 'msgid without msgstr');
    const identity: EntryIdentity = { msgctxt: ctxFrom === -1 ? null : decode(ctxFrom, ctxTo), msgid: decode(idFrom, idTo) };
    if (identity.msgid !== '' || identity.msgctxt !== null) {
      units++;
      if (units > maxUnits) throw new FormatLimitError('units', `line ${first + 1}: more than ${maxUnits} units`);
    }
    record?.(identity, first, last);
    const isFirst = !firstLiveSeen;
    firstLiveSeen = true;
    if (isFirst || wanted(identity)) {
      const entry = parseEntryAt(lineAt, first, last);
      if (entry) entries.push(entry);
    }
  };

  for (let index = 0; index < lineCount; index++) {
    let at = lineStarts[index];
    const end = lineStarts[index + 1];
    let char = text.charCodeAt(at);
    while (at < end && (char === SPACE || char === TAB)) char = text.charCodeAt(++at);
    if (char === 0x23 /* # */) {
      endPart();
      if (text.charCodeAt(at + 1) === 0x7e /* ~ */) {
        let rest = at + 2;
        while (text.charCodeAt(rest) === SPACE || text.charCodeAt(rest) === TAB) rest++;
        const keyword = text.startsWith('msgctxt', rest) || text.startsWith('msgid', rest);
        const next = text.charCodeAt(rest + (text.startsWith('msgctxt', rest) ? 7 : 5));
        const startsEntry = (keyword && (next === SPACE || next === TAB || next === 0x22)) || text.charCodeAt(rest) === 0x7c; /* | */
        if (open && (!obsolete ? hasKeyword : hasMsgstr && startsEntry)) finish();
        if (!open) start(index);
        obsolete = true;
        if (text.startsWith('msgstr', rest)) hasMsgstr = true;
        if (keyword) hasKeyword = true;
      } else {
        if (open && (hasKeyword || obsolete)) finish();
        if (!open) start(index);
      }
      last = index;
      continue;
    }
    if (at >= end || isBlankRange(text, at, end)) {
      finish();
      continue;
    }
    if (char === 0x22 /* " */) {
      if (!open || part === Part.None || obsolete) fail(index, 'string without keyword');
      partRaw += end - at;
      partTo = index;
      if (part === Part.Msgctxt) ctxTo = index;
      else if (part === Part.Msgid) idTo = index;
      last = index;
      continue;
    }
    const keyword = keywordAt(text, at, end);
    if (keyword === null) return fail(index, `unexpected text "${lineAt(index).trimStart().slice(0, 40)}"`);
    const startsNew = keyword === Part.Msgctxt || keyword === Part.Msgid;
    if (open && startsNew && (hasMsgstr || obsolete)) finish();
    if (!open) start(index);
    endPart();
    if (keyword === Part.Msgctxt) [ctxFrom, ctxTo] = [index, index];
    else if (keyword === Part.Msgid) [idFrom, idTo] = [index, index];
    else if (text.startsWith('msgstr', at)) hasMsgstr = true;
    if (startsNew) hasKeyword = true;
    part = keyword;
    partFrom = partTo = index;
    partRaw = end - at;
    last = index;
  }
  finish();
  return { text, lineAt, lineStarts, entries, newline: detectNewline(text) };
}

/**
 * scanPo over bytes (po-bytes.ts): the document's text is the Latin-1 image of `bytes.body`, its lines are
 * read in the file's charset. Null when the charset needs the string path.
 */
export function scanPoBytes(
  content: Buffer,
  wanted: (identity: EntryIdentity) => boolean,
  limits?: ParseLimits,
  record?: (identity: EntryIdentity, first: number, last: number) => void,
): (LoadedPo & { bytes: PoBytes }) | null {
  const bytes = readPoBytes(content);
  if (!bytes) return null;
  const document = scanPoDocument(bytes.image, wanted, limits, (lineStarts) => byteLineGetter(bytes, lineStarts), record);
  return { document, encoding: bytes.encoding, header: findHeader(document.entries), bytes };
}

/** loadPo's result for a write that only replaces and appends entries (see scanPoDocument). */
export function scanPo(content: Buffer, wanted: (identity: EntryIdentity) => boolean, limits?: ParseLimits): LoadedPo {
  const { text, encoding } = decodePo(content);
  const document = scanPoDocument(text, wanted, limits);
  return { document, encoding, header: findHeader(document.entries) };
}
