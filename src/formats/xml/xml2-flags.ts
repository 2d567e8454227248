// Weblate flags read from the attributes of an XML unit element (formats.md §2.6): TS `<message>` and RESX
// `<data>` carry `maxwidth` (+ `size-unit`), `font` and `weblate-flags`. Stored sorted and ", "-joined.

import { getAttribute, type XmlElement } from './xml-tokenizer';

/** Splits a flags text on commas that are not inside double quotes. */
function splitFlags(text: string): string[] {
  const out: string[] = [];
  let current = '';
  let quoted = false;
  for (let at = 0; at < text.length; at += 1) {
    const char = text[at];
    if (char === '\\' && quoted && at + 1 < text.length) {
      current += char + text[at + 1];
      at += 1;
      continue;
    }
    if (char === '"') quoted = !quoted;
    if (char === ',' && !quoted) {
      out.push(current);
      current = '';
    } else current += char;
  }
  out.push(current);
  return out.map((flag) => flag.trim()).filter((flag) => flag !== '');
}

function flagName(flag: string): string {
  const colon = flag.indexOf(':');
  return colon === -1 ? flag : flag.slice(0, colon);
}

/** The unit's flags text, "" when the element carries none. */
export function flagsFromAttributes(element: XmlElement): string {
  const flags = new Map<string, string>();
  const maxwidth = getAttribute(element, 'maxwidth');
  if (maxwidth) {
    // [5.x] pixel, point or no unit is a rendered size; char and byte a length.
    const unit = getAttribute(element, 'size-unit');
    const name = unit === undefined || unit === 'pixel' || unit === 'point' ? 'max-size' : 'max-length';
    flags.set(name, `${name}:${maxwidth}`);
  }
  const font = getAttribute(element, 'font');
  if (font) {
    const [family, size, weight] = font.split(';').map((part) => part.trim());
    flags.set('font-family', `font-family:${family.replace(/ /g, '_')}`);
    if (size !== undefined) flags.set('font-size', `font-size:${size}`);
    if (weight !== undefined) flags.set('font-weight', `font-weight:${weight}`);
  }
  const text = getAttribute(element, 'weblate-flags');
  if (text) for (const flag of splitFlags(text)) flags.set(flagName(flag), flag);
  return [...flags.values()].sort().join(', ');
}
