// Helpers shared by the ts, resx and stringsdict formats (formats.md §3.16, §3.13, §3.5): reading a file into
// the offset tree of xml-tokenizer.ts, collecting units under the parse limits and the duplicate rule, and the
// splice builders the writers use so that only the edited entry's lines change (issue 11 item 3).

import { FormatLimitError, FormatParseError } from '../format';
import type { StoreParseOptions, StoreUnit } from '../store';
import { decodeXml, detectNewline, type DecodedXml } from './xml-encoding';
import { escapeXmlText } from './xml-escape';
import { readXmlDocument, type XmlDocument, type XmlElement } from './xml-tokenizer';
import { readSparseXml, type SparseHandlers } from './xml2-sparse';

export interface LoadedXml {
  decoded: DecodedXml;
  doc: XmlDocument;
  /** The line ending new lines get: the file's own ("\r\n" for a CRLF file). */
  newline: '\n' | '\r\n';
}

/** Decodes (BOM, UTF-16, declared encoding) and reads `content`; FormatParseError `line N: ...` when it is not XML. */
export function loadXml(content: Buffer): LoadedXml {
  const decoded = decodeXml(content);
  const doc = readXmlDocument(decoded.text);
  return { decoded, doc, newline: detectNewline(decoded.text) };
}

/** As `loadXml`, streaming entries through `handlers` (see xml2-sparse.ts) instead of keeping the whole tree. */
export function loadSparseXml(content: Buffer, handlers: SparseHandlers): LoadedXml {
  const decoded = decodeXml(content);
  const doc = readSparseXml(decoded.text, handlers);
  return { decoded, doc, newline: detectNewline(decoded.text) };
}

/** Throws unless the root element's local name is `expected` (a file of another XML format, e.g. Android). */
export function expectRoot(doc: XmlDocument, expected: string): void {
  if (doc.root.localName !== expected) {
    throw new FormatParseError(`line ${doc.root.line}: root element is <${doc.root.name}>, expected <${expected}>`);
  }
}

/**
 * The element's text the way lxml's `.text` gives it to translate-toolkit: the character data (CDATA merged)
 * before the first child element, comment or processing instruction. `undefined` when there is none, as lxml
 * gives `None`.
 */
export function elementText(element: XmlElement | undefined): string | undefined {
  if (!element) return undefined;
  let out: string | undefined;
  for (const child of element.children) {
    if (child.kind !== 'text' && child.kind !== 'cdata') break;
    out = (out ?? '') + child.text;
  }
  return out;
}

/**
 * Collects units in file order, applying the parse limits (every entry counts, duplicates and skipped ones
 * included) and the duplicate rule of store.ts (first kept; later ones to `onDuplicate` or an error naming
 * both lines).
 */
export class UnitSink<U extends StoreUnit> {
  readonly units: U[] = [];
  private readonly byKey = new Map<string, U>();
  private entries = 0;

  constructor(
    private readonly options: StoreParseOptions | undefined,
    private readonly describeDuplicate: (unit: U) => string,
  ) {}

  /** Counts one entry of the file against `maxUnits`. */
  countEntry(line: number): void {
    this.entries += 1;
    const max = this.options?.limits?.maxUnits;
    if (max !== undefined && this.entries > max) {
      throw new FormatLimitError('units', `line ${line}: the file has more than ${max} strings`);
    }
  }

  /** Checks each string against `maxStringLength`. */
  checkLength(line: number, ...values: readonly string[]): void {
    const max = this.options?.limits?.maxStringLength;
    if (max === undefined) return;
    for (const value of values) {
      if (value.length > max) {
        throw new FormatLimitError('string-length', `line ${line}: a string is longer than ${max} characters`);
      }
    }
  }

  /** Adds `unit` unless `key` repeats an earlier unit's; returns whether it was kept. */
  push(unit: U, key: string): boolean {
    const kept = this.byKey.get(key);
    if (kept) {
      if (!this.options?.onDuplicate) {
        throw new FormatParseError(`line ${unit.line}: ${this.describeDuplicate(unit)} (first at line ${kept.line})`);
      }
      this.options.onDuplicate(unit, kept);
      return false;
    }
    this.byKey.set(key, unit);
    this.units.push(unit);
    return true;
  }
}

