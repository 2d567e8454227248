// Writing XLIFF 1.2 back (formats.md §3.2 "Writing states", "Write-back"): targets and state attributes of
// the changed units are patched in place; a missing <target> is inserted after <source>; state 0 removes the
// <target>; new units are appended to the last <body> (a copy of the template's unit when there is one).

import { FormatParseError, FormatWriteError } from '../format';
import type { StoreChanges, StoreWriteContext, UnitWrite } from '../store';
import { applySplices, decodeXml, detectNewline, encodeXml, type Splice } from './xml-encoding';
import { escapeXmlAttribute, escapeXmlText } from './xml-escape';
import { isPluralGroup, readXliff, readXliffDocument, unitContext, type XliffEntry, type XliffFlavour } from './xliff-read';
import { editElement, fitForms, indentationOf, removalRange } from './xml-units';
import { readScannedElement, scanXmlDocument, type XmlScan } from './xml-scan';
import {
  childElements,
  firstChildElement,
  getAttribute,
  readXmlDocument,
  type XmlDocument,
  type XmlElement,
} from './xml-tokenizer';

/** Raw content for a <source>/<target>: `xliff` text is XML (kept when well-formed), `poxliff` text is plain. */
export function xliffContent(text: string, flavour: XliffFlavour): string {
  if (flavour === 'xliff' && /[<&]/.test(text)) {
    try {
      readXmlDocument(`<target>${text}</target>`);
      return text;
    } catch {
      // not well-formed: written as plain text, as translate-toolkit does
    }
  }
  return escapeXmlText(text);
}

function whitespaceAround(document: XmlDocument, element: XmlElement): string {
  const parent = element.parent;
  if (!parent) return '';
  const index = parent.children.indexOf(element);
  // The indentation in front of <source> if it has its own line, else the break that follows it (po2xliff).
  for (const neighbour of [parent.children[index - 1], parent.children[index + 1]]) {
    if (neighbour && neighbour.kind === 'text' && neighbour.text.trim() === '' && neighbour.text.includes('\n')) {
      return document.source.slice(neighbour.start, neighbour.end);
    }
  }
  return '';
}

/**
 * The `approved` value to write, or undefined to leave it. XLIFF: "yes" only for approved strings, a "yes"
 * turns "no" otherwise. poxliff follows po2xliff's gettext profile, where `approved="yes"` means translated and
 * not fuzzy (translate-toolkit reads a missing or "no" approval of a translated unit as fuzzy).
 */
function approvalFor(write: UnitWrite, flavour: XliffFlavour, current: string | undefined): string | undefined {
  if (flavour === 'poxliff' && write.state !== 'empty') return write.state === 'fuzzy' ? 'no' : 'yes';
  if (write.state === 'approved') return 'yes';
  return current === 'yes' ? 'no' : undefined;
}

/**
 * The `state` of a written target (formats.md §3.2 "Writing states", Weblate 5.x): needs editing is
 * `needs-translation`, approved is `final`, translated is `translated`, whether or not the target had a state
 * before (Weblate 4.x only touched an existing attribute, so an edited target could keep a stale state or
 * none). A read-only string keeps its target's state as it was.
 */
export function targetState(write: Pick<UnitWrite, 'state'>, current: string | undefined): string | undefined {
  switch (write.state) {
    case 'fuzzy':
      return 'needs-translation';
    case 'approved':
      return 'final';
    case 'translated':
      return 'translated';
    default:
      return current;
  }
}

