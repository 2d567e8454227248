import type { StoreUnit } from '../formats/store';
import { bilingualStrings, type TemplateString } from './unit-drafts';

// The source strings of a bilingual component (formats.md §2.1, §2.4): Weblate's source translation of a
// PO/XLIFF/TS component holds every (source, context) pair its translation files have, first seen first;
// `new_base` (e.g. a POT) comes first when the component names one. Files are read one at a time and only
// the strings are kept, so a component's files are never all in memory at once (two at most: the next one is
// parsed while the strings of the current one are collected). A file that cannot be read
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
  // The next file is read and parsed (in the parse worker) while this one's strings are hashed and collected
  // on the main thread (issue 11: the two took turns before). Parses still run one after another, in file
  // order, and at most two files' units are in memory.
  const translationFiles = files.filter((file) => !file.isSource);
  const load = (index: number): Promise<StoreUnit[] | null> | null => {
    if (index >= translationFiles.length) return null;
    const file = translationFiles[index];
    const loading = readers.read(file).then((content) => readers.parse(content, file)).catch((error: unknown) => {
      if (!readers.skippable(error)) throw error;
      return null;
    });
    // Marked as handled: a failure is awaited (and thrown) in its turn, after the files before it.
    loading.catch(() => undefined);
    return loading;
  };
  let next: Promise<StoreUnit[] | null> | null;
  if (readers.newBase) {
    const units = await readers.parse(await readers.newBase(), null);
    next = load(0);
    collect(units);
  } else {
    next = load(0);
  }
  for (let index = 0; next; index += 1) {
    const units = await next;
    next = load(index + 1);
    if (units) collect(units);
  }
  return strings;
}
