// Reading XLIFF 1.2 (and 1.1) files for `xliff` and `poxliff` (formats.md §3.2). Both walk every <file>, any
// nesting of <group>, and each <trans-unit>. `xliff` keeps inline markup as XML text; `poxliff` reads plain
// text and joins `x-gettext-plurals` groups into one plural unit.

import { FormatParseError } from '../format';
import type { ParsedStore, StoreParseOptions, StoreUnit } from '../store';
import { decodeXml, type DecodedXml } from './xml-encoding';
import { escapeXmlText } from './xml-escape';
import { flagsFromAttributes } from './xml-flags';
import { UnitCollector } from './xml-units';
import {
  childElements,
  firstChildElement,
  getAttribute,
  readXmlDocument,
  textContent,
  type XmlDocument,
  type XmlElement,
  type XmlNode,
} from './xml-tokenizer';

export type XliffFlavour = 'xliff' | 'plainxliff' | 'poxliff';

/** XLIFF `state` values Weblate treats as "needs editing" (formats.md §3.2 "States"). */
export const FUZZY_STATES = new Set(['new', 'needs-translation', 'needs-adaptation', 'needs-l10n']);

export interface XliffEntry {
  unit: StoreUnit;
  /** The <trans-unit> of each form (one for a non-plural unit). */
  transUnits: XmlElement[];
  /** The `x-gettext-plurals` group of a plural poxliff unit. */
  group?: XmlElement;
}

export interface XliffRead {
  document: XmlDocument;
  encoding: DecodedXml;
  entries: XliffEntry[];
  language?: string;
}

function preservesSpace(element: XmlElement): boolean {
  for (let at: XmlElement | null = element; at; at = at.parent) {
    const space = getAttribute(at, 'xml:space');
    if (space !== undefined) return space === 'preserve';
  }
  return false;
}

/** Without xml:space="preserve" translate-toolkit collapses whitespace runs and trims the ends. */
function normaliseSpace(text: string, preserve: boolean): string {
  return preserve ? text : text.replace(/[ \t\r\n]+/g, ' ').trim();
}

/** Inline content as XML text: text (and CDATA) escaped as lxml writes it, markup as written. */
function xmlText(source: string, nodes: readonly XmlNode[], preserve: boolean): string {
  let out = '';
  for (const node of nodes) {
    if (node.kind === 'text' || node.kind === 'cdata') {
      // CDATA is plain text to translate-toolkit's placeables parser, so it comes out escaped like text.
      out += escapeXmlText(preserve ? node.text : node.text.replace(/[ \t\r\n]+/g, ' '));
    }
    else if (node.kind === 'element' && !node.selfClosing) {
      // Recursion depth is bounded by the reader's maxDepth.
      out += source.slice(node.start, node.startTagEnd) + xmlText(source, node.children, preserve) + source.slice(node.endTagStart, node.end);
    } else out += source.slice(node.start, node.end);
  }
  return out;
}

/** The text Weblate sees in a <source>/<target> element for the flavour. */
export function readXliffText(document: XmlDocument, element: XmlElement | undefined, flavour: XliffFlavour): string {
  if (!element) return '';
  const preserve = preservesSpace(element);
  if (flavour !== 'xliff') return normaliseSpace(textContent(element), preserve);
  const text = xmlText(document.source, element.children, preserve);
  return preserve ? text : text.trim();
}

/** toolkit's id: `<file original>\x04<id>` with the `__%04__` escape of po2xliff decoded. */
function unitId(file: XmlElement | null, element: XmlElement): string {
  const id = (getAttribute(element, 'id') ?? '').replace(/__%04__/g, '\x04');
  const original = file ? getAttribute(file, 'original') : undefined;
  return original ? `${original}\x04${id}` : id;
}

/** Weblate's context: `resname`, else the toolkit id with `\x04` spelled `///` (formats.md §3.2). */
export function unitContext(file: XmlElement | null, element: XmlElement): string {
  return getAttribute(element, 'resname') ?? unitId(file, element).replace(/\x04/g, '///');
}

function notesOf(elements: readonly XmlElement[]): string {
  const notes: string[] = [];
  for (const element of elements) {
    for (const note of childElements(element, 'note')) {
      const text = textContent(note);
      if (!notes.includes(text)) notes.push(text);
    }
  }
  return notes.join('\n');
}

