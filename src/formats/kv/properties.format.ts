// Java properties as Weblate's `properties` (ISO-8859-1 + \uXXXX), `properties-utf8` and `properties-utf16`
// formats (formats.md §3.6). Own parser and line patcher: the npm readers either normalise the file on
// write (dot-properties) or escape with lower-case hex (properties-parser), and Weblate writes upper-case.

import { UniqueUnits } from '../unique-units';
import { FormatParseError } from '../format';
import type { FileFormat, ParsedStore, StoreChanges, StoreParseOptions, StoreUnit, StoreWriteContext, UnitWrite } from '../store';
import { applyEdits, decodeLatin1, decodeUnicodeAuto, decodeUtf8, detectNewline, encodeText, type DecodedText, type TextEdit } from './text-codec';
import { escapePropertiesKey, escapePropertiesValue, noteToCommentLines } from './properties-escape';
import { readProperties, type PropertiesEntry } from './properties-syntax';

interface PropertiesVariant {
  id: string;
  name: string;
  decode(content: Buffer): DecodedText;
  /** ISO-8859-1 files hold only ASCII plus escapes (Weblate escapes even Latin-1 letters). */
  asciiOnly: boolean;
  /** Weblate's fixed new-file content: one newline in the variant's encoding (§3.6). */
  newFile: () => Buffer;
}

/** Python's utf-16 codec: the BOM decides, a BOM-less file is little-endian. */
function decodeUtf16Properties(content: Buffer): DecodedText {
  const decoded = decodeUnicodeAuto(content);
  if (decoded.encoding === 'utf8' && !decoded.bom) {
    if (content.length % 2 !== 0) throw new FormatParseError('line 1: UTF-16 file has an odd number of bytes');
    return { text: content.toString('utf16le'), encoding: 'utf16le', bom: false };
  }
  return decoded;
}

const VARIANTS: readonly PropertiesVariant[] = [
  {
    id: 'properties',
    name: 'Java Properties (ISO 8859-1)',
    decode: decodeLatin1,
    asciiOnly: true,
    newFile: () => Buffer.from('\n', 'latin1'),
  },
  {
    id: 'properties-utf8',
    name: 'Java Properties (UTF-8)',
    decode: decodeUtf8,
    asciiOnly: false,
    newFile: () => Buffer.from('\n', 'utf8'),
  },
  {
    id: 'properties-utf16',
    name: 'Java Properties (UTF-16)',
    decode: decodeUtf16Properties,
    asciiOnly: false,
    newFile: () => encodeText('\n', 'utf16le', true),
  },
];

