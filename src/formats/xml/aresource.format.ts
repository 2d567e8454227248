// Android string resources, Weblate id `aresource` (formats.md §3.3). Monolingual: `name` is the context,
// <string> and <plurals> become units, <string-array> and everything else stays in the file untouched.
// Writing patches the original text: only the changed element's content (and, for state 100, its
// `translatable` attribute) changes; new keys are appended at the end of <resources>.

import { FormatParseError, FormatWriteError } from '../format';
import { pluralCategories, type PluralCategory } from '../plural-categories';
import type {
  FileFormat,
  ParsedStore,
  StoreChanges,
  StoreParseOptions,
  StoreUnit,
  StoreWriteContext,
  UnitWrite,
} from '../store';
import { readAndroidValue, writeAndroidValue } from './android-value';
import { applySplices, decodeXml, detectNewline, encodeXml, type Splice } from './xml-encoding';
import { escapeXmlAttribute } from './xml-escape';
import { flagsFromAttributes } from './xml-flags';
import { fitForms, indentationOf, removalRange, UnitCollector } from './xml-units';
import { readScannedElement, scanXmlDocument } from './xml-scan';
import {
  childElements,
  findAttribute,
  getAttribute,
  readXmlDocument,
  type XmlDocument,
  type XmlElement,
} from './xml-tokenizer';

const NEW_FILE = '<?xml version="1.0" encoding="utf-8"?>\n<resources></resources>';
const DEFAULT_INDENT = '    ';

function isUnitElement(element: XmlElement): boolean {
  return element.prefix === '' && (element.localName === 'string' || element.localName === 'plurals');
}

function readDocument(content: Buffer): { document: XmlDocument; encoding: ReturnType<typeof decodeXml> } {
  const encoding = decodeXml(content);
  const document = readXmlDocument(encoding.text);
  if (document.root.name !== 'resources') {
    throw new FormatParseError(`line ${document.root.line}: root element is <${document.root.name}>, not <resources>`);
  }
  return { document, encoding };
}

/** Plural items by quantity; the forms are the language's categories in order (formats.md §2.3). */
function readPluralForms(document: XmlDocument, plurals: XmlElement, categories: readonly PluralCategory[]): string[] {
  const byQuantity = new Map<string, string>();
  for (const item of childElements(plurals, 'item')) {
    const quantity = getAttribute(item, 'quantity');
    if (quantity !== undefined && !byQuantity.has(quantity)) byQuantity.set(quantity, readAndroidValue(document, item));
  }
  return categories.map((category) => byQuantity.get(category) ?? '');
}

function parseAndroid(content: Buffer, options: StoreParseOptions = {}): ParsedStore {
  const { document } = readDocument(content);
  const categories = pluralCategories(options.language ?? 'en');
  const collector = new UnitCollector(options, (unit) => `string "${unit.context}"`);
  let comments: string[] = [];
  for (const node of document.root.children) {
    if (node.kind === 'comment') {
      comments.push(node.text);
      continue;
    }
    if (node.kind === 'text' && node.text.trim() === '') continue;
    // Only comments directly above an entry are its note (formats.md §3.3).
    const note = comments.join('\n');
    comments = [];
    if (node.kind !== 'element' || !isUnitElement(node)) continue;
    const name = getAttribute(node, 'name');
    if (name === undefined) throw new FormatParseError(`line ${node.line}: <${node.name}> without a name attribute`);
    const plural = node.localName === 'plurals';
    const unit: StoreUnit = {
      context: name,
      source: [],
      target: plural ? readPluralForms(document, node, categories) : [readAndroidValue(document, node)],
      plural,
      note,
      location: '',
      flags: flagsFromAttributes(node),
      previousSource: '',
      fuzzy: false,
      approved: false,
      readOnly: getAttribute(node, 'translatable') === 'false',
      position: collector.nextPosition(),
      line: node.line,
    };
    collector.add(unit, name);
  }
  return { units: collector.units };
}

interface Layout {
  newline: string;
  /** One indentation step, from the first entry of <resources>. */
  indent: string;
}

function layoutOf(source: string, firstEntry: XmlElement | undefined): Layout {
  const indent = firstEntry ? indentationOf(source, firstEntry) : null;
  return { newline: detectNewline(source), indent: indent || DEFAULT_INDENT };
}

