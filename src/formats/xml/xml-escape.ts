// Escaping for text that XML writers put into a document. Matches what libxml2/lxml (and so Weblate via
// translate-toolkit) write: `&`, `<`, `>` in text; additionally `"` and literal tab/LF/CR as character
// references in attributes, so that attribute-value normalisation (XML 1.0 §3.3.3) gives the value back.

import { FormatWriteError } from '../format';

// XML 1.0 §2.2 Char; anything else cannot be written into an XML 1.0 document at all.
 
const NOT_XML_CHAR = /[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]/;

/** Throws FormatWriteError when `text` holds a character XML 1.0 cannot represent (lxml refuses them too). */
export function assertXmlChars(text: string): void {
  const bad = NOT_XML_CHAR.exec(text);
  if (bad) {
    throw new FormatWriteError(
      `character U+${bad[0].charCodeAt(0).toString(16).padStart(4, '0')} cannot be written to an XML file`,
    );
  }
}

/** Escapes character data for use between tags: `&`, `<`, `>` and CR (which a reader would drop). */
export function escapeXmlText(text: string): string {
  assertXmlChars(text);
  if (!/[&<>\r]/.test(text)) return text;
  return text.replace(/[&<>\r]/g, (char) => TEXT_ESCAPES[char]);
}

/** Escapes a value for an attribute quoted with `quote` (default `"`). */
export function escapeXmlAttribute(text: string, quote: '"' | "'" = '"'): string {
  assertXmlChars(text);
  return text.replace(/[&<>"'\t\n\r]/g, (char) => {
    if (char === "'" && quote === '"') return char;
    if (char === '"' && quote === "'") return char;
    return ATTRIBUTE_ESCAPES[char];
  });
}

/** Text for inside a comment: "--" cannot appear there, and a trailing "-" would merge with "-->". */
export function escapeXmlComment(text: string): string {
  assertXmlChars(text);
  let out = text.replace(/--/g, '- -');
  if (out.endsWith('-')) out += ' ';
  return out;
}

const TEXT_ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '\r': '&#13;' };

const ATTRIBUTE_ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
  '\t': '&#9;',
  '\n': '&#10;',
  '\r': '&#13;',
};
