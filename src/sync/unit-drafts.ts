import { calculateHashText } from '../common/hashing/weblate-hash';
import { countWords } from '../common/text/word-count';
import { PLURAL_SEPARATOR, type StoreUnit } from '../formats/store';

// What a translation's units should look like after reading its file, before comparing with the database
// (formats.md §2.1, docs/formats.md). Monolingual (a template): the template's entries are the units, in
// template order, and a translation file only supplies targets. Bilingual: each file's own entries are its
// units; the source translation holds the union of the source strings.

/** Weblate's unit states (weblate-api.md §8.2). */
export const STATE_EMPTY = 0;
export const STATE_FUZZY = 10;
export const STATE_TRANSLATED = 20;
export const STATE_APPROVED = 30;
export const STATE_READONLY = 100;

/** One source string with everything every translation derives from it. */
export interface TemplateString {
  context: string;
  /** Plural forms joined with PLURAL_SEPARATOR. */
  source: string;
  /** Monolingual: hash of the key; bilingual: hash of source + context (weblate-api.md §9.2). Decimal text. */
  idHash: string;
  /** Hash of source + context, for every format (§9.3). */
  contentHash: string;
  /** 1-based place in the file, duplicates counted (§9.7). */
  position: number;
  /** Words of the source in the source language (§9.8). */
  numWords: number;
  /** Characters (code points) of the source: the `_chars` statistics sum it (§11.1). */
  numChars: number;
  note: string;
  /** Source references (PO `#:`), ", "-joined. */
  location: string;
  flags: string;
  /** The template/source file marks it read-only (translatable="false", translate="no"). */
  readOnly: boolean;
  /** Where a translation file holds this entry when its key differs from the template's (StoreUnit.templateContext). */
  fileContext: string;
}

export interface UnitDraft extends TemplateString {
  target: string;
  /** State read from the file (formats.md §2.2); 100 for the read-only source translation. */
  fileState: number;
  /** Previous source the file carries (PO `#| msgid`). */
  filePreviousSource: string;
  /** The file can express fuzzy: its non-fuzzy entries are not fuzzy (else the database keeps its state). */
  fileHasFuzzy: boolean;
}

/** How a file's entries turn into states (formats.md §2.2). */
export interface StateRules {
  /** Project `translation_review` (or `source_review` for the source language): approved counts. */
  review: boolean;
  /** The format has a fuzzy marker (PO, TS, CSV, XLIFF). */
  hasFuzzy: boolean;
}

/** Formats with a fuzzy marker (formats.md §2.2): a file saying "not fuzzy" there means it. */
const FORMATS_WITH_FUZZY = new Set(['po', 'po-mono', 'ts', 'csv', 'csv-simple', 'xliff', 'poxliff', 'plainxliff']);

export function stateRules(formatId: string, review: boolean): StateRules {
  return { review, hasFuzzy: FORMATS_WITH_FUZZY.has(formatId) };
}

/** Python's len(): code points, so a surrogate pair counts once. */
function codePointLength(text: string): number {
  let pairs = 0;
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const low = text.charCodeAt(i + 1);
      if (low >= 0xdc00 && low <= 0xdfff) {
        pairs += 1;
        i += 1;
      }
    }
  }
  return text.length - pairs;
}

export const joinForms = (forms: readonly string[]): string => (forms.length === 0 ? '' : forms.join(PLURAL_SEPARATOR));

/** A form list with text: empty lists and lists of empty strings are "no text". */
const hasText = (forms: readonly string[]): boolean => forms.some((form) => form !== '');

/** The text a monolingual template entry gives as source: its value (target), else its source forms. */
function templateText(unit: StoreUnit): string {
  return joinForms(hasText(unit.target) || unit.source.length === 0 ? unit.target : unit.source);
}

function sourceString(unit: StoreUnit, source: string, idHash: string, contentHash: string, sourceLanguageCode: string): TemplateString {
  return {
    context: unit.context,
    source,
    idHash,
    contentHash,
    position: unit.position,
    numWords: countWords(source, sourceLanguageCode),
    numChars: codePointLength(source),
    note: unit.note,
    location: unit.location,
    flags: unit.flags,
    readOnly: unit.readOnly,
    fileContext: unit.templateContext ?? unit.context,
  };
}

/**
 * Monolingual source strings (the template's entries, formats.md §2.1); `intermediate`, when the component
 * has one, gives the source text shown to translators for the contexts it holds (Weblate's intermediate file).
 */
export function templateStrings(units: readonly StoreUnit[], sourceLanguageCode: string, intermediate?: ReadonlyMap<string, StoreUnit>): TemplateString[] {
  return units.map((unit) => {
    const middle = intermediate?.get(unit.context);
    const source = middle && hasText(middle.target) ? joinForms(middle.target) : templateText(unit);
    return sourceString(unit, source, calculateHashText(unit.context), calculateHashText(source, unit.context), sourceLanguageCode);
  });
}