/** Plural items for `target`, one per category, plus `other` copied from `many` when the list lacks it. */
function pluralItems(target: readonly string[], languageCode: string, scope: XmlElement): { quantity: string; body: string }[] {
  const categories = pluralCategories(languageCode);
  const forms = fitForms(target, categories.length);
  const items = categories.map((category, index) => ({ quantity: category as string, value: forms[index] }));
  if (!categories.includes('other')) {
    const many = items.find((item) => item.quantity === 'many');
    items.push({ quantity: 'other', value: many ? many.value : (forms[forms.length - 1] ?? '') });
  }
  return items.map((item) => ({ quantity: item.quantity, body: writeAndroidValue(item.value, scope) }));
}

function pluralBody(items: { quantity: string; body: string }[], newline: string, itemIndent: string, closeIndent: string): string {
  const lines = items.map((item) => `${newline}${itemIndent}<item quantity="${item.quantity}">${item.body}</item>`);
  return lines.join('') + newline + closeIndent;
}

/** Splices replacing the content of an existing <string>/<plurals> and, for state 100, its translatable flag. */
function updateElement(document: XmlDocument, element: XmlElement, write: UnitWrite, context: StoreWriteContext, layout: Layout): Splice[] {
  const source = document.source;
  let content: string;
  if (element.localName === 'plurals') {
    const items = childElements(element, 'item');
    const closeIndent = indentationOf(source, element) ?? '';
    const itemIndent = (items[0] && indentationOf(source, items[0])) || closeIndent + layout.indent;
    content = pluralBody(pluralItems(write.target, context.languageCode, element), layout.newline, itemIndent, closeIndent);
  } else {
    content = writeAndroidValue(write.target[0] ?? '', element);
  }
  const splices: Splice[] = [];
  let attributeText = '';
  if (write.state === 'readonly') {
    // Weblate 5.x writes translatable="false" when it sets read-only (formats.md §3.3 "States").
    const translatable = findAttribute(element, 'translatable');
    if (translatable) {
      if (translatable.value !== 'false') splices.push({ start: translatable.valueStart, end: translatable.valueEnd, text: 'false' });
    } else attributeText = ' translatable="false"';
  }
  const lastAttribute = element.attributes[element.attributes.length - 1];
  const afterAttributes = lastAttribute ? lastAttribute.end : element.start + 1 + element.name.length;
  if (element.selfClosing) {
    splices.push({ start: afterAttributes, end: element.end, text: `${attributeText}>${content}</${element.name}>` });
  } else {
    if (attributeText) splices.push({ start: afterAttributes, end: afterAttributes, text: attributeText });
    splices.push({ start: element.startTagEnd, end: element.endTagStart, text: content });
  }
  return splices;
}

/** The template's entry for `context`, whose start tag a new entry copies (formats.md §2.5). */
function templateEntries(template: Buffer | null | undefined): Map<string, { document: XmlDocument; element: XmlElement }> {
  const entries = new Map<string, { document: XmlDocument; element: XmlElement }>();
  if (!template) return entries;
  const { document } = readDocument(template);
  for (const element of childElements(document.root)) {
    const name = isUnitElement(element) ? getAttribute(element, 'name') : undefined;
    if (name !== undefined && !entries.has(name)) entries.set(name, { document, element });
  }
  return entries;
}

function newEntry(write: UnitWrite, context: StoreWriteContext, layout: Layout, scope: XmlElement, templates: ReturnType<typeof templateEntries>): string {
  const fromTemplate = templates.get(write.context);
  const plural = fromTemplate ? fromTemplate.element.localName === 'plurals' : write.target.length > 1;
  const tagName = plural ? 'plurals' : 'string';
  let startTag = `<${tagName} name="${escapeXmlAttribute(write.context)}"`;
  if (fromTemplate) {
    const { element, document } = fromTemplate;
    const raw = document.source.slice(element.start, element.startTagEnd);
    startTag = element.selfClosing ? raw.slice(0, -2).trimEnd() : raw.slice(0, -1);
  }
  if (write.state === 'readonly' && !/\stranslatable\s*=/.test(startTag)) startTag += ' translatable="false"';
  startTag += '>';
  if (!plural) return `${startTag}${writeAndroidValue(write.target[0] ?? '', scope)}</${tagName}>`;
  const items = pluralItems(write.target, context.languageCode, scope);
  return `${startTag}${pluralBody(items, layout.newline, layout.indent + layout.indent, layout.indent)}</${tagName}>`;
}

