// CSV as Weblate's `csv` (header row naming translate-toolkit's fields, or a headerless location,source,
// target / source,target file) and `csv-simple` (two columns, source and target) — formats.md §3.14.
// Weblate rewrites the whole file with every field quoted and CRLF; Glossa patches the changed cells and
// rows instead, so the file's quoting, delimiter, line ends and extra columns survive (docs/formats/kv.md).

import { UniqueUnits } from '../unique-units';
import { FormatParseError, FormatWriteError } from '../format';
import type { FileFormat, ParsedStore, StoreChanges, StoreParseOptions, StoreUnit, UnitKey, UnitWrite } from '../store';
import { LimitGuard } from './limits';
import { CSV_FIELDS, fieldForHeader, isFuzzyValue, isHeaderRow, unguardCsvFormula, type CsvField } from './csv-fields';
import { encodeCsvCell, readCsv, sniffDelimiter, type CsvRecord } from './csv-syntax';
import { applyEdits, decodeLatin1, decodeUnicodeAuto, detectNewline, encodeText, type DecodedText, type TextEdit } from './text-codec';

interface CsvVariant {
  id: string;
  name: string;
  simple: boolean;
}

const VARIANTS: readonly CsvVariant[] = [
  { id: 'csv', name: 'CSV file', simple: false },
  { id: 'csv-simple', name: 'Simple CSV file', simple: true },
];

interface CsvRow {
  record: CsvRecord;
  context: string;
  source: string;
  target: string;
  /** The key Weblate uses when the file is a template or a monolingual translation: id, context or source. */
  monolingualKey: string;
  fuzzy: boolean;
  location: string;
  note: string;
}

interface CsvTable {
  delimiter: string;
  /** Column -> field (null for a column translate-toolkit does not know; it is kept as written). */
  columns: (CsvField | null)[];
  header: CsvRecord | null;
  rows: CsvRow[];
  /** The file's first record starts with a quoted cell: new cells are quoted too (Weblate quotes all). */
  firstCellQuoted: boolean;
}

/** Weblate's encoding "auto": a BOM, else UTF-8, else a single-byte encoding (ISO-8859-1 here). */
function decodeCsv(content: Buffer): DecodedText {
  try {
    return decodeUnicodeAuto(content);
  } catch (error) {
    if (error instanceof FormatParseError) return decodeLatin1(content);
    throw error;
  }
}

function isBlankRecord(record: CsvRecord): boolean {
  return record.cells.length === 1 && !record.cells[0].quoted && record.cells[0].value === '';
}

/** Which rows a writer keeps (by context, source and monolingual key); the others are read and dropped. */
type RowFilter = (context: string, source: string, monolingualKey: string) => boolean;

function readTable(variant: CsvVariant, text: string, guard: LimitGuard | null, keep: RowFilter | null = null): CsvTable {
  const delimiter = sniffDelimiter(text);
  const table: CsvTable = { delimiter, columns: [], header: null, rows: [], firstCellQuoted: true };
  let first = true;
  let index = new Map<CsvField, number>();
  readCsv(text, delimiter, (record) => {
    if (isBlankRecord(record)) return;
    if (first) {
      first = false;
      const names = record.cells.map((cell) => cell.value);
      if (variant.simple) {
        table.columns = ['source', 'target'];
        // translate-toolkit drops a first row that repeats the field names.
        if (names.length === 2 && names[0].trim().toLowerCase() === 'source' && names[1].trim().toLowerCase() === 'target') {
          table.header = record;
        }
      } else if (isHeaderRow(names)) {
        table.columns = names.map(fieldForHeader);
        table.header = record;
      } else {
        // Headerless: location, source, target; Weblate re-reads a two-column file as source, target.
        table.columns = record.cells.length === 2 ? ['source', 'target'] : ['location', 'source', 'target'];
      }
      index = new Map();
      table.columns.forEach((field, column) => {
        if (field && !index.has(field)) index.set(field, column);
      });
      table.firstCellQuoted = record.cells[0].quoted;
      if (table.header) return;
    }
    const get = (field: CsvField): string => {
      const column = index.get(field);
      return column === undefined ? '' : (record.cells[column]?.value ?? '');
    };
    const id = get('id');
    const context = unguardCsvFormula(get('context'));
    const source = unguardCsvFormula(get('source'));
    const target = unguardCsvFormula(get('target'));
    if (id === '' && context === '' && source === '' && target === '') return;
    guard?.countUnit(record.line);
    for (const value of [id, context, source, target]) guard?.checkString(value, record.line);
    const monolingualKey = id || context || source;
    if (keep && !keep(context, source, monolingualKey)) return;
    // A writer needs only the keys and cells; notes are built for parse only (keeps a 50k-row write cheap).
    const translatorComments = guard ? get('translator_comments') : '';
    const developerComments = guard ? get('developer_comments') : '';
    table.rows.push({
      record,
      context,
      source,
      target,
      monolingualKey,
      fuzzy: index.has('fuzzy') && isFuzzyValue(get('fuzzy')),
      location: get('location'),
      note: [translatorComments, developerComments].filter((part) => part !== '').join('\n'),
    });
  });
  return table;
}

