// PO entries as Weblate's units (formats.md §3.1 "Unit mapping"): `po` is bilingual (context msgctxt,
// source msgid [+ msgid_plural]); `po-mono` is keyed by msgid (`msgctxt.msgid` when both are set, msgctxt
// then also appended to the note) and carries no source of its own: the template's msgstr is the source.

import { UniqueUnits } from '../unique-units';
import type { ParseLimits } from '../format';
import { PLURAL_SEPARATOR, type ParsedStore, type StoreParseOptions, type StoreUnit } from '../store';
import { decodePo, type PoEncoding } from './po-charset';
import { findHeader, isUnitEntry, parsePoText, reparseEntry, type PoDocument, type PoEntry } from './po-parser';
import { headerField, parseHeaderFields, parsePluralForms } from './po-header';

export type PoFlavour = 'bilingual' | 'monolingual';

/** translate-toolkit unquotes `#:` words as URL text (`+` is a space, `%XX` a byte). */
function unquoteLocation(word: string): string {
  if (!word.includes('+') && !word.includes('%')) return word;
  const spaced = word.replace(/\+/g, ' ');
  return spaced.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run;
    }
  });
}

function noteOf(entry: PoEntry): string {
  // translate-toolkit: translator comments (`# ` dropped) then extracted ones (`#. ` dropped), one per line.
  if (entry.extractedComments.length === 0) return entry.translatorComments.join('\n');
  if (entry.translatorComments.length === 0) return entry.extractedComments.join('\n');
  return [...entry.translatorComments, ...entry.extractedComments].join('\n');
}

function flagsOf(entry: PoEntry): string {
  if (entry.flags.length === 0) return '';
  if (entry.flags.length === 1) return entry.flags[0] === 'fuzzy' ? '' : entry.flags[0];
  return [...new Set(entry.flags.filter((flag) => flag !== 'fuzzy'))].sort().join(', ');
}

function locationOf(entry: PoEntry): string {
  if (entry.references.length === 0) return '';
  const words: string[] = [];
  for (const line of entry.references) {
    for (const word of line.split(/[ \t]+/)) if (word) words.push(unquoteLocation(word));
  }
  return words.join(', ');
}

export function contextOf(entry: PoEntry, flavour: PoFlavour): string {
  if (flavour === 'bilingual') return entry.msgctxt ?? '';
  const msgid = entry.msgid ?? '';
  if (msgid && entry.msgctxt) return `${entry.msgctxt}.${msgid}`;
  return msgid || (entry.msgctxt ?? '');
}

export function sourceOf(entry: PoEntry): string[] {
  const msgid = entry.msgid ?? '';
  return entry.msgidPlural === null ? [msgid] : [msgid, entry.msgidPlural];
}

function isTranslated(entry: PoEntry): boolean {
  return entry.msgstr.some((form) => form !== '');
}

export function entryUnit(entry: PoEntry, flavour: PoFlavour, position: number): StoreUnit {
  const plural = entry.msgidPlural !== null;
  const fuzzy = entry.flags.includes('fuzzy') && isTranslated(entry);
  let note = noteOf(entry);
  if (flavour === 'monolingual' && entry.msgid && entry.msgctxt) note = note ? `${note}\n${entry.msgctxt}` : entry.msgctxt;
  const previousForms = plural ? [entry.previousMsgid ?? '', entry.previousMsgidPlural ?? ''] : [entry.previousMsgid ?? ''];
  const previous = previousForms.some((form) => form !== '') ? previousForms.join(PLURAL_SEPARATOR) : '';
  return {
    context: contextOf(entry, flavour),
    source: flavour === 'bilingual' ? sourceOf(entry) : [],
    target: entry.msgstr.length > 0 ? [...entry.msgstr] : [''],
    plural,
    note,
    location: locationOf(entry),
    flags: flagsOf(entry),
    previousSource: fuzzy ? previous : '',
    fuzzy,
    approved: false,
    readOnly: false,
    position,
    line: entry.firstLine + 1,
  };
}

/** Identity of a unit inside one file: context (+ source forms for bilingual files). */
export function unitKey(flavour: PoFlavour, context: string, source: readonly string[]): string {
  return flavour === 'bilingual' ? `${context}\u0004${source.join(PLURAL_SEPARATOR)}` : context;
}

export interface LoadedPo {
  document: PoDocument;
  encoding: PoEncoding;
  header?: PoEntry;
}

/** Decodes and parses; `light` leaves comment contents unread except the header's (see reparseEntry). */
export function loadPo(content: Buffer, limits?: ParseLimits, light = false): LoadedPo {
  const { text, encoding } = decodePo(content);
  const document = parsePoText(text, limits, light);
  let header = findHeader(document.entries);
  if (header && light) {
    const full = reparseEntry(document, header);
    document.entries[document.entries.indexOf(header)] = full;
    header = full;
  }
  return { document, encoding, header };
}

export function parsePoStore(content: Buffer, flavour: PoFlavour, options: StoreParseOptions = {}): ParsedStore {
  const { document, header } = loadPo(content, options.limits);
  const unique = new UniqueUnits(options.onDuplicate, (_, kept) => `duplicate of the entry on line ${kept.line}`);
  let position = 0;
  for (const entry of document.entries) {
    if (!isUnitEntry(entry)) continue;
    position++;
    const unit = entryUnit(entry, flavour, position);
    unique.add(unitKey(flavour, unit.context, unit.source), unit);
  }
  const store: ParsedStore = { units: unique.units };
  if (header) {
    const fields = parseHeaderFields(header.msgstr[0]);
    const plural = parsePluralForms(headerField(fields, 'Plural-Forms'));
    if (plural) store.plural = plural;
    const language = headerField(fields, 'Language');
    if (language) store.language = language;
  }
  return store;
}