/** Escapes character data (& < >) and writes line breaks with the file's own line ending. */
export function textForFile(text: string, newline: '\n' | '\r\n'): string {
  const escaped = escapeXmlText(text);
  return newline === '\n' ? escaped : escaped.replace(/\n/g, '\r\n');
}

function isBlank(code: number): boolean {
  return code === 0x20 || code === 0x09;
}

/** The offset where the line holding `offset` starts. */
export function lineStart(source: string, offset: number): number {
  return source.lastIndexOf('\n', offset - 1) + 1;
}

/** The spaces/tabs before `offset` on its line, or null when something else precedes it there. */
export function indentBefore(source: string, offset: number): string | null {
  const start = lineStart(source, offset);
  for (let at = start; at < offset; at += 1) if (!isBlank(source.charCodeAt(at))) return null;
  return source.slice(start, offset);
}

/** The indentation of the line an element starts on (its own indentation when it starts the line). */
export function lineIndent(source: string, offset: number): string {
  const start = lineStart(source, offset);
  let at = start;
  while (at < source.length && isBlank(source.charCodeAt(at))) at += 1;
  return source.slice(start, at);
}

/** The file's indentation step: the indentation of its first indented tag line; `fallback` when none is. */
export function detectIndentUnit(source: string, fallback: string): string {
  const match = /\n([ \t]+)</.exec(source);
  return match ? match[1] : fallback;
}

/**
 * The range to delete to remove `start..end` (one node, or a key and its value): with its indentation and line
 * break when it sits alone on its lines, so no blank line stays behind.
 */
export function removalRange(source: string, start: number, end: number): { start: number; end: number; text: string } {
  const indent = indentBefore(source, start);
  let after = end;
  while (after < source.length && isBlank(source.charCodeAt(after))) after += 1;
  if (indent !== null) {
    if (source.startsWith('\r\n', after)) return { start: start - indent.length, end: after + 2, text: '' };
    if (source[after] === '\n') return { start: start - indent.length, end: after + 1, text: '' };
  }
  return { start, end, text: '' };
}

export interface Splice {
  start: number;
  end: number;
  text: string;
}

/**
 * Appends a child block (its lines after the first already indented) as the last child of `parent`: after the
 * last child element, on a new line with `childIndent`; into an empty or self-closing parent, with the parent's
 * closing tag moved to a line of its own.
 */
export function appendChildSplice(
  source: string,
  parent: XmlElement,
  block: string,
  childIndent: string,
  newline: string,
): Splice {
  let lastElementEnd = -1;
  for (const child of parent.children) if (child.kind === 'element') lastElementEnd = child.end;
  if (lastElementEnd !== -1) return { start: lastElementEnd, end: lastElementEnd, text: `${newline}${childIndent}${block}` };
  const closeIndent = lineIndent(source, parent.start);
  const body = `${newline}${childIndent}${block}${newline}${closeIndent}`;
  if (parent.selfClosing) {
    const startTag = source.slice(parent.start, parent.end).replace(/\s*\/>$/, '>');
    return { start: parent.start, end: parent.end, text: `${startTag}${body}</${parent.name}>` };
  }
  // Only whitespace (or comments, kept before the new child) is inside: replace trailing whitespace.
  let cut = parent.endTagStart;
  while (cut > parent.startTagEnd && /\s/.test(source[cut - 1])) cut -= 1;
  return { start: cut, end: parent.endTagStart, text: body };
}

/** Replaces an element's content; a self-closing element is opened (`<value />` -> `<value>text</value>`). */
export function replaceContentSplice(source: string, element: XmlElement, content: string): Splice {
  if (element.selfClosing) {
    const startTag = source.slice(element.start, element.end).replace(/\s*\/>$/, '>');
    return { start: element.start, end: element.end, text: `${startTag}${content}</${element.name}>` };
  }
  return { start: element.startTagEnd, end: element.endTagStart, text: content };
}

/** Target forms padded with "" or cut to `count` (formats.md §2.3). */
export function fitForms(forms: readonly string[], count: number): string[] {
  const out = forms.slice(0, count);
  while (out.length < count) out.push('');
  return out;
}
