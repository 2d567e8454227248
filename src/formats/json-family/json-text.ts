import { isUtf8 } from 'node:buffer';
import { FormatParseError, hasUtf8Bom, UTF8_BOM } from '../format';

// Bytes <-> text for the JSON family: strict UTF-8 (Python's json reader raises on invalid bytes), a BOM
// kept aside and put back on write (formats.md §3.8 "a UTF-8 BOM is kept"), and line numbers for messages.

export interface JsonText {
  text: string;
  bom: boolean;
  /** The file's line break, used for lines the writer adds: CRLF when the file uses it. */
  newline: '\n' | '\r\n';
}

export function decodeJsonText(content: Buffer): JsonText {
  const bom = hasUtf8Bom(content);
  const body = bom ? content.subarray(3) : content;
  // isUtf8 + toString is several times faster than a fatal TextDecoder on a multi-megabyte file.
  if (!isUtf8(body)) throw new FormatParseError(`line ${lineOfInvalidUtf8(body)}: the file is not valid UTF-8`);
  const text = body.toString('utf8');
  const firstBreak = text.indexOf('\n');
  return { text, bom, newline: firstBreak > 0 && text[firstBreak - 1] === '\r' ? '\r\n' : '\n' };
}

export function encodeJsonText(text: string, bom: boolean): Buffer {
  const body = Buffer.from(text, 'utf8');
  return bom ? Buffer.concat([UTF8_BOM, body]) : body;
}

/** 1-based line of the first byte that does not start a valid UTF-8 sequence (only run on failure; linear). */
function lineOfInvalidUtf8(bytes: Buffer): number {
  let line = 1;
  let i = 0;
  const continuation = (at: number, low = 0x80, high = 0xbf): boolean => at < bytes.length && bytes[at] >= low && bytes[at] <= high;
  while (i < bytes.length) {
    const byte = bytes[i];
    if (byte < 0x80) {
      if (byte === 0x0a) line++;
      i++;
      continue;
    }
    // RFC 3629 table 3-7: the second byte's range excludes overlong forms, surrogates and code points past U+10FFFF.
    let length = 0;
    if (byte >= 0xc2 && byte <= 0xdf) length = continuation(i + 1) ? 2 : 0;
    else if (byte >= 0xe0 && byte <= 0xef) {
      const [low, high] = byte === 0xe0 ? [0xa0, 0xbf] : byte === 0xed ? [0x80, 0x9f] : [0x80, 0xbf];
      length = continuation(i + 1, low, high) && continuation(i + 2) ? 3 : 0;
    } else if (byte >= 0xf0 && byte <= 0xf4) {
      const [low, high] = byte === 0xf0 ? [0x90, 0xbf] : byte === 0xf4 ? [0x80, 0x8f] : [0x80, 0xbf];
      length = continuation(i + 1, low, high) && continuation(i + 2) && continuation(i + 3) ? 4 : 0;
    }
    if (length === 0) return line;
    i += length;
  }
  return line;
}

/** Offsets -> line/column, built once per text (O(n)), looked up by binary search. */
export class LineIndex {
  private starts: number[] | undefined;

  constructor(private readonly text: string) {}

  private lineStarts(): number[] {
    if (!this.starts) {
      const starts = [0];
      for (let i = this.text.indexOf('\n'); i !== -1; i = this.text.indexOf('\n', i + 1)) starts.push(i + 1);
      this.starts = starts;
    }
    return this.starts;
  }

  /** 1-based line of `offset`. */
  line(offset: number): number {
    const starts = this.lineStarts();
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (starts[middle] <= offset) low = middle;
      else high = middle - 1;
    }
    return low + 1;
  }

  position(offset: number): { line: number; column: number } {
    const line = this.line(offset);
    return { line, column: offset - this.lineStarts()[line - 1] + 1 };
  }

  describe(offset: number): string {
    const { line, column } = this.position(offset);
    return `line ${line}, column ${column}`;
  }

  /** Leading whitespace of the line holding `offset`: the indentation a value written there starts from. */
  indentation(offset: number): string {
    const start = this.lineStarts()[this.line(offset) - 1];
    let end = start;
    while (this.text[end] === ' ' || this.text[end] === '\t') end++;
    return this.text.slice(start, end);
  }
}
