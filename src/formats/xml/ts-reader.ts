// Qt Linguist `.ts` reader (formats.md §3.16): every `<message>` of every `<context>` becomes a bilingual unit,
// as translate-toolkit's ts2 store and Weblate's TSUnit present it. The writer reuses the element offsets.

import { PLURAL_SEPARATOR, type StoreParseOptions, type StoreUnit } from '../store';
import { childElements, firstChildElement, getAttribute, type XmlElement } from './xml-tokenizer';
import { elementText, expectRoot, loadSparseXml, UnitSink, type LoadedXml } from './xml2-common';
import { flagsFromAttributes } from './xml2-flags';

/**
 * A TS unit, plus the context Weblate gives it when the file is used with a template: the entry's id, i.e.
 * its context (name, comment, id joined by "\n") with the source appended (ts2 `getid`, MonolingualIDUnit).
 * Proposed as an optional `StoreUnit.monolingualContext` (see docs/formats/xml-qt-resx-stringsdict.md).
 */
export interface TsStoreUnit extends StoreUnit {
  monolingualContext: string;
}

export interface TsMessage {
  element: XmlElement;
  /** The enclosing `<context>`, null for a message directly under `<TS>`. */
  contextElement: XmlElement | null;
  numerus: boolean;
  translation: XmlElement | undefined;
  type: string | undefined;
  /** The translation forms as the file has them (numerus: one per `<numerusform>`). */
  fileTarget: string[];
  /** The live unit; null for obsolete/vanished and blank messages (kept in the file untouched). */
  unit: TsStoreUnit | null;
}

export interface TsFile extends LoadedXml {
  /** The messages `keep` chose, in file order (see readTs). */
  messages: TsMessage[];
  units: TsStoreUnit[];
}

/** Key of a bilingual unit inside one file: context + source (formats.md §2.1 identity). */
export function tsUnitKey(context: string, source: readonly string[]): string {
  return `${context}\u0004${source.join(PLURAL_SEPARATOR)}`;
}

/** ts2 `getcontext`: name, disambiguation comment and message id, the empty ones left out, joined by "\n". */
function messageContext(contextName: string | undefined, message: XmlElement): string {
  const parts = [contextName, elementText(firstChildElement(message, 'comment')), getAttribute(message, 'id')];
  return parts.filter((part): part is string => Boolean(part)).join('\n');
}

/** "file:line" per `<location>`, ", "-joined; "" when any is relative (+N/-N), which Weblate does not resolve. */
function messageLocations(message: XmlElement): string {
  const locations: string[] = [];
  for (const location of childElements(message, 'location')) {
    let text = getAttribute(location, 'filename') ?? '';
    const line = getAttribute(location, 'line');
    if (line) text = text ? `${text}:${line}` : line;
    if (text) locations.push(text);
  }
  const joined = locations.join(', ');
  const relative = /^[+-]/.test(joined) || /(?:, |:)[+-]/.test(joined);
  return relative ? '' : joined;
}

function messageNote(message: XmlElement): string {
  const notes = [elementText(firstChildElement(message, 'extracomment')), elementText(firstChildElement(message, 'translatorcomment'))];
  return notes.filter((note): note is string => note !== undefined).join('\n');
}

function fileTargetOf(translation: XmlElement | undefined, numerus: boolean): string[] {
  if (!numerus) return [elementText(translation) ?? ''];
  if (!translation) return [];
  return childElements(translation, 'numerusform').map((form) => elementText(form) ?? '');
}

/** Weblate's numerus source: `X(s)` shown as singular (`(s)` removed) and plural (`(s)` -> `s`). */
function sourceForms(source: string, numerus: boolean): string[] {
  return numerus ? [source.split('(s)').join(''), source.split('(s)').join('s')] : [source];
}

/**
 * Chooses the messages whose element subtree the caller needs afterwards (a writer: the ones it patches);
 * the others keep their record and unit but not their subtree (see xml2-sparse.ts).
 */
export type KeepMessage = (unit: TsStoreUnit | null) => boolean;

const keepNone: KeepMessage = () => false;

/**
 * Reads a TS file. `keep` picks the messages whose subtree stays; `lean` (writers) skips what only an import
 * needs (notes, locations, flags, limits, the duplicate check: the writer's index keeps the first of a key).
 */
export function readTs(content: Buffer, options?: StoreParseOptions, keep: KeepMessage = keepNone, lean = false): TsFile {
  const sink = new UnitSink<TsStoreUnit>(options, (unit) => `duplicate string "${unit.source[0]}" in context "${unit.context}"`);
  const messages: TsMessage[] = [];
  let position = 0;

  const readMessage = (element: XmlElement): boolean => {
    sink.countEntry(element.line);
    const parent = element.parent as XmlElement;
    const contextElement = parent.localName === 'context' ? parent : null;
    const numerus = getAttribute(element, 'numerus') === 'yes';
    const translation = firstChildElement(element, 'translation');
    const type = translation ? getAttribute(translation, 'type') : undefined;
    const fileTarget = fileTargetOf(translation, numerus);
    const message: TsMessage = { element, contextElement, numerus, translation, type, fileTarget, unit: null };
    if (type === 'obsolete' || type === 'vanished') return keepSubtree(message);

    const rawSource = elementText(firstChildElement(element, 'source')) ?? '';
    const forms = fileTarget.length > 0 ? fileTarget : [''];
    // translate-toolkit's isblank: neither source nor target text.
    if (rawSource === '' && forms.every((form) => form === '')) return keepSubtree(message);
    const contextName = contextElement ? elementText(firstChildElement(contextElement, 'name')) : undefined;
    const context = messageContext(contextName, element);
    const source = sourceForms(rawSource, numerus);
    const unfinished = type === 'unfinished';
    const hasText = forms[0] !== '';
    // TSUnit.target: without type="unfinished" an empty translation means "same as the source".
    const target = !unfinished && !hasText ? [...source] : forms;
    const unit: TsStoreUnit = {
      context,
      source,
      target,
      plural: numerus,
      note: lean ? '' : messageNote(element),
      location: lean ? '' : messageLocations(element),
      flags: lean ? '' : flagsFromAttributes(element),
      previousSource: '',
      fuzzy: unfinished && hasText,
      approved: false,
      readOnly: false,
      position: (position += 1),
      line: element.line,
      monolingualContext: context + rawSource,
    };
    if (lean) message.unit = unit;
    else {
      sink.checkLength(element.line, unit.context, unit.note, ...source, ...target);
      if (sink.push(unit, tsUnitKey(context, source))) message.unit = unit;
    }
    return keepSubtree(message);
  };

  // Only kept messages are listed: a parse needs the units alone, a writer the messages it patches.
  const keepSubtree = (message: TsMessage): boolean => {
    if (!keep(message.unit)) return false;
    messages.push(message);
    return true;
  };

  const loaded = loadSparseXml(content, {
    isEntry: (element) => element.localName === 'message' && (element.parent?.localName === 'context' || element.parent?.parent === null),
    onEntry: readMessage,
  });
  expectRoot(loaded.doc, 'TS');
  return { ...loaded, messages, units: sink.units };
}
