import type { StoreUnit } from '../formats/store';
import { bilingualStrings, type TemplateString } from './unit-drafts';

// The source strings of a bilingual component (formats.md §2.1, §2.4): Weblate's source translation of a
// PO/XLIFF/TS component holds every (source, context) pair its translation files have, first seen first;
// `new_base` (e.g. a POT) comes first when the component names one. Files are read one at a time and only
// the strings are kept, so a component's files are never all in memory at once. A file that cannot be read
// or parsed adds nothing here; the pass that imports it reports it.

export interface BilingualFile {
  isSource: boolean;
  filename: string;
}

export interface BilingualReaders<F extends BilingualFile> {
  /** Reads new_base (its problems stop the scan, as for a template); null without one. */
  newBase: (() => Promise<Buffer>) | null;
  read(file: F): Promise<Buffer>;
  parse(content: Buffer, file: F | null): Promise<StoreUnit[]>;
  /** A problem of that one file (it is skipped here, reported when imported), not of the scan. */
  skippable(error: unknown): boolean;
}

export async function bilingualSourceStrings<F extends BilingualFile>(files: readonly F[], sourceLanguageCode: string, readers: BilingualReaders<F>): Promise<TemplateString[]> {
  const strings: TemplateString[] = [];
  const seen = new Set<string>();
  const collect = (units: readonly StoreUnit[]): void => {
    for (const string of bilingualStrings(units, sourceLanguageCode)) {
      if (seen.has(string.idHash)) continue;
      seen.add(string.idHash);
      // Positions follow the source translation's own order (§9.7).
      strings.push({ ...string, position: strings.length + 1 });
    }
  };
  if (readers.newBase) collect(await readers.parse(await readers.newBase(), null));
  for (const file of files) {
    if (file.isSource) continue;
    try {
      collect(await readers.parse(await readers.read(file), file));
    } catch (error) {
      if (!readers.skippable(error)) throw error;
    }
  }
  return strings;
}