function toUnit(entry: PropertiesEntry, position: number): StoreUnit {
  return {
    context: entry.rawKey,
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

function parseWith(variant: PropertiesVariant, content: Buffer, options: StoreParseOptions = {}): ParsedStore {
  const { text } = variant.decode(content);
  const { entries } = readProperties(text, options.limits);
  const unique = new UniqueUnits(options.onDuplicate, (unit, kept) => `duplicate key "${unit.context}" (first on line ${kept.line})`);
  entries.forEach((entry, index) => {
    const unit = toUnit(entry, index + 1);
    unique.add(unit.context, unit);
  });
  return { units: unique.units };
}

function hasDelimiter(separator: string): boolean {
  return separator.includes('=') || separator.includes(':');
}

/** The entry's text after an edit: indentation, key and separator as written, the new value on one line. */
function entryText(entry: PropertiesEntry, value: string, asciiOnly: boolean): string {
  const separator = entry.separator === '' ? '=' : entry.separator;
  return entry.indent + entry.rawKey + separator + escapePropertiesValue(value, asciiOnly, hasDelimiter(separator));
}

function firstByKey(entries: readonly PropertiesEntry[]): Map<string, PropertiesEntry> {
  const map = new Map<string, PropertiesEntry>();
  for (const entry of entries) if (!map.has(entry.rawKey)) map.set(entry.rawKey, entry);
  return map;
}

function writeWith(variant: PropertiesVariant, current: Buffer, changes: StoreChanges, context: StoreWriteContext): Buffer {
  const updates = changes.update;
  const adds = changes.add ?? [];
  const removes = changes.remove ?? [];
  if (updates.length === 0 && adds.length === 0 && removes.length === 0) return current;
  const decoded = variant.decode(current);
  const text = decoded.text;
  const keyOf = (unit: { context: string; source: string[] }): string =>
    unit.context !== '' ? unit.context : escapePropertiesKey(unit.source[0] ?? '', variant.asciiOnly);
  const wanted = new Set([...updates, ...adds, ...removes].map(keyOf));
  const { entries, firstSeparator } = readProperties(text, undefined, wanted);
  const byKey = firstByKey(entries);

  const edits = new Map<PropertiesEntry, TextEdit>();
  const appended = new Map<string, UnitWrite>();
  for (const unit of [...updates, ...adds]) {
    const key = keyOf(unit);
    const entry = byKey.get(key);
    const value = unit.target[0] ?? '';
    if (!entry) {
      appended.set(key, unit);
      continue;
    }
    if (entry.value === value) continue;
    edits.set(entry, { start: entry.lineStart, end: entry.contentEnd, text: entryText(entry, value, variant.asciiOnly) });
  }
  for (const unit of removes) {
    const key = keyOf(unit);
    const entry = byKey.get(key);
    appended.delete(key);
    // The comment lines above an entry are its note: they go with it, as translate-toolkit removes the unit.
    if (entry) edits.set(entry, { start: entry.blockStart, end: entry.end, text: '' });
  }

  let output = applyEdits(text, [...edits.values()]);
  if (appended.size > 0) output += appendedText(variant, output, firstSeparator, appended, context);
  return encodeText(output, decoded.encoding, decoded.bom);
}

/** New entries go at the end of the file with the template entry's separator (formats.md §3.6). */
function appendedText(
  variant: PropertiesVariant,
  output: string,
  firstSeparator: string,
  appended: ReadonlyMap<string, UnitWrite>,
  context: StoreWriteContext,
): string {
  const newline = detectNewline(output);
  const templateEntries = context.template
    ? firstByKey(readProperties(variant.decode(context.template).text, undefined, new Set(appended.keys())).entries)
    : null;
  const fallbackSeparator = firstSeparator || '=';
  const lines: string[] = [];
  for (const [key, unit] of appended) {
    const separator = templateEntries?.get(key)?.separator || fallbackSeparator;
    lines.push(...noteToCommentLines(unit.note ?? ''));
    lines.push(key + separator + escapePropertiesValue(unit.target[0] ?? '', variant.asciiOnly, hasDelimiter(separator)));
  }
  const needsBreak = output.length > 0 && !output.endsWith('\n') && !output.endsWith('\r');
  return (needsBreak ? newline : '') + lines.map((line) => line + newline).join('');
}

function createWith(variant: PropertiesVariant, base: Buffer | null): Buffer | null {
  if (!base) return variant.newFile();
  const decoded = variant.decode(base);
  const { entries } = readProperties(decoded.text, undefined);
  const edits = entries
    .filter((entry) => entry.value !== '')
    .map((entry) => ({ start: entry.lineStart, end: entry.contentEnd, text: entryText(entry, '', variant.asciiOnly) }));
  return encodeText(applyEdits(decoded.text, edits), decoded.encoding, decoded.bom);
}

function propertiesFormat(variant: PropertiesVariant): FileFormat {
  return {
    id: variant.id,
    name: variant.name,
    kind: 'both',
    extension: 'properties',
    parse: (content, options) => parseWith(variant, content, options),
    write: (current, changes, context) => writeWith(variant, current, changes, context),
    create: (base) => createWith(variant, base),
  };
}

export const PROPERTIES_FORMATS: readonly FileFormat[] = VARIANTS.map(propertiesFormat);