/** poxliff `po-reference` context groups as `file:line` locations. */
function locationsOf(elements: readonly XmlElement[]): string {
  const locations: string[] = [];
  for (const element of elements) {
    for (const group of childElements(element, 'context-group')) {
      if (getAttribute(group, 'name') !== 'po-reference') continue;
      let file = '';
      let line = '';
      for (const context of childElements(group, 'context')) {
        const type = getAttribute(context, 'context-type');
        if (type === 'sourcefile') file = textContent(context);
        else if (type === 'linenumber') line = textContent(context);
      }
      if (file) locations.push(line ? `${file}:${line}` : file);
    }
  }
  return locations.join(', ');
}

function stateOf(transUnit: XmlElement): { fuzzy: boolean; approved: boolean; readOnly: boolean } {
  const target = firstChildElement(transUnit, 'target');
  const state = target ? getAttribute(target, 'state') : undefined;
  return {
    fuzzy: target !== undefined && state !== undefined && FUZZY_STATES.has(state),
    approved: getAttribute(transUnit, 'approved') === 'yes',
    readOnly: getAttribute(transUnit, 'translate') === 'no',
  };
}

export function isPluralGroup(element: XmlElement): boolean {
  return element.localName === 'group' && getAttribute(element, 'restype') === 'x-gettext-plurals';
}

/** Reads every translatable unit in document order (header and empty-source units skipped). */
export function readXliff(content: Buffer, flavour: XliffFlavour, options: StoreParseOptions = {}): XliffRead {
  const encoding = decodeXml(content);
  return { ...readXliffDocument(readXmlDocument(encoding.text), flavour, options), encoding };
}

/** readXliff on an already read document (writers re-read single units of a scanned file with it). */
export function readXliffDocument(document: XmlDocument, flavour: XliffFlavour, options: StoreParseOptions = {}): Omit<XliffRead, 'encoding'> {
  if (document.root.localName !== 'xliff') {
    throw new FormatParseError(`line ${document.root.line}: root element is <${document.root.name}>, not <xliff>`);
  }
  const collector = new UnitCollector(options, (unit) => `unit "${unit.context}"`);
  const entries: XliffEntry[] = [];
  let language: string | undefined;
  const stack: { element: XmlElement; file: XmlElement | null }[] = childElements(document.root)
    .reverse()
    .map((element) => ({ element, file: null }));
  while (stack.length > 0) {
    const { element, file: outerFile } = stack.pop() as { element: XmlElement; file: XmlElement | null };
    const file = element.localName === 'file' ? element : outerFile;
    if (element.localName === 'file' && language === undefined) language = getAttribute(element, 'target-language');
    let transUnits: XmlElement[];
    let group: XmlElement | undefined;
    if (element.localName === 'trans-unit') transUnits = [element];
    else if (flavour === 'poxliff' && isPluralGroup(element)) {
      transUnits = childElements(element, 'trans-unit');
      group = element;
      if (transUnits.length === 0) continue;
    } else {
      for (const child of childElements(element).reverse()) stack.push({ element: child, file });
      continue;
    }
    const first = transUnits[0];
    if (getAttribute(first, 'restype') === 'x-gettext-domain-header') continue;
    const source = transUnits.map((unit) => readXliffText(document, firstChildElement(unit, 'source'), flavour));
    if (source[0] === '') continue;
    const owner = group ?? first;
    const unit: StoreUnit = {
      context: unitContext(file, owner),
      source,
      target: transUnits.map((unit) => readXliffText(document, firstChildElement(unit, 'target'), flavour)),
      plural: group !== undefined,
      note: notesOf(group ? [group, ...transUnits] : transUnits),
      location: flavour === 'poxliff' ? locationsOf(group ? [group, ...transUnits] : transUnits) : '',
      flags: flagsFromAttributes(owner),
      previousSource: '',
      ...stateOf(first),
      position: collector.nextPosition(),
      line: owner.line,
    };
    const before = collector.units.length;
    collector.add(unit, `${unit.context}\x00${unit.source.join('\x1e\x1e')}`);
    if (collector.units.length > before) entries.push({ unit, transUnits, group });
  }
  return { document, entries, language };
}

export function parseXliffStore(content: Buffer, flavour: XliffFlavour, options?: StoreParseOptions): ParsedStore {
  const read = readXliff(content, flavour, options);
  return read.language ? { units: read.entries.map((entry) => entry.unit), language: read.language } : { units: read.entries.map((entry) => entry.unit) };
}
