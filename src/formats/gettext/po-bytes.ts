// Writing back a UTF-8 or ISO-8859-1 PO file without decoding it (issue 11: one edit written back to a
// 50,000-entry file in < 200 ms). node --cpu-prof of a one-edit write showed that decoding the 6 MB file to
// a string (a two-byte string as soon as it holds one non-Latin-1 character), joining the patched text and
// encoding it back were most of the write. In both charsets every byte below 0x80 is the ASCII character
// and never part of a multi-byte sequence, and all PO syntax (keywords, quotes, `#`, blanks, line ends) is
// ASCII. So the structure is read from a Latin-1 image of the bytes (one character per byte, a plain copy),
// whose offsets are byte offsets; only the lines a write reads (msgctxt/msgid of each entry, the entries it
// changes) are decoded with the real charset, and the result is the original bytes with the changed entries'
// new bytes spliced in. Other charsets (where an ASCII byte can be the second byte of a character, e.g.
// Shift_JIS) keep the string path.

import { isUtf8 } from 'node:buffer';
import { hasUtf8Bom, UTF8_BOM } from '../format';
import { decodePo, encodePo, LATIN1_LABELS, sniffCharset, type PoEncoding } from './po-charset';
import type { PoDocument } from './po-parser';
import type { EntryReplacements } from './po-writer';

export interface PoBytes {
  /** The file without its BOM. */
  body: Buffer;
  /** `body` one character per byte (Latin-1): offsets in it are byte offsets. */
  image: string;
  encoding: PoEncoding;
  /** The text of body bytes start..end in the file's charset. */
  decode(start: number, end: number): string;
}

/**
 * The file's bytes ready for byte-level work, or null when its charset is neither UTF-8 nor ISO-8859-1. A
 * file that is not valid UTF-8 fails as decodePo fails (same message).
 */
export function readPoBytes(content: Buffer): PoBytes | null {
  const bom = hasUtf8Bom(content);
  const charset = bom ? 'utf-8' : sniffCharset(content);
  const body = bom ? content.subarray(UTF8_BOM.length) : content;
  if (LATIN1_LABELS.has(charset)) return poBytesOf(body, { charset: 'latin1', bom });
  if (charset !== 'utf-8') return null;
  // decodePo raises the error (with the line of the bad byte) that reading the file gives.
  if (!isUtf8(body)) decodePo(content);
  return poBytesOf(body, { charset, bom });
}

/** PoBytes of a body already known to be valid in `encoding` (UTF-8 or Latin-1). */
export function poBytesOf(body: Buffer, encoding: PoEncoding): PoBytes {
  const image = body.toString('latin1');
  if (encoding.charset === 'latin1') return { body, image, encoding, decode: (start, end) => image.slice(start, end) };
  return { body, image, encoding, decode: (start, end) => body.toString('utf8', start, end) };
}

/** An entry assembleBytes replaced: its lines in the input body and its new bytes. */
export interface ByteSplice {
  firstLine: number;
  lastLine: number;
  bytes: Buffer;
}

/** PoDocument.lineAt over bytes: a line's text in the file's charset, without its line end. */
export function byteLineGetter(bytes: PoBytes, lineStarts: Int32Array): (index: number) => string {
  const { body } = bytes;
  return (index) => {
    const start = lineStarts[index];
    let stop = lineStarts[index + 1];
    if (stop > start && body[stop - 1] === 10) stop--;
    if (stop > start && body[stop - 1] === 13) stop--;
    return bytes.decode(start, stop);
  };
}

/**
 * po-writer's assemble over bytes: `document` was read from `bytes.image` (its line starts are byte
 * offsets). Replacing entries and appending only; removals take the string path.
 */
export function assembleBytes(
  bytes: PoBytes,
  document: PoDocument,
  replacements: EntryReplacements,
  prefix: string[],
  appended: string[][],
  splices?: ByteSplice[],
): Buffer {
  const { body } = bytes;
  const { lineStarts, entries, newline } = document;
  const text = { ...bytes.encoding, bom: false };
  const chunks: Buffer[] = bytes.encoding.bom ? [UTF8_BOM] : [];
  let length = 0;
  let last = -1;
  const push = (chunk: Buffer): void => {
    if (chunk.length === 0) return;
    chunks.push(chunk);
    length += chunk.length;
    last = chunk[chunk.length - 1];
  };
  if (prefix.length > 0) push(encodePo(prefix.join(newline) + newline + (body.length > 0 ? newline : ''), text));
  let cursor = 0;
  for (let index = 0; index < entries.length; index++) {
    const replacement = replacements.get(index);
    if (replacement === undefined) continue;
    if (replacement === null) throw new Error('assembleBytes cannot remove entries');
    const entry = entries[index];
    const start = lineStarts[entry.firstLine];
    const end = lineStarts[entry.lastLine + 1];
    push(body.subarray(cursor, start));
    const endsWithNewline = end > start && body[end - 1] === 10;
    const spliced = encodePo(replacement.join(newline) + (endsWithNewline ? newline : ''), text);
    splices?.push({ firstLine: entry.firstLine, lastLine: entry.lastLine, bytes: spliced });
    push(spliced);
    cursor = end;
  }
  push(body.subarray(cursor));
  for (const lines of appended) {
    if (length > 0 && last !== 10) push(encodePo(newline, text));
    if (length > 0) push(encodePo(newline, text));
    push(encodePo(lines.join(newline) + newline, text));
  }
  return Buffer.concat(chunks);
}