const identity = (context: string, source: string): string => `${context}\u0004${source}`;

function toUnit(row: CsvRow, position: number): StoreUnit {
  const unit: StoreUnit = {
    context: row.context,
    source: [row.source],
    target: [row.target],
    plural: false,
    note: row.note,
    location: row.location,
    flags: '',
    previousSource: '',
    fuzzy: row.fuzzy,
    approved: false,
    readOnly: false,
    position,
    line: row.record.line,
  };
  if (row.monolingualKey !== row.context) unit.templateContext = row.monolingualKey;
  return unit;
}

function parseCsv(variant: CsvVariant, content: Buffer, options: StoreParseOptions = {}): ParsedStore {
  const table = readTable(variant, decodeCsv(content).text, new LimitGuard(options.limits));
  const unique = new UniqueUnits(options.onDuplicate, (unit, kept) => {
    const source = unit.source[0] ?? '';
    const what = unit.context ? `context "${unit.context}" and source "${source}"` : `source "${source}"`;
    return `duplicate string with ${what} (first on line ${kept.line})`;
  });
  table.rows.forEach((row, index) => {
    const unit = toUnit(row, index + 1);
    unique.add(identity(unit.context, row.source), unit);
  });
  return { units: unique.units };
}

class CsvPatcher {
  readonly edits = new Map<CsvRecord, TextEdit[]>();
  private readonly bilingual = new Map<string, Map<string, CsvRow>>();
  private readonly monolingual = new Map<string, CsvRow>();
  private readonly columnOf = new Map<CsvField, number>();
  /** New cells are quoted when the file quotes its first cell (Weblate quotes everything). */
  private readonly quoteAll: boolean;

  /** Cells past the end of a short row, inserted together at the row's end. */
  private readonly tails = new Map<CsvRecord, Map<number, string>>();

  /**
   * `wanted`: the units the write touches. Only their rows are indexed, with no per-row allocation for the
   * others, so a one-edit write of a large file stays cheap.
   */
  constructor(
    private readonly table: CsvTable,
    wanted: readonly UnitKey[] | null,
  ) {
    const wantedPairs = new Map<string, Set<string>>();
    const wantedKeys = new Set<string>();
    for (const unit of wanted ?? []) {
      const sources = wantedPairs.get(unit.context) ?? new Set<string>();
      wantedPairs.set(unit.context, sources.add(unit.source[0] ?? ''));
      wantedKeys.add(unit.context);
    }
    for (const row of table.rows) {
      if (wanted === null || wantedPairs.get(row.context)?.has(row.source)) {
        const bySource = this.bilingual.get(row.context) ?? new Map<string, CsvRow>();
        this.bilingual.set(row.context, bySource);
        if (!bySource.has(row.source)) bySource.set(row.source, row);
      }
      if ((wanted === null || wantedKeys.has(row.monolingualKey)) && !this.monolingual.has(row.monolingualKey)) {
        this.monolingual.set(row.monolingualKey, row);
      }
    }
    table.columns.forEach((field, column) => {
      if (field && !this.columnOf.has(field)) this.columnOf.set(field, column);
    });
    this.quoteAll = table.firstCellQuoted;
  }

  find(unit: UnitKey): CsvRow | undefined {
    const row = this.bilingual.get(unit.context)?.get(unit.source[0] ?? '');
    return row ?? (unit.context !== '' ? this.monolingual.get(unit.context) : undefined);
  }

  private setCell(record: CsvRecord, field: CsvField, value: string): void {
    const column = this.columnOf.get(field);
    if (column === undefined) return;
    const cell = record.cells[column];
    if (!cell) {
      const tail = this.tails.get(record) ?? new Map<number, string>();
      this.tails.set(record, tail.set(column, value));
      return;
    }
    const edits = this.edits.get(record) ?? [];
    this.edits.set(record, edits);
    edits.push({ start: cell.start, end: cell.end, text: encodeCsvCell(value, this.table.delimiter, cell.quoted || this.quoteAll) });
  }

  update(row: CsvRow, unit: UnitWrite): void {
    if (!this.columnOf.has('target')) throw new FormatWriteError('the CSV file has no target column');
    const target = unit.target[0] ?? '';
    if (row.target !== target) this.setCell(row.record, 'target', target);
    const fuzzy = unit.state === 'fuzzy';
    if (this.columnOf.has('fuzzy') && row.fuzzy !== fuzzy) this.setCell(row.record, 'fuzzy', fuzzy ? 'True' : 'False');
  }

