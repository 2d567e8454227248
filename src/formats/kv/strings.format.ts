// Apple .strings as Weblate's `strings` (UTF-16, the file's byte order and BOM kept) and `strings-utf8`
// (formats.md §3.4). Own scanner and patcher: i18n-strings-files turns `//` comments into `/* */` on write
// and keeps nothing of the layout; here only the changed value token is replaced.

import { UniqueUnits } from '../unique-units';
import type { FileFormat, ParsedStore, StoreChanges, StoreParseOptions, StoreUnit, UnitWrite } from '../store';
import { applyEdits, decodeUnicodeAuto, detectNewline, encodeText, type TextEdit, type TextEncodingName } from './text-codec';
import { escapeStrings, noteToStringsComment, stringsEntry } from './strings-escape';
import { readStrings, type StringsEntry } from './strings-syntax';

interface StringsVariant {
  id: string;
  name: string;
  /** Encoding of the fixed new file (a single newline, §3.4). */
  newFileEncoding: TextEncodingName;
  newFileBom: boolean;
}

const VARIANTS: readonly StringsVariant[] = [
  { id: 'strings', name: 'iOS strings (UTF-16)', newFileEncoding: 'utf16le', newFileBom: true },
  { id: 'strings-utf8', name: 'iOS strings (UTF-8)', newFileEncoding: 'utf8', newFileBom: false },
];

function toUnit(entry: StringsEntry, position: number): StoreUnit {
  return {
    context: entry.key,
    source: [],
    target: [entry.value],
    plural: false,
    note: entry.note,
    location: '',
    flags: '',
    previousSource: '',
    fuzzy: false,
    approved: false,
    readOnly: false,
    position,
    line: entry.line,
  };
}

function parseStrings(content: Buffer, options: StoreParseOptions = {}): ParsedStore {
  const { entries } = readStrings(decodeUnicodeAuto(content).text, options.limits);
  const unique = new UniqueUnits(options.onDuplicate, (unit, kept) => `duplicate key "${unit.context}" (first on line ${kept.line})`);
  entries.forEach((entry, index) => {
    const unit = toUnit(entry, index + 1);
    unique.add(unit.context, unit);
  });
  return { units: unique.units };
}

/** Bilingual units carry no context of their own here: the key is both (§3.4). */
function keyOf(unit: { context: string; source: string[] }): string {
  return unit.context !== '' ? unit.context : (unit.source[0] ?? '');
}

/** A removed entry that sat between two blank lines takes one of them along, so no double gap is left. */
function endOfRemoval(text: string, entry: StringsEntry): number {
  if (!entry.blankLineBefore) return entry.blockEnd;
  let i = entry.blockEnd;
  while (i < text.length && (text[i] === ' ' || text[i] === '\t')) i++;
  if (text[i] === '\r') return text[i + 1] === '\n' ? i + 2 : i + 1;
  if (text[i] === '\n') return i + 1;
  return entry.blockEnd;
}

function writeStrings(current: Buffer, changes: StoreChanges): Buffer {
  const adds = changes.add ?? [];
  const removes = changes.remove ?? [];
  if (changes.update.length === 0 && adds.length === 0 && removes.length === 0) return current;
  const decoded = decodeUnicodeAuto(current);
  const text = decoded.text;
  const wanted = new Set([...changes.update, ...adds, ...removes].map(keyOf));
  const { entries, blankLineSeparated } = readStrings(text, undefined, wanted);
  const byKey = new Map<string, StringsEntry>();
  for (const entry of entries) if (!byKey.has(entry.key)) byKey.set(entry.key, entry);

  const edits = new Map<StringsEntry, TextEdit>();
  const appended = new Map<string, UnitWrite>();
  for (const unit of [...changes.update, ...adds]) {
    const key = keyOf(unit);
    const entry = byKey.get(key);
    const value = unit.target[0] ?? '';
    if (!entry) appended.set(key, unit);
    else if (entry.value !== value) edits.set(entry, { start: entry.valueStart, end: entry.valueEnd, text: `"${escapeStrings(value)}"` });
  }
  for (const unit of removes) {
    const key = keyOf(unit);
    const entry = byKey.get(key);
    appended.delete(key);
    if (entry) edits.set(entry, { start: entry.blockStart, end: endOfRemoval(text, entry), text: '' });
  }
  let output = applyEdits(text, [...edits.values()]);
  if (appended.size > 0) {
    const newline = detectNewline(output);
    // Xcode separates entries with a blank line; a file laid out that way gets its new entries the same way.
    const spaced = blankLineSeparated;
    const blocks = [...appended].map(([key, unit]) => {
      const comment = noteToStringsComment(unit.note ?? '');
      return (comment ? comment + newline : '') + stringsEntry(key, unit.target[0] ?? '') + newline;
    });
    const needsBreak = output.length > 0 && !output.endsWith('\n') && !output.endsWith('\r');
    const lead = (needsBreak ? newline : '') + (spaced && output.trim() !== '' ? newline : '');
    output += lead + blocks.join(spaced ? newline : '');
  }
  return encodeText(output, decoded.encoding, decoded.bom);
}

function createStrings(variant: StringsVariant, base: Buffer | null): Buffer {
  if (!base) return encodeText('\n', variant.newFileEncoding, variant.newFileBom);
  const decoded = decodeUnicodeAuto(base);
  const edits = readStrings(decoded.text, undefined)
    .entries.filter((entry) => entry.value !== '')
    .map((entry) => ({ start: entry.valueStart, end: entry.valueEnd, text: '""' }));
  return encodeText(applyEdits(decoded.text, edits), decoded.encoding, decoded.bom);
}

function stringsFormat(variant: StringsVariant): FileFormat {
  return {
    id: variant.id,
    name: variant.name,
    kind: 'both',
    extension: 'strings',
    parse: parseStrings,
    write: (current, changes) => writeStrings(current, changes),
    create: (base) => createStrings(variant, base),
  };
}

export const STRINGS_FORMATS: readonly FileFormat[] = VARIANTS.map(stringsFormat);
