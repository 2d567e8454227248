// The `csv` and `xlsx` converted downloads (formats.md §4): translate-toolkit's column list, one row per
// unit built from the database. Shared by both exporters because Weblate's xlsx has the same columns.

import type { ExportUnit, Exporter } from '../store';
import { CSV_FIELDS, guardCsvFormula, type CsvField } from './csv-fields';
import { encodeCsvCell } from './csv-syntax';

/** Weblate's state number for "needs editing". */
const STATE_FUZZY = 10;

/**
 * One unit as translate-toolkit's csv unit holds it in Weblate's exporter: first plural form only (a csv
 * unit cannot hold more), context in `context` (no id), the note as developer comment, fuzzy as
 * True/False. `guard` applies Weblate's Excel formula guard to source, target, context and note.
 */
export function exportRow(unit: ExportUnit, guard: boolean): Record<CsvField, string> {
  const filter = guard ? guardCsvFormula : (text: string) => text;
  return {
    location: unit.location,
    source: filter(unit.source[0] ?? ''),
    target: filter(unit.target[0] ?? ''),
    id: '',
    fuzzy: unit.state === STATE_FUZZY ? 'True' : 'False',
    context: filter(unit.context),
    translator_comments: '',
    developer_comments: filter(unit.note),
  };
}

export function exportCsv(units: readonly ExportUnit[]): Buffer {
  const line = (cells: readonly string[]): string => cells.map((cell) => encodeCsvCell(cell, ',', true)).join(',') + '\r\n';
  let text = line(CSV_FIELDS);
  for (const unit of units) {
    const row = exportRow(unit, true);
    text += line(CSV_FIELDS.map((field) => row[field]));
  }
  return Buffer.from(text, 'utf8');
}

export const CSV_EXPORTER: Exporter = {
  id: 'csv',
  extension: 'csv',
  contentType: 'text/csv',
  accepts: () => true,
  export: (units) => exportCsv(units),
};
