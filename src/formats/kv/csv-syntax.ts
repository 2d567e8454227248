// Reading CSV records with the exact offsets of every cell, so the writer can replace one cell and keep
// the rest of the file as it is (formats.md §3.14). RFC 4180 quoting (`""` inside quotes), CR, LF and
// CRLF record ends, line breaks inside quoted cells; text after a closing quote is kept, as Python's csv
// module does. One linear pass.

import { FormatParseError } from '../format';

export interface CsvCell {
  value: string;
  /** Raw cell text offsets, quotes included. */
  start: number;
  end: number;
  quoted: boolean;
}

export interface CsvRecord {
  cells: CsvCell[];
  /** Offset of the record's first character. */
  start: number;
  /** Offset past the record's last cell (before its line break). */
  contentEnd: number;
  /** Offset past the record's line break. */
  end: number;
  /** 1-based line where the record starts. */
  line: number;
}

export type CsvDelimiter = ',' | ';' | '\t';

/**
 * The delimiter of the first record (outside quotes): the most frequent of `,` `;` tab, comma on a tie.
 * translate-toolkit sniffs a sample the same way and restricts itself to these characters.
 */
export function sniffDelimiter(text: string): CsvDelimiter {
  const counts = { ',': 0, ';': 0, '\t': 0 };
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (char === '"') quoted = !quoted;
    else if (!quoted && (char === '\n' || char === '\r')) break;
    else if (!quoted && (char === ',' || char === ';' || char === '\t')) counts[char]++;
  }
  if (counts[';'] > counts[','] && counts[';'] >= counts['\t']) return ';';
  if (counts['\t'] > counts[','] && counts['\t'] > counts[';']) return '\t';
  return ',';
}

/** Calls `onRecord` for every record, blank lines included (as records with one empty cell). */
export function readCsv(text: string, delimiter: string, onRecord: (record: CsvRecord) => void): void {
  const length = text.length;
  const delimiterCode = delimiter.charCodeAt(0);
  let pos = 0;
  let line = 1;
  while (pos < length) {
    const record: CsvRecord = { cells: [], start: pos, contentEnd: pos, end: pos, line };
    for (;;) {
      let cellStart = pos;
      // A space before an opening quote belongs to the separator (translate-toolkit's skipinitialspace).
      let probe = pos;
      while (probe < length && text.charCodeAt(probe) === 0x20) probe++;
      if (probe < length && text.charCodeAt(probe) === 0x22) {
        cellStart = probe;
        const openLine = line;
        let value = '';
        let i = probe + 1;
        let segment = i;
        for (;;) {
          if (i >= length) throw new FormatParseError(`line ${openLine}: quoted field is not closed`);
          const code = text.charCodeAt(i);
          if (code === 0x22) {
            if (text.charCodeAt(i + 1) === 0x22) {
              value += text.slice(segment, i + 1);
              i += 2;
              segment = i;
              continue;
            }
            value += text.slice(segment, i);
            i++;
            break;
          }
          if (code === 0x0a || (code === 0x0d && text.charCodeAt(i + 1) !== 0x0a)) line++;
          i++;
        }
        // Python's csv keeps text between a closing quote and the next delimiter.
        const tail = i;
        while (i < length) {
          const code = text.charCodeAt(i);
          if (code === delimiterCode || code === 0x0a || code === 0x0d) break;
          i++;
        }
        record.cells.push({ value: value + text.slice(tail, i), start: cellStart, end: i, quoted: true });
        pos = i;
      } else {
        let i = pos;
        while (i < length) {
          const code = text.charCodeAt(i);
          if (code === delimiterCode || code === 0x0a || code === 0x0d) break;
          i++;
        }
        record.cells.push({ value: text.slice(pos, i), start: cellStart, end: i, quoted: false });
        pos = i;
      }
      if (pos < length && text.charCodeAt(pos) === delimiterCode) {
        pos++;
        continue;
      }
      break;
    }
    record.contentEnd = pos;
    if (pos < length) {
      pos += text.charCodeAt(pos) === 0x0d && text.charCodeAt(pos + 1) === 0x0a ? 2 : 1;
      line++;
    }
    record.end = pos;
    onRecord(record);
  }
}

/** A cell as written: quoted when asked to or when the value needs it. */
export function encodeCsvCell(value: string, delimiter: string, quote: boolean): string {
  const needsQuotes =
    quote || value.includes(delimiter) || value.includes('"') || value.includes('\n') || value.includes('\r') || value.startsWith(' ');
  return needsQuotes ? `"${value.split('"').join('""')}"` : value;
}
