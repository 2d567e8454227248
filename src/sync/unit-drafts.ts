import { calculateHash } from '../common/hashing/weblate-hash';
import { countWords } from '../common/text/word-count';
import type { ParsedUnit, PathPart, UnitValueType } from '../formats/format';

// What a translation's units should look like after reading its file, before comparing with the database.
// Monolingual formats (json, json-nested): the template's keys are the units, in template order, and a
// translation file only supplies targets (languages-formats-hashing.md §2.1).

/** Weblate's unit states (weblate-api.md §8.2). */
export const STATE_EMPTY = 0;
export const STATE_FUZZY = 10;
export const STATE_TRANSLATED = 20;
export const STATE_APPROVED = 30;
export const STATE_READONLY = 100;

/** Where a unit lives in its file, stored in `units.file_location` so write-back keeps the file's shape. */
export interface FileLocation {
  path: PathPart[];
  /** The template leaf's JSON type: how a target is written back (§2.2). */
  valueType: UnitValueType;
}

/** One string of the template with everything every translation derives from it. */
export interface TemplateString {
  context: string;
  source: string;
  /** Monolingual: hash of the key only (weblate-api.md §9.2). Decimal text of a signed 64-bit integer. */
  idHash: string;
  /** Hash of source + context, for every format (§9.3). */
  contentHash: string;
  /** 1-based place in the template, duplicates counted (§9.7). */
  position: number;
  /** Words of the source in the source language (§9.8). */
  numWords: number;
  /** Characters (code points) of the source: the `_chars` statistics sum it (§11.1). */
  numChars: number;
  location: FileLocation;
}

export interface UnitDraft extends TemplateString {
  target: string;
  /** State read from the file: 100 for the read-only source translation, else 0 (empty) or 20. */
  fileState: number;
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

export function templateStrings(units: readonly ParsedUnit[], sourceLanguageCode: string): TemplateString[] {
  return units.map((unit) => ({
    context: unit.context,
    source: unit.source,
    idHash: calculateHash(unit.context).toString(),
    contentHash: calculateHash(unit.source, unit.context).toString(),
    position: unit.position,
    numWords: countWords(unit.source, sourceLanguageCode),
    numChars: codePointLength(unit.source),
    location: { path: unit.path, valueType: unit.valueType },
  }));
}

/**
 * Units of the source-language translation. Its file is the template, editing it is not enabled, so every
 * unit is read-only (state 100, counted as translated) with target = source (§8.2, languages §5.3).
 */
export function sourceDrafts(strings: readonly TemplateString[]): UnitDraft[] {
  return strings.map((string) => draft(string, string.location, string.source, STATE_READONLY));
}

/**
 * Units of a translation: one per template string; the target comes from the translation file's unit with
 * the same context ("" when the file lacks it, which is state 0). Keys only the translation file has are
 * ignored, as Weblate ignores them. The file's own path is kept when it has the key, so write-back
 * replaces the value where it is; the value type always follows the template (§2.2).
 */
export function translationDrafts(strings: readonly TemplateString[], fileUnits: readonly ParsedUnit[] | ReadonlyMap<string, ParsedUnit>): UnitDraft[] {
  const byContext = fileUnits instanceof Map ? fileUnits : unitsByContext(fileUnits as readonly ParsedUnit[]);
  return strings.map((string) => {
    const fileUnit = byContext.get(string.context);
    const target = fileUnit?.source ?? '';
    const location = fileUnit ? { path: fileUnit.path, valueType: string.location.valueType } : string.location;
    return draft(string, location, target, target === '' ? STATE_EMPTY : STATE_TRANSLATED);
  });
}

/** A translation file's units by context, for translationDrafts over slices of the template. */
export function unitsByContext(fileUnits: readonly ParsedUnit[]): Map<string, ParsedUnit> {
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
function draft(string: TemplateString, location: FileLocation, target: string, fileState: number): UnitDraft {
  return {
    context: string.context,
    source: string.source,
    idHash: string.idHash,
    contentHash: string.contentHash,
    position: string.position,
    numWords: string.numWords,
    numChars: string.numChars,
    location,
    target,
    fileState,
  };
}