  remove(row: CsvRow): void {
    this.edits.set(row.record, [{ start: row.record.start, end: row.record.end, text: '' }]);
  }

  /** A new row with the file's columns; the key goes to id, else context, else source (see monolingualKey). */
  newRow(unit: UnitWrite): string {
    const hasKeyColumn = this.columnOf.has('id') || this.columnOf.has('context');
    const values: Partial<Record<CsvField, string>> = {
      location: unit.location ?? '',
      target: unit.target[0] ?? '',
      fuzzy: unit.state === 'fuzzy' ? 'True' : 'False',
      developer_comments: unit.note ?? '',
    };
    if (this.columnOf.has('id') && !this.columnOf.has('context')) values.id = unit.context;
    else values.context = unit.context;
    values.source = hasKeyColumn || unit.context === '' ? (unit.source[0] ?? '') : unit.context;
    const columns = this.table.columns.length > 0 ? this.table.columns : CSV_FIELDS;
    return columns.map((field) => encodeCsvCell(field ? (values[field] ?? '') : '', this.table.delimiter, this.quoteAll)).join(this.table.delimiter);
  }

  flatEdits(): TextEdit[] {
    const edits = [...this.edits.values()].flat();
    for (const [record, tail] of this.tails) {
      // A short row (fewer cells than the header) is padded with empty cells up to the last one written.
      if (this.edits.get(record)?.some((edit) => edit.start === record.start && edit.end === record.end)) continue;
      const last = Math.max(...tail.keys());
      let text = '';
      for (let column = record.cells.length; column <= last; column++) {
        const value = tail.get(column) ?? '';
        text += this.table.delimiter + (tail.has(column) ? encodeCsvCell(value, this.table.delimiter, this.quoteAll) : '');
      }
      edits.push({ start: record.contentEnd, end: record.contentEnd, text });
    }
    return edits;
  }
}

function writeCsv(variant: CsvVariant, current: Buffer, changes: StoreChanges): Buffer {
  const adds = changes.add ?? [];
  const removes = changes.remove ?? [];
  if (changes.update.length === 0 && adds.length === 0 && removes.length === 0) return current;
  const decoded = decodeCsv(current);
  const wanted = [...changes.update, ...adds, ...removes];
  const contexts = new Set(wanted.map((unit) => unit.context));
  const keep: RowFilter = (context, _source, monolingualKey) => contexts.has(context) || contexts.has(monolingualKey);
  const table = readTable(variant, decoded.text, null, keep);
  const patcher = new CsvPatcher(table, wanted);
  const appended: UnitWrite[] = [];
  const removed = new Set<CsvRow>();
  for (const unit of removes) {
    const row = patcher.find(unit);
    if (row) removed.add(row);
  }
  for (const unit of [...changes.update, ...adds]) {
    const row = patcher.find(unit);
    if (!row) appended.push(unit);
    else if (!removed.has(row)) patcher.update(row, unit);
  }
  for (const row of removed) patcher.remove(row);
  let output = applyEdits(decoded.text, patcher.flatEdits());
  if (appended.length > 0) {
    const newline = detectNewline(decoded.text);
    const needsBreak = output.length > 0 && !output.endsWith('\n') && !output.endsWith('\r');
    output += (needsBreak ? newline : '') + appended.map((unit) => patcher.newRow(unit) + newline).join('');
  }
  return encodeText(output, decoded.encoding, decoded.bom);
}

function createCsv(variant: CsvVariant, base: Buffer | null): Buffer | null {
  // Bilingual CSV has no fixed new-file content: a new language needs `new_base` (§2.4).
  if (!base) return null;
  const decoded = decodeCsv(base);
  const table = readTable(variant, decoded.text, null);
  const patcher = new CsvPatcher(table, null);
  for (const row of table.rows) {
    if (row.target !== '') patcher.update(row, { context: row.context, source: [row.source], target: [''], state: 'empty' });
  }
  return encodeText(applyEdits(decoded.text, patcher.flatEdits()), decoded.encoding, decoded.bom);
}

function csvFormat(variant: CsvVariant): FileFormat {
  return {
    id: variant.id,
    name: variant.name,
    kind: 'both',
    extension: 'csv',
    parse: (content, options) => parseCsv(variant, content, options),
    write: (current, changes) => writeCsv(variant, current, changes),
    create: (base) => createCsv(variant, base),
  };
}

export const CSV_FORMATS: readonly FileFormat[] = VARIANTS.map(csvFormat);
