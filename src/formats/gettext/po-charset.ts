// The byte <-> text step of PO files. translate-toolkit decodes a PO file with the charset its header names
// (formats.md §3.1 "Encoding"): CHARSET/ASCII/missing mean UTF-8. Glossa decodes other charsets through
// TextDecoder (Node's ICU) and writes them back only when they are single-byte (a reverse table built from
// the decoder); a multi-byte legacy charset can be read but not written (FormatWriteError).

import { isUtf8 } from 'node:buffer';
import { FormatParseError, FormatWriteError, hasUtf8Bom, UTF8_BOM } from '../format';

export interface PoEncoding {
  /** Normalised charset label, `utf-8` for UTF-8 and its stand-ins. */
  charset: string;
  bom: boolean;
}

const CHARSET_IN_HEADER = /charset=([A-Za-z0-9_.:-]+)/;
const UTF8_STAND_INS = new Set(['utf-8', 'utf8', 'charset', 'ascii', 'us-ascii']);

/** The charset the header's Content-Type names, read before decoding (the header is ASCII in every charset). */
export function sniffCharset(content: Buffer): string {
  // The header is the first entry; 64 KiB is far more than any real header and bounds the work.
  const head = content.subarray(0, 65536).toString('latin1');
  const end = head.search(/\r?\n[ \t]*\r?\n/);
  const match = CHARSET_IN_HEADER.exec(end === -1 ? head : head.slice(0, end));
  const label = match ? match[1].toLowerCase() : 'utf-8';
  return UTF8_STAND_INS.has(label) ? 'utf-8' : label;
}

// WHATWG's TextDecoder reads ISO-8859-1 as windows-1252; Python (so Weblate) maps every byte to U+0000-U+00FF.
export const LATIN1_LABELS = new Set(['iso-8859-1', 'iso8859-1', 'latin1', 'latin-1', 'l1', 'iso_8859-1']);

export function decodePo(content: Buffer): { text: string; encoding: PoEncoding } {
  const bom = hasUtf8Bom(content);
  const charset = bom ? 'utf-8' : sniffCharset(content);
  if (LATIN1_LABELS.has(charset)) return { text: content.toString('latin1'), encoding: { charset: 'latin1', bom } };
  if (charset === 'utf-8') {
    // Validating, then decoding without checks, costs a third of TextDecoder's fatal mode on a 6 MB file
    // (node --cpu-prof of a one-edit write); the error is the same.
    const body = bom ? content.subarray(3) : content;
    if (!isUtf8(body)) throw new FormatParseError(`${lineOfBadByte(content, charset)}: file is not valid ${charset}`);
    return { text: body.toString('utf8'), encoding: { charset, bom } };
  }
  let decoder: InstanceType<typeof TextDecoder>;
  try {
    decoder = new TextDecoder(charset, { fatal: true, ignoreBOM: true });
  } catch {
    throw new FormatParseError(`line 1: unsupported charset "${charset}"`);
  }
  try {
    const text = decoder.decode(bom ? content.subarray(3) : content);
    return { text, encoding: { charset: charset === 'utf8' ? 'utf-8' : charset, bom } };
  } catch {
    throw new FormatParseError(`${lineOfBadByte(content, charset)}: file is not valid ${charset}`);
  }
}

/** Best-effort line of the first undecodable byte, for the error message. */
function lineOfBadByte(content: Buffer, charset: string): string {
  if (charset !== 'utf-8') return 'line 1';
  const text = content.toString('utf8');
  const bad = text.indexOf('\ufffd');
  if (bad === -1) return 'line 1';
  let line = 1;
  for (let i = 0; i < bad; i++) if (text.charCodeAt(i) === 10) line++;
  return `line ${line}`;
}

const singleByteTables = new Map<string, Map<string, number> | null>();

/** char -> byte for a single-byte charset, null when the charset is not single-byte. */
function singleByteTable(charset: string): Map<string, number> | null {
  const cached = singleByteTables.get(charset);
  if (cached !== undefined) return cached;
  let table: Map<string, number> | null = new Map();
  const decoder = new TextDecoder(charset);
  for (let byte = 0; byte < 256; byte++) {
    const char = decoder.decode(Uint8Array.of(byte));
    if (char.length !== 1 || (char === '\ufffd' && byte >= 0x80 && charset !== 'utf-8')) {
      if (char.length !== 1) {
        table = null;
        break;
      }
      continue;
    }
    if (!table.has(char)) table.set(char, byte);
  }
  singleByteTables.set(charset, table);
  return table;
}

export function encodePo(text: string, encoding: PoEncoding): Buffer {
  if (encoding.charset === 'utf-8') {
    const body = Buffer.from(text, 'utf8');
    return encoding.bom ? Buffer.concat([UTF8_BOM, body]) : body;
  }
  if (encoding.charset === 'latin1') {
    const bad = /[^\u0000-\u00ff]/.exec(text);
    if (bad) throw new FormatWriteError(`Character U+${bad[0].charCodeAt(0).toString(16).toUpperCase()} cannot be written in ISO-8859-1`);
    return Buffer.from(text, 'latin1');
  }
  const table = singleByteTable(encoding.charset);
  if (!table) throw new FormatWriteError(`Cannot write charset ${encoding.charset}; convert the file to UTF-8`);
  const out = Buffer.alloc(text.length);
  for (let i = 0; i < text.length; i++) {
    const byte = table.get(text[i]);
    if (byte === undefined) {
      throw new FormatWriteError(`Character U+${text.charCodeAt(i).toString(16).toUpperCase()} cannot be written in ${encoding.charset}`);
    }
    out[i] = byte;
  }
  return out;
}
