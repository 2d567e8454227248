// Bytes <-> text for XML files, keeping the file's own encoding and BOM so a patched file differs from the
// original only where it was edited (issue 11 item 3). Offsets from xml-tokenizer.ts index the decoded text;
// writers splice that text with `applySplices` and encode it back with `encodeXml`.

import { FormatParseError } from '../format';

export type XmlEncoding = 'utf-8' | 'utf-16le' | 'utf-16be' | 'iso-8859-1';

export interface DecodedXml {
  text: string;
  encoding: XmlEncoding;
  /** The file starts with a byte order mark (kept on write). */
  bom: boolean;
}

const DECLARED = /^<\?xml[^>]*?\bencoding\s*=\s*["']([A-Za-z0-9._-]+)["']/;

function declaredEncoding(head: string): XmlEncoding {
  const match = DECLARED.exec(head);
  if (!match) return 'utf-8';
  const name = match[1].toLowerCase();
  if (name === 'utf-8' || name === 'utf8') return 'utf-8';
  if (['iso-8859-1', 'latin1', 'latin-1', 'iso8859-1', 'us-ascii', 'ascii'].includes(name)) return 'iso-8859-1';
  if (name === 'utf-16' || name === 'utf-16le' || name === 'utf-16be') return 'utf-8'; // checked by the caller
  throw new FormatParseError(`line 1: unsupported encoding "${match[1]}"`);
}

function decodeStrict(bytes: Uint8Array, label: string): string {
  try {
    return new TextDecoder(label, { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    throw new FormatParseError(`line 1: file is not valid ${label.toUpperCase()}`);
  }
}

/** Decodes an XML file: BOM sniffing (UTF-8, UTF-16 LE/BE), then the declaration's `encoding`. */
export function decodeXml(content: Buffer): DecodedXml {
  const b0 = content[0];
  const b1 = content[1];
  if (b0 === 0xff && b1 === 0xfe) return { text: decodeStrict(content.subarray(2), 'utf-16le'), encoding: 'utf-16le', bom: true };
  if (b0 === 0xfe && b1 === 0xff) return { text: decodeStrict(content.subarray(2), 'utf-16be'), encoding: 'utf-16be', bom: true };
  if (b0 === 0x3c && b1 === 0x00) return { text: decodeStrict(content, 'utf-16le'), encoding: 'utf-16le', bom: false };
  if (b0 === 0x00 && b1 === 0x3c) return { text: decodeStrict(content, 'utf-16be'), encoding: 'utf-16be', bom: false };
  const bom = b0 === 0xef && b1 === 0xbb && content[2] === 0xbf;
  const body = bom ? content.subarray(3) : content;
  const encoding = declaredEncoding(body.subarray(0, 200).toString('latin1'));
  if (encoding === 'iso-8859-1') return { text: body.toString('latin1'), encoding, bom };
  return { text: decodeStrict(body, 'utf-8'), encoding, bom };
}

/** Encodes text back the way `decodeXml` found it. ISO-8859-1 writes characters past U+00FF as `&#N;`. */
export function encodeXml(text: string, how: Pick<DecodedXml, 'encoding' | 'bom'>): Buffer {
  switch (how.encoding) {
    case 'utf-8': {
      const body = Buffer.from(text, 'utf8');
      return how.bom ? Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), body]) : body;
    }
    case 'utf-16le': {
      const body = Buffer.from(text, 'utf16le');
      return how.bom ? Buffer.concat([Buffer.from([0xff, 0xfe]), body]) : body;
    }
    case 'utf-16be': {
      const body = Buffer.from(text, 'utf16le').swap16();
      return how.bom ? Buffer.concat([Buffer.from([0xfe, 0xff]), body]) : body;
    }
    case 'iso-8859-1': {
       
      const safe = text.replace(/[^\x00-\xff]/gu, (char) => `&#${char.codePointAt(0)};`);
      return Buffer.from(safe, 'latin1');
    }
  }
}

// The XML writers splice like every patching writer (text-splice.ts).
export { applySplices, type TextSplice as Splice } from '../text-splice';

/** The line ending the file mostly uses ("\r\n" when its first line break is CRLF), for inserted lines. */
export function detectNewline(text: string): '\n' | '\r\n' {
  const first = text.indexOf('\n');
  return first > 0 && text[first - 1] === '\r' ? '\r\n' : '\n';
}