/** Splices writing one form's target and state into `transUnit` (formats.md §3.2 "Writing states"). */
function targetSplices(document: XmlDocument, transUnit: XmlElement, text: string, write: UnitWrite, flavour: XliffFlavour): Splice[] {
  const splices: Splice[] = [];
  const approved = approvalFor(write, flavour, getAttribute(transUnit, 'approved'));
  if (approved !== undefined) splices.push(...editElement(transUnit, { attributes: { approved } }));
  const target = firstChildElement(transUnit, 'target');
  if (write.state === 'empty' || text === '') {
    if (target) splices.push({ ...removalRange(document.source, target), text: '' });
    return splices;
  }
  const state = targetState(write, target ? getAttribute(target, 'state') : undefined);
  const content = xliffContent(text, flavour);
  if (target) {
    splices.push(...editElement(target, { content, attributes: state === undefined ? {} : { state } }));
    return splices;
  }
  const source = firstChildElement(transUnit, 'source');
  const stateAttribute = state === undefined ? '' : ` state="${state}"`;
  const element = `<target${stateAttribute}>${content}</target>`;
  if (source) splices.push({ start: source.end, end: source.end, text: whitespaceAround(document, source) + element });
  else if (transUnit.selfClosing) splices.push(...editElement(transUnit, { content: element }));
  else splices.push({ start: transUnit.startTagEnd, end: transUnit.startTagEnd, text: element });
  return splices;
}

function entrySplices(document: XmlDocument, entry: XliffEntry, write: UnitWrite, context: StoreWriteContext, flavour: XliffFlavour): Splice[] {
  if (!entry.unit.plural) return targetSplices(document, entry.transUnits[0], write.target[0] ?? '', write, flavour);
  // A poxliff plural group: one <trans-unit> per form of the translation's plural (formats.md §3.2 "Plurals").
  const forms = fitForms(write.target, Math.max(1, context.plural.number));
  const splices: Splice[] = [];
  // translate-toolkit reads a plural group's approval from the group itself.
  const groupApproved = entry.group ? approvalFor(write, flavour, getAttribute(entry.group, 'approved')) : undefined;
  if (entry.group && groupApproved !== undefined) splices.push(...editElement(entry.group, { attributes: { approved: groupApproved } }));
  entry.transUnits.forEach((transUnit, index) => {
    if (index < forms.length) splices.push(...targetSplices(document, transUnit, forms[index], write, flavour));
    else splices.push({ ...removalRange(document.source, transUnit), text: '' });
  });
  const last = entry.transUnits[entry.transUnits.length - 1];
  const baseId = (getAttribute(entry.transUnits[0], 'id') ?? entry.unit.context).replace(/\[\d+\]$/, '');
  const lastSource = firstChildElement(last, 'source');
  const sourceXml = lastSource ? document.source.slice(lastSource.start, lastSource.end) : '<source></source>';
  const indent = indentationOf(document.source, last);
  let added = '';
  for (let index = entry.transUnits.length; index < forms.length; index += 1) {
    const state = targetState(write, undefined);
    const target = forms[index] === '' ? '' : `<target${state === undefined ? '' : ` state="${state}"`}>${xliffContent(forms[index], flavour)}</target>`;
    added += `${indent === null ? '' : detectNewline(document.source) + indent}<trans-unit xml:space="preserve" id="${escapeXmlAttribute(`${baseId}[${index}]`)}">${sourceXml}${target}</trans-unit>`;
  }
  if (added) splices.push({ start: last.end, end: last.end, text: added });
  return splices;
}

/** Finds the unit a write means: by context, then by source when several units share the context. */
function indexEntries(entries: readonly XliffEntry[]): (write: UnitWrite | { context: string; source: string[] }) => XliffEntry | undefined {
  const byContext = new Map<string, XliffEntry[]>();
  for (const entry of entries) {
    const list = byContext.get(entry.unit.context);
    if (list) list.push(entry);
    else byContext.set(entry.unit.context, [entry]);
  }
  return (write) => {
    const list = byContext.get(write.context);
    if (!list) return undefined;
    if (list.length === 1) return list[0];
    const wanted = write.source.join('\x1e\x1e');
    return list.find((entry) => entry.unit.source.join('\x1e\x1e') === wanted) ?? list[0];
  };
}

