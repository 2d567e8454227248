// Byte <-> text for the key/value family. Every codec here is lossless for the bytes it accepts, so a writer
// can decode a file, splice text into it and encode it again without disturbing untouched bytes (issue 11
// item 3: encoding, BOM and line endings of the rest stay as they were).

import { FormatParseError, FormatWriteError } from '../format';
import { applySplices, type TextSplice } from '../text-splice';

export type TextEncodingName = 'latin1' | 'utf8' | 'utf16le' | 'utf16be';

export interface DecodedText {
  text: string;
  encoding: TextEncodingName;
  /** The file started with a byte order mark (kept on write). */
  bom: boolean;
}

const UTF16LE_BOM = Buffer.from([0xff, 0xfe]);
const UTF16BE_BOM = Buffer.from([0xfe, 0xff]);
const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);

function startsWith(content: Buffer, prefix: Buffer): boolean {
  return content.length >= prefix.length && content.subarray(0, prefix.length).equals(prefix);
}

function decodeUtf8Strict(body: Buffer): string {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(body);
  } catch {
    throw new FormatParseError(`line ${firstBadUtf8Line(body)}: file is not valid UTF-8`);
  }
}

/** The 1-based line of the first byte sequence that is not UTF-8, for the error message. */
function firstBadUtf8Line(body: Buffer): number {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < body.length; i++) {
    if (body[i] === 0x0a) {
      try {
        new TextDecoder('utf-8', { fatal: true }).decode(body.subarray(lineStart, i));
      } catch {
        return line;
      }
      line++;
      lineStart = i + 1;
    }
  }
  return line;
}

function swapBytes(body: Buffer): Buffer {
  const swapped = Buffer.from(body);
  swapped.swap16();
  return swapped;
}

function decodeUtf16(body: Buffer, bigEndian: boolean): string {
  if (body.length % 2 !== 0) throw new FormatParseError('line 1: UTF-16 file has an odd number of bytes');
  // Node's utf16le keeps lone surrogates as they are, so encoding the text again gives the same bytes.
  return (bigEndian ? swapBytes(body) : body).toString('utf16le');
}

/** UTF-16 without a BOM: an ASCII-heavy file has a zero byte in every pair (first char decides LE/BE). */
function sniffBomlessUtf16(content: Buffer): 'utf16le' | 'utf16be' | null {
  if (content.length < 2 || content.length % 2 !== 0) return null;
  if (content[0] !== 0 && content[1] === 0) return 'utf16le';
  if (content[0] === 0 && content[1] !== 0) return 'utf16be';
  return null;
}

export function decodeLatin1(content: Buffer): DecodedText {
  return { text: content.toString('latin1'), encoding: 'latin1', bom: false };
}

export function decodeUtf8(content: Buffer): DecodedText {
  const bom = startsWith(content, UTF8_BOM);
  return { text: decodeUtf8Strict(bom ? content.subarray(3) : content), encoding: 'utf8', bom };
}

/**
 * UTF-16 with its BOM (LE or BE), a UTF-8 BOM, BOM-less UTF-16 recognised by its zero bytes, else strict
 * UTF-8. This is how the .strings reader detects the encoding (formats.md §3.4) and how the UTF-16
 * properties variant reads (Python's utf-16 codec: BOM, else little-endian).
 */
export function decodeUnicodeAuto(content: Buffer): DecodedText {
  if (startsWith(content, UTF16LE_BOM)) return { text: decodeUtf16(content.subarray(2), false), encoding: 'utf16le', bom: true };
  if (startsWith(content, UTF16BE_BOM)) return { text: decodeUtf16(content.subarray(2), true), encoding: 'utf16be', bom: true };
  if (startsWith(content, UTF8_BOM)) return decodeUtf8(content);
  const bomless = sniffBomlessUtf16(content);
  if (bomless) return { text: decodeUtf16(content, bomless === 'utf16be'), encoding: bomless, bom: false };
  return decodeUtf8(content);
}

export function encodeText(text: string, encoding: TextEncodingName, bom: boolean): Buffer {
  switch (encoding) {
    case 'latin1': {
      for (let i = 0; i < text.length; i++) {
        if (text.charCodeAt(i) > 0xff) throw new FormatWriteError('text cannot be written in ISO-8859-1');
      }
      return Buffer.from(text, 'latin1');
    }
    case 'utf8': {
      const body = Buffer.from(text, 'utf8');
      return bom ? Buffer.concat([UTF8_BOM, body]) : body;
    }
    case 'utf16le': {
      const body = Buffer.from(text, 'utf16le');
      return bom ? Buffer.concat([UTF16LE_BOM, body]) : body;
    }
    case 'utf16be': {
      const body = swapBytes(Buffer.from(text, 'utf16le'));
      return bom ? Buffer.concat([UTF16BE_BOM, body]) : body;
    }
  }
}

/** The file's line ending, from its first line break (LF when it has none). */
export function detectNewline(text: string): '\n' | '\r\n' | '\r' {
  const lf = text.indexOf('\n');
  const cr = text.indexOf('\r');
  if (cr >= 0 && (lf < 0 || cr < lf)) return lf === cr + 1 ? '\r\n' : '\r';
  return '\n';
}

/** One text edit: replace text[start, end) with `text`. */
export type TextEdit = TextSplice;

export function applyEdits(text: string, edits: readonly TextEdit[]): string {
  return applySplices(text, edits);
}
