// translate-toolkit's CSV field model (formats.md §3.14): the canonical columns, the header aliases it
// accepts, and Weblate's Excel formula guard.

export type CsvField =
  | 'location'
  | 'source'
  | 'target'
  | 'id'
  | 'fuzzy'
  | 'context'
  | 'translator_comments'
  | 'developer_comments';

/** translate-toolkit's default column order, used by the CSV exporter and headerless files. */
export const CSV_FIELDS: readonly CsvField[] = [
  'location',
  'source',
  'target',
  'id',
  'fuzzy',
  'context',
  'translator_comments',
  'developer_comments',
];

const ALIASES: Readonly<Record<string, CsvField>> = {
  location: 'location',
  source: 'source',
  original: 'source',
  untranslated: 'source',
  target: 'target',
  translated: 'target',
  translation: 'target',
  id: 'id',
  key: 'id',
  label: 'id',
  identified: 'id',
  fuzzy: 'fuzzy',
  state: 'fuzzy',
  context: 'context',
  translator_comments: 'translator_comments',
  notes: 'translator_comments',
  'translator comments': 'translator_comments',
  developer_comments: 'developer_comments',
};

export function fieldForHeader(name: string): CsvField | null {
  return ALIASES[name.trim().toLowerCase()] ?? null;
}

/**
 * The first record is a header when it names the source column, or when every cell is a known field name
 * (Weblate 5 also accepts e.g. `context,target` without a source column).
 */
export function isHeaderRow(cells: readonly string[]): boolean {
  const fields = cells.map(fieldForHeader);
  return fields.includes('source') || (fields.length > 0 && fields.every((field) => field !== null));
}

/** translate-toolkit's truthy values for the `fuzzy` column. */
export function isFuzzyValue(value: string): boolean {
  return ['1', 'x', 'true', 'yes', 'fuzzy'].includes(value.trim().toLowerCase());
}

const GUARDED_STARTS = new Set(['=', '+', '-', '@', '|', '%']);

/**
 * Weblate's CSV exporter wraps a value that Excel would run as a formula in apostrophes and writes `|` as
 * `\|` (formats.md §4); this guards a value the same way.
 */
export function guardCsvFormula(text: string): string {
  if (text !== '' && GUARDED_STARTS.has(text[0])) return `'${text.split('|').join('\\|')}'`;
  return text;
}

/** The reverse, applied on read to context, source and target (formats.md §3.14). */
export function unguardCsvFormula(text: string): string {
  if (text.length >= 3 && text[0] === "'" && text[text.length - 1] === "'" && '=+-@%\\'.includes(text[1])) {
    return text.slice(1, -1).split('\\|').join('|');
  }
  return text;
}