/** A fresh unit for a key the file lacks: the template's unit when it has one, else one built from the write. */
function newUnitText(write: UnitWrite, context: StoreWriteContext, flavour: XliffFlavour, newline: string, indent: string): string {
  let raw: string | undefined;
  if (context.template) {
    const template = readXliff(context.template, flavour);
    const found = indexEntries(template.entries)(write);
    const element = found ? (found.group ?? found.transUnits[0]) : undefined;
    if (element) raw = template.document.source.slice(element.start, element.end);
  }
  if (raw === undefined) {
    const id = escapeXmlAttribute(write.context.includes('///') ? write.context.slice(write.context.lastIndexOf('///') + 3) : write.context);
    const sources = write.source.length > 0 ? write.source : [write.context];
    if (flavour === 'poxliff' && write.target.length > 1) {
      const units = fitForms([], Math.max(1, context.plural.number)).map(
        (_, index) =>
          `${newline}${indent}  <trans-unit xml:space="preserve" id="${id}[${index}]"><source>${xliffContent(sources[Math.min(index, sources.length - 1)], flavour)}</source></trans-unit>`,
      );
      raw = `<group restype="x-gettext-plurals" id="${id}">${units.join('')}${newline}${indent}</group>`;
    } else raw = `<trans-unit id="${id}" xml:space="preserve"><source>${xliffContent(sources[0], flavour)}</source></trans-unit>`;
  }
  // Apply the target to the copy with the same code as for existing units.
  const copy = readXmlDocument(raw);
  const read = readXliff(Buffer.from(`<xliff><file><body>${raw}</body></file></xliff>`), flavour);
  const entry = read.entries[0];
  if (!entry) return raw;
  const offset = '<xliff><file><body>'.length;
  const splices = entrySplices(read.document, entry, write, context, flavour).map((splice) => ({ ...splice, start: splice.start - offset, end: splice.end - offset }));
  return applySplices(copy.source, splices);
}

interface ScannedUnit {
  element: XmlElement;
  context: string;
}

/**
 * The units of a scanned file by context (trans-units, and poxliff plural groups), the last <body> and its
 * last child: enough to patch a few units without building the whole tree (see scanXmlDocument).
 */
function scanUnits(source: string, flavour: XliffFlavour): { scan: XmlScan; byContext: Map<string, ScannedUnit[]>; body?: XmlElement; lastInBody?: XmlElement } {
  const wanted = new Set(['file', 'body', 'group', 'trans-unit']);
  const scan = scanXmlDocument(source, (name) => wanted.has(name.slice(name.indexOf(':') + 1)));
  if (scan.root.localName !== 'xliff') {
    throw new FormatParseError(`line ${scan.root.line}: root element is <${scan.root.name}>, not <xliff>`);
  }
  const byContext = new Map<string, ScannedUnit[]>();
  const open: XmlElement[] = [];
  let body: XmlElement | undefined;
  let lastInBody: XmlElement | undefined;
  for (const element of scan.elements) {
    while (open.length > 0 && open[open.length - 1].end <= element.start) open.pop();
    const parent = open[open.length - 1];
    open.push(element);
    if (element.localName === 'body') {
      body = element;
      lastInBody = undefined;
      continue;
    }
    if (body && parent === body) lastInBody = element;
    if (open.some((ancestor) => ancestor !== element && flavour === 'poxliff' && isPluralGroup(ancestor))) continue;
    const isUnit = element.localName === 'trans-unit' || (flavour === 'poxliff' && isPluralGroup(element));
    if (!isUnit || getAttribute(element, 'restype') === 'x-gettext-domain-header') continue;
    const file = [...open].reverse().find((ancestor) => ancestor.localName === 'file') ?? null;
    const context = unitContext(file, element);
    const list = byContext.get(context);
    if (list) list.push({ element, context });
    else byContext.set(context, [{ element, context }]);
  }
  return { scan, byContext, body, lastInBody };
}

function appendSplices(source: string, body: XmlElement | undefined, last: XmlElement | undefined, units: string[]): Splice[] {
  if (units.length === 0) return [];
  if (!body) throw new FormatWriteError('the XLIFF file has no <file><body> to add units to');
  const newline = detectNewline(source);
  const bodyIndent = indentationOf(source, body) ?? '';
  const indent = (last && indentationOf(source, last)) ?? `${bodyIndent}  `;
  const text = units.map((unit) => `${newline}${indent}${unit}`).join('');
  if (last) return [{ start: last.end, end: last.end, text }];
  return editElement(body, { content: `${text}${newline}${bodyIndent}` });
}

