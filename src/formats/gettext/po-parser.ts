// A line-level PO parser that remembers where every entry and every part of it sits, so write can patch
// the original text instead of re-serialising it (issue 11 item 3). It reads what translate-toolkit's
// parser reads (formats.md §3.1): comments by kind, msgctxt, msgid, msgid_plural, msgstr / msgstr[n] with
// continuation lines, `#|` previous strings and `#~` obsolete entries (kept verbatim, never units).
// One pass over the lines, no regex backtracking over long input.

import { FormatLimitError, FormatParseError, type ParseLimits } from '../format';
import { findClosingQuote, unescapePo } from './po-escape';

export interface PoEntry {
  /** Index (0-based) of the first and last line of the entry, comments included. */
  firstLine: number;
  lastLine: number;
  obsolete: boolean;
  translatorComments: string[];
  extractedComments: string[];
  references: string[];
  /** Line indices of `#,` lines and their flag words (fuzzy included), in file order. */
  flagLines: number[];
  flags: string[];
  /** Line indices of `#|` lines. */
  previousLines: number[];
  previousMsgid: string | null;
  previousMsgidPlural: string | null;
  msgctxt: string | null;
  msgid: string | null;
  msgidPlural: string | null;
  /** msgstr, or msgstr[0..n] of a plural entry. */
  msgstr: string[];
  /** First line of the msgstr part (msgstr runs to lastLine). -1 when absent. */
  msgstrLine: number;
  /** First line of msgctxt / msgid (where the keyword part of the entry begins). -1 when absent. */
  keywordLine: number;
}

export interface PoDocument {
  text: string;
  /** Start offset of each line, plus text.length at the end. */
  lineStarts: Int32Array;
  /** A line's text without its line end. */
  lineAt(index: number): string;
  entries: PoEntry[];
  /** The newline used for new lines: the one after the first msgid (translate-toolkit's rule). */
  newline: string;
}

type Part = 'msgctxt' | 'msgid' | 'msgid_plural' | 'msgstr';

// Entries share one frozen empty array until they get a line of that kind: most entries have few comment
// kinds, and allocating six arrays per entry dominated parse time on large catalogs.
const NONE: never[] = Object.freeze([]) as unknown as never[];

function own<T>(list: T[]): T[] {
  return list === NONE ? [] : list;
}

function newEntry(line: number): PoEntry {
  return {
    firstLine: line,
    lastLine: line,
    obsolete: false,
    translatorComments: NONE,
    extractedComments: NONE,
    references: NONE,
    flagLines: NONE,
    flags: NONE,
    previousLines: NONE,
    previousMsgid: null,
    previousMsgidPlural: null,
    msgctxt: null,
    msgid: null,
    msgidPlural: null,
    msgstr: [],
    msgstrLine: -1,
    keywordLine: -1,
  };
}