/** Bilingual source strings: each entry's own source forms (formats.md §2.1), id_hash of source + context. */
export function bilingualStrings(units: readonly StoreUnit[], sourceLanguageCode: string): TemplateString[] {
  return units.map((unit) => {
    const source = joinForms(unit.source.length > 0 ? unit.source : unit.target);
    // A bilingual unit's id_hash and content_hash are the same hash of source + context (§9.2, §9.3).
    const hash = calculateHashText(source, unit.context);
    return sourceString(unit, source, hash, hash, sourceLanguageCode);
  });
}

/**
 * Units of the source-language translation: every unit is read-only (state 100, counted as translated) with
 * target = source (§8.2, languages §5.3).
 */
export function sourceDrafts(strings: readonly TemplateString[]): UnitDraft[] {
  return strings.map((string) => draft(string, string.note, string.source, STATE_READONLY, '', false));
}

/** The state an entry of a file gives its unit (formats.md §2.2, in Weblate's order). */
export function fileState(unit: StoreUnit | undefined, target: string, readOnlySource: boolean, rules: StateRules): number {
  if (readOnlySource || unit?.readOnly) return STATE_READONLY;
  if (unit?.fuzzy && target !== '') return STATE_FUZZY;
  if (target === '' || !unit || !hasText(unit.target)) return STATE_EMPTY;
  if (unit.approved && rules.review) return STATE_APPROVED;
  return STATE_TRANSLATED;
}

/** Template note first, then the translation's, when they differ (formats.md §2.1 "Notes"). */
function combinedNote(templateNote: string, fileNote: string): string {
  return templateNote === fileNote ? templateNote : `${templateNote}\n${fileNote}`;
}

/**
 * Units of a monolingual translation: one per template string; the target comes from the translation file's
 * entry with the same key ("" when the file lacks it, which is state 0). Keys only the translation file has
 * are ignored, as Weblate ignores them.
 */
export function translationDrafts(strings: readonly TemplateString[], fileUnits: readonly StoreUnit[] | ReadonlyMap<string, StoreUnit>, rules: StateRules): UnitDraft[] {
  const byContext = fileUnits instanceof Map ? fileUnits : unitsByContext(fileUnits as readonly StoreUnit[]);
  return strings.map((string) => {
    const fileUnit = byContext.get(string.fileContext);
    const target = fileUnit ? joinForms(fileUnit.target) : '';
    const note = fileUnit ? combinedNote(string.note, fileUnit.note) : string.note;
    const state = fileState(fileUnit, target, string.readOnly, rules);
    return draft(string, note, target, state, fileUnit?.previousSource ?? '', rules.hasFuzzy);
  });
}

/** Units of a bilingual translation: the file's own entries, linked to the source strings by id_hash. */
export function bilingualDrafts(fileUnits: readonly StoreUnit[], sourceLanguageCode: string, rules: StateRules): UnitDraft[] {
  const strings = bilingualStrings(fileUnits, sourceLanguageCode);
  return strings.map((string, index) => {
    const fileUnit = fileUnits[index];
    const target = joinForms(fileUnit.target);
    return draft(string, fileUnit.note, hasText(fileUnit.target) ? target : '', fileState(fileUnit, target, false, rules), fileUnit.previousSource, rules.hasFuzzy);
  });
}

/** A translation file's units by context, for translationDrafts over slices of the template. */
export function unitsByContext(fileUnits: readonly StoreUnit[]): Map<string, StoreUnit> {
  return new Map(fileUnits.map((unit) => [unit.context, unit]));
}

/**
 * `map` applied to consecutive slices of `items`, the event loop running between slices: hashing and
 * counting the words of 100,000 strings takes about a second, which would otherwise hold up every other
 * request for that long (issue 10, item 9).
 */
export async function mapInSlices<T, R>(items: readonly T[], map: (slice: readonly T[]) => R[], size = 2000): Promise<R[]> {
  const result: R[] = [];
  for (let start = 0; start < items.length; start += size) {
    if (start > 0) await new Promise((resolve) => setImmediate(resolve));
    for (const item of map(items.slice(start, start + size))) result.push(item);
  }
  return result;
}

// Spelled out rather than spread: this runs for every unit of every translation, and object spread is
// several times slower (and allocates more) on large imports.
function draft(string: TemplateString, note: string, target: string, fileState: number, filePreviousSource: string, fileHasFuzzy: boolean): UnitDraft {
  return {
    context: string.context,
    source: string.source,
    idHash: string.idHash,
    contentHash: string.contentHash,
    position: string.position,
    numWords: string.numWords,
    numChars: string.numChars,
    note,
    location: string.location,
    flags: string.flags,
    readOnly: string.readOnly,
    fileContext: string.fileContext,
    target,
    fileState,
    filePreviousSource,
    fileHasFuzzy,
  };
}