function shift(splices: Splice[], delta: number): Splice[] {
  return splices.map((splice) => ({ start: splice.start + delta, end: splice.end + delta, text: splice.text }));
}

/**
 * Patches the file. It is scanned rather than read into a tree; only the units a change names are read
 * in full (a 50,000-unit file is dominated by building the tree).
 */
export function writeXliff(current: Buffer, changes: StoreChanges, context: StoreWriteContext, flavour: XliffFlavour): Buffer {
  const encoding = decodeXml(current);
  const { scan, byContext, body, lastInBody } = scanUnits(encoding.text, flavour);
  const source = scan.source;
  const readUnits = new Map<XmlElement, { entry: XliffEntry; document: XmlDocument; delta: number } | null>();
  const readUnit = (unit: ScannedUnit): { entry: XliffEntry; document: XmlDocument; delta: number } | null => {
    let read = readUnits.get(unit.element);
    if (read === undefined) {
      const scanned = readScannedElement(scan, unit.element);
      const entry = readXliffDocument(scanned.document, flavour).entries[0];
      read = entry ? { entry: { ...entry, unit: { ...entry.unit, context: unit.context } }, document: scanned.document, delta: scanned.delta } : null;
      readUnits.set(unit.element, read);
    }
    return read;
  };
  // By context, then by source among units sharing it (bilingual identity, formats.md §2.1).
  const find = (key: { context: string; source: string[] }): { element: XmlElement; read: NonNullable<ReturnType<typeof readUnit>> } | undefined => {
    const candidates = (byContext.get(key.context) ?? [])
      .map((unit) => ({ element: unit.element, read: readUnit(unit) }))
      .filter((candidate): candidate is { element: XmlElement; read: NonNullable<ReturnType<typeof readUnit>> } => candidate.read !== null);
    if (candidates.length <= 1) return candidates[0];
    const wanted = key.source.join('\x1e\x1e');
    return candidates.find((candidate) => candidate.read.entry.unit.source.join('\x1e\x1e') === wanted) ?? candidates[0];
  };
  const splices: Splice[] = [];
  const missing: UnitWrite[] = [];
  const touched = new Set<XmlElement>();
  for (const write of [...changes.update, ...(changes.add ?? [])]) {
    const found = find(write);
    if (!found) {
      missing.push(write);
      continue;
    }
    if (touched.has(found.element)) throw new FormatWriteError(`unit "${write.context}" is changed twice`);
    touched.add(found.element);
    splices.push(...shift(entrySplices(found.read.document, found.read.entry, write, context, flavour), found.read.delta));
  }
  for (const key of changes.remove ?? []) {
    const found = find(key);
    if (!found) continue;
    if (touched.has(found.element)) throw new FormatWriteError(`unit "${key.context}" is both changed and removed`);
    splices.push({ ...removalRange(source, found.element), text: '' });
  }
  if (missing.length > 0) {
    const newline = detectNewline(source);
    const indent = (lastInBody && indentationOf(source, lastInBody)) ?? '';
    splices.push(...appendSplices(source, body, lastInBody, missing.map((write) => newUnitText(write, context, flavour, newline, indent))));
  }
  if (splices.length === 0) return current;
  return encodeXml(applySplices(source, splices), encoding);
}

/** A new translation from `base`: every <target> removed, `target-language` set (formats.md §2.4). */
export function createXliff(base: Buffer | null, context: StoreWriteContext, flavour: XliffFlavour): Buffer | null {
  if (!base) return null;
  const read = readXliff(base, flavour);
  const { document } = read;
  const splices: Splice[] = [];
  for (const file of childElements(document.root, 'file')) {
    splices.push(...editElement(file, { attributes: { 'target-language': context.languageCode } }));
  }
  const stack: XmlElement[] = [document.root];
  while (stack.length > 0) {
    const element = stack.pop() as XmlElement;
    for (const child of childElements(element)) {
      if (child.localName === 'target' && element.localName === 'trans-unit') splices.push({ ...removalRange(document.source, child), text: '' });
      else stack.push(child);
    }
  }
  return encodeXml(applySplices(document.source, splices), read.encoding);
}