const KEYWORD = /^(msgctxt|msgid_plural|msgid|msgstr)(?:\[(\d+)\])?[ \t]*(?="|$)/;
const CONTROL_CHARACTER = /[\x00-\x08\x0b\x0c\x0e-\x1f]/;

/** Only spaces, tabs or a stray CR from `from` to the end of the line (no allocation, unlike trim()). */
function isBlank(line: string, from: number): boolean {
  for (let i = from; i < line.length; i++) {
    const char = line.charCodeAt(i);
    if (char !== 0x20 && char !== 0x09 && char !== 0x0d && char !== 0x0c && char !== 0x0b) return false;
  }
  return true;
}

export function lineStartsOf(text: string): Int32Array {
  // Two passes (count, then fill) so the table is one typed array instead of a growing list.
  let count = text.length > 0 ? 1 : 0;
  for (let at = text.indexOf('\n'); at !== -1 && at + 1 < text.length; at = text.indexOf('\n', at + 1)) count++;
  const lineStarts = new Int32Array(count + 1);
  let line = 0;
  let start = 0;
  while (start < text.length) {
    lineStarts[line++] = start;
    const end = text.indexOf('\n', start);
    start = end === -1 ? text.length : end + 1;
  }
  lineStarts[line] = text.length;
  return lineStarts;
}

export function lineGetter(text: string, lineStarts: Int32Array): (index: number) => string {
  return (index) => {
    const start = lineStarts[index];
    let stop = lineStarts[index + 1];
    if (stop > start && text.charCodeAt(stop - 1) === 10) stop--;
    if (stop > start && text.charCodeAt(stop - 1) === 13) stop--;
    return text.slice(start, stop);
  };
}

export function detectNewline(text: string): string {
  const msgid = text.search(/(^|\n)msgid /);
  const end = text.indexOf('\n', msgid === -1 ? 0 : msgid + 1);
  return end > 0 && text.charCodeAt(end - 1) === 13 ? '\r\n' : '\n';
}

class EntryParser {
  private entries: PoEntry[] = [];
  private current: PoEntry | null = null;
  /** The part continuation lines extend, and for msgstr the form index. */
  private part: Part | null = null;
  private form = 0;
  private previousPart: 'msgid' | 'msgid_plural' | 'other' | null = null;
  private partValue = '';
  private units = 0;

  /**
   * `light` skips the content of comment lines (notes, references, flags, `#|`): write uses it to find
   * entries cheaply, then re-reads in full only the entries it edits (reparseEntry).
   */
  constructor(
    private readonly lineAt: (index: number) => string,
    private readonly limits: ParseLimits | undefined,
    private readonly light = false,
  ) {}

  parse(from: number, to: number): PoEntry[] {
    for (let index = from; index < to; index++) {
      const raw = this.lineAt(index);
      const first = raw.charCodeAt(0);
      this.line(index, first === 0x20 || first === 0x09 ? raw.trimStart() : raw);
    }
    this.finish(to);
    return this.entries;
  }

  private fail(index: number, problem: string): never {
    throw new FormatParseError(`line ${index + 1}: ${problem}`);
  }

  private line(index: number, line: string): void {
    const first = line.charCodeAt(0);
    if (first === 0x23 /* # */) {
      if (line.charCodeAt(1) === 0x7e /* ~ */) this.obsoleteLine(index, line);
      else this.commentLine(index, line);
      return;
    }
    if (line === '' || isBlank(line, 0)) {
      this.finish(index);
      return;
    }
    if (first === 0x22 /* " */) {
      if (!this.current || this.part === null || this.current.obsolete) this.fail(index, 'string without keyword');
      this.appendString(index, line, 0);
      return;
    }
    const match = KEYWORD.exec(line);
    if (!match) this.fail(index, `unexpected text "${line.slice(0, 40)}"`);
    this.keyword(index, match[1] as Part, match[2], line, match[0].length);
  }

  private start(index: number): PoEntry {
    if (!this.current) this.current = newEntry(index);
    return this.current;
  }

  private obsoleteLine(index: number, line: string): void {
    const rest = line.slice(2).trimStart();
    const startsEntry = /^(msgctxt|msgid)[ \t"]/.test(rest) || rest.startsWith('|');
    if (this.current && (!this.current.obsolete ? this.current.keywordLine !== -1 : this.current.msgstrLine !== -1 && startsEntry)) {
      this.finish(index);
    }
    const entry = this.start(index);
    entry.obsolete = true;
    if (rest.startsWith('msgstr')) entry.msgstrLine = index;
    if (entry.keywordLine === -1 && /^(msgctxt|msgid)/.test(rest)) entry.keywordLine = index;
    entry.lastLine = index;
  }

  private commentLine(index: number, line: string): void {
    if (this.current && (this.current.keywordLine !== -1 || this.current.obsolete)) this.finish(index);
    const entry = this.start(index);
    entry.lastLine = index;
    if (this.light) return;
    const kind = line[1];
    if (kind === '.') (entry.extractedComments = own(entry.extractedComments)).push(line.slice(3));
    else if (kind === ':') (entry.references = own(entry.references)).push(line.slice(2));
    else if (kind === ',') {
      (entry.flagLines = own(entry.flagLines)).push(index);
      entry.flags = own(entry.flags);
      for (const word of line.slice(2).split(',')) {
        const flag = word.trim();
        if (flag) entry.flags.push(flag);
      }
    } else if (kind === '|') this.previousLine(index, entry, line.slice(2).trimStart());
    else (entry.translatorComments = own(entry.translatorComments)).push(line.slice(2));
  }

  private previousLine(index: number, entry: PoEntry, rest: string): void {
    (entry.previousLines = own(entry.previousLines)).push(index);
    const keyword = /^(msgctxt|msgid_plural|msgid)[ \t]*/.exec(rest);
    let quoted = rest;
    if (keyword) {
      this.previousPart = keyword[1] === 'msgctxt' ? 'other' : (keyword[1] as 'msgid' | 'msgid_plural');
      quoted = rest.slice(keyword[0].length);
      if (this.previousPart === 'msgid') entry.previousMsgid = '';
      if (this.previousPart === 'msgid_plural') entry.previousMsgidPlural = '';
    }
    const close = quoted.startsWith('"') ? findClosingQuote(quoted, 0) : -1;
    if (close === -1) return; // translate-toolkit tolerates odd `#|` lines; they only feed previous_source.
    const value = unescapePo(quoted.slice(1, close));
    if (this.previousPart === 'msgid') entry.previousMsgid += value;
    else if (this.previousPart === 'msgid_plural') entry.previousMsgidPlural += value;
  }

  private keyword(index: number, part: Part, formText: string | undefined, line: string, at: number): void {
    const startsNew = part === 'msgctxt' || part === 'msgid';
    if (this.current && startsNew && (this.current.msgstrLine !== -1 || this.current.obsolete)) this.finish(index);
    const entry = this.start(index);
    if (formText !== undefined && part !== 'msgstr') this.fail(index, `${part} cannot have an index`);
    switch (part) {
      case 'msgctxt':
        if (entry.msgctxt !== null || entry.msgid !== null) this.fail(index, 'msgctxt after msgid');
        entry.keywordLine = index;
        break;
      case 'msgid':
        if (entry.msgid !== null) this.fail(index, 'duplicate msgid');
        if (entry.keywordLine === -1) entry.keywordLine = index;
        break;
      case 'msgid_plural':
        if (entry.msgid === null || entry.msgidPlural !== null || entry.msgstrLine !== -1) {
          this.fail(index, 'msgid_plural without msgid');
        }
        break;
      case 'msgstr': {
        if (entry.msgid === null) this.fail(index, 'msgstr without msgid');
        const plural = entry.msgidPlural !== null;
        if (plural && formText === undefined) this.fail(index, 'plural entry needs msgstr[N]');
        if (!plural && formText !== undefined) this.fail(index, 'msgstr[N] without msgid_plural');
        const form = formText === undefined ? 0 : Number(formText);
        if (form !== entry.msgstr.length) this.fail(index, `expected msgstr[${entry.msgstr.length}]`);
        if (entry.msgstrLine === -1) entry.msgstrLine = index;
        this.form = form;
        break;
      }
    }
    this.part = part;
    this.partValue = '';
    this.setPart(entry, '');
    entry.lastLine = index;
    const rest = line.slice(at);
    if (!rest.startsWith('"')) this.fail(index, `${part} without a string`);
    this.appendString(index, rest, 0);
  }

  private setPart(entry: PoEntry, value: string): void {
    switch (this.part) {
      case 'msgctxt':
        entry.msgctxt = value;
        break;
      case 'msgid':
        entry.msgid = value;
        break;
      case 'msgid_plural':
        entry.msgidPlural = value;
        break;
      case 'msgstr':
        entry.msgstr[this.form] = value;
        break;
    }
  }

  private appendString(index: number, line: string, open: number): void {
    const entry = this.current as PoEntry;
    const close = findClosingQuote(line, open);
    if (close === -1) this.fail(index, 'unterminated string');
    if (!isBlank(line, close + 1)) this.fail(index, 'text after the closing quote');
    const value = unescapePo(line.slice(open + 1, close));
    this.partValue += value;
    const joined = this.partValue;
    const maxLength = this.limits?.maxStringLength;
    if (maxLength !== undefined && joined.length > maxLength) {
      throw new FormatLimitError('string-length', `line ${index + 1}: string longer than ${maxLength} characters`);
    }
    if (CONTROL_CHARACTER.test(value)) this.fail(index, 'control character in string');
    this.setPart(entry, joined);
    entry.lastLine = index;
  }

  private finish(nextIndex: number): void {
    const entry = this.current;
    this.current = null;
    this.part = null;
    this.previousPart = null;
    if (!entry) return;
    if (!entry.obsolete && entry.msgid !== null && entry.msgstrLine === -1) {
      this.fail(nextIndex - 1 < entry.lastLine ? entry.lastLine : nextIndex - 1, 'msgid without msgstr');
    }
    if (!entry.obsolete && entry.msgid !== null && entry.msgidPlural !== null && entry.msgstr.length === 0) {
      this.fail(entry.lastLine, 'plural entry without msgstr[0]');
    }
    if (!entry.obsolete && entry.msgid !== null && (entry.msgid !== '' || entry.msgctxt !== null)) {
      this.units++;
      const maxUnits = this.limits?.maxUnits;
      if (maxUnits !== undefined && this.units > maxUnits) {
        throw new FormatLimitError('units', `line ${entry.firstLine + 1}: more than ${maxUnits} units`);
      }
    }
    this.entries.push(entry);
  }
}

export function parsePoText(text: string, limits?: ParseLimits, light = false): PoDocument {
  const lineStarts = lineStartsOf(text);
  const lineAt = lineGetter(text, lineStarts);
  const entries = new EntryParser(lineAt, limits, light).parse(0, lineStarts.length - 1);
  return { text, lineAt, lineStarts, entries, newline: detectNewline(text) };
}

/** The full reading of one entry found by a light parse. */
export function reparseEntry(document: PoDocument, entry: PoEntry): PoEntry {
  return parseEntryAt(document.lineAt, entry.firstLine, entry.lastLine) ?? entry;
}

/** The full reading of the entry on lines `first`..`last` (0-based, inclusive), found by a scan. */
export function parseEntryAt(lineAt: (index: number) => string, first: number, last: number): PoEntry | undefined {
  return new EntryParser(lineAt, undefined).parse(first, last + 1)[0];
}

/** The header entry: the first live entry with an empty msgid, no msgctxt and a non-empty msgstr. */
export function findHeader(entries: readonly PoEntry[]): PoEntry | undefined {
  for (const entry of entries) {
    if (entry.obsolete || entry.msgid === null) continue;
    if (entry.msgid === '' && entry.msgctxt === null && entry.msgidPlural === null) {
      return entry.msgstr[0] ? entry : undefined;
    }
    return undefined;
  }
  return undefined;
}

/** Entries that are units: live, with a msgid or a msgctxt (the header and blank entries are not). */
export function isUnitEntry(entry: PoEntry): boolean {
  return !entry.obsolete && entry.msgid !== null && (entry.msgid !== '' || entry.msgctxt !== null);
}