/** Splices appending `entries` after the last node of <resources> (formats.md §3.3 "Write-back"). */
function appendEntries(source: string, root: XmlElement, entries: string[], layout: Layout): Splice[] {
  if (entries.length === 0) return [];
  const lines = entries.map((entry) => `${layout.newline}${layout.indent}${entry}`).join('');
  if (root.selfClosing) {
    return [{ start: root.end - 2, end: root.end, text: `>${lines}${layout.newline}</${root.name}>` }];
  }
  let end = root.endTagStart;
  while (end > root.startTagEnd && /\s/.test(source[end - 1])) end -= 1;
  if (end === root.startTagEnd) return [{ start: root.startTagEnd, end: root.endTagStart, text: `${lines}${layout.newline}` }];
  return [{ start: end, end, text: lines }];
}

function shift(splices: Splice[], delta: number): Splice[] {
  return splices.map((splice) => ({ start: splice.start + delta, end: splice.end + delta, text: splice.text }));
}

/**
 * Patches the file. It is scanned, not read into a tree (a 50,000-string file is dominated by building the
 * tree), and only the elements that change are read in full (readScannedElement).
 */
function writeAndroid(current: Buffer, changes: StoreChanges, context: StoreWriteContext): Buffer {
  const encoding = decodeXml(current);
  const scan = scanXmlDocument(encoding.text, (_name, depth) => depth === 2);
  const { source, root } = scan;
  if (root.name !== 'resources') throw new FormatParseError(`line ${root.line}: root element is <${root.name}>, not <resources>`);
  const layout = layoutOf(source, scan.elements[0]);
  const byName = new Map<string, XmlElement>();
  for (const element of scan.elements) {
    const name = isUnitElement(element) ? getAttribute(element, 'name') : undefined;
    if (name !== undefined && !byName.has(name)) byName.set(name, element);
  }
  const splices: Splice[] = [];
  const missing: UnitWrite[] = [];
  const touched = new Set<string>();
  for (const write of [...changes.update, ...(changes.add ?? [])]) {
    if (touched.has(write.context)) throw new FormatWriteError(`string "${write.context}" is changed twice`);
    touched.add(write.context);
    const element = byName.get(write.context);
    if (!element) {
      missing.push(write);
      continue;
    }
    const read = readScannedElement(scan, element);
    splices.push(...shift(updateElement(read.document, read.element, write, context, layout), read.delta));
  }
  for (const key of changes.remove ?? []) {
    const element = byName.get(key.context);
    if (!element) continue;
    if (touched.has(key.context)) throw new FormatWriteError(`string "${key.context}" is both changed and removed`);
    splices.push({ ...removalRange(source, element), text: '' });
  }
  if (missing.length > 0) {
    const scope = readXmlDocument(`${source.slice(root.start, root.startTagEnd).replace(/\/>$/, '>')}</${root.name}>`).root;
    const templates = templateEntries(context.template);
    const entries = missing.map((write) => newEntry(write, context, layout, scope, templates));
    splices.push(...appendEntries(source, root, entries, layout));
  }
  if (splices.length === 0) return current;
  return encodeXml(applySplices(source, splices), encoding);
}

/** A new translation: the fixed empty file, or `base` with every string's text emptied (formats.md §2.4). */
function createAndroid(base: Buffer | null, context: StoreWriteContext): Buffer {
  if (!base) return Buffer.from(NEW_FILE, 'utf8');
  const { document, encoding } = readDocument(base);
  const layout = layoutOf(document.source, childElements(document.root)[0]);
  const splices: Splice[] = [];
  for (const element of childElements(document.root)) {
    if (!isUnitElement(element)) continue;
    const plural = element.localName === 'plurals';
    splices.push(...updateElement(document, element, { context: '', source: [], target: plural ? [] : [''], state: 'empty' }, context, layout));
  }
  return encodeXml(applySplices(document.source, splices), encoding);
}

export const ANDROID_RESOURCE_FORMAT: FileFormat = {
  id: 'aresource',
  name: 'Android String Resource',
  kind: 'mono',
  extension: 'xml',
  parse: parseAndroid,
  write: writeAndroid,
  create: createAndroid,
};
