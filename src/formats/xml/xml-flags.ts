// Weblate flags carried by attributes of an XML unit element (formats.md §2.6), shared by every XML format
// (XLIFF <trans-unit>, Android <string>/<plurals>, RESX <data>, TS <message>).

import { getAttribute, type XmlElement } from './xml-tokenizer';

/** Splits a Weblate flags text on commas outside double quotes; keeps each flag's text trimmed. */
export function splitFlags(text: string): string[] {
  const flags: string[] = [];
  let current = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i];
    if (char === '\\' && quoted && i + 1 < text.length) {
      current += char + text[i + 1];
      i += 1;
    } else if (char === '"') {
      quoted = !quoted;
      current += char;
    } else if (char === ',' && !quoted) {
      flags.push(current.trim());
      current = '';
    } else current += char;
  }
  flags.push(current.trim());
  return flags.filter((flag) => flag !== '');
}

function flagName(flag: string): string {
  const colon = flag.indexOf(':');
  return colon === -1 ? flag : flag.slice(0, colon);
}

/**
 * Merges flag texts the way Weblate's Flags object does: one entry per flag name (the later one wins), sorted,
 * joined with ", ".
 */
export function mergeFlags(...texts: string[]): string {
  const byName = new Map<string, string>();
  for (const text of texts) for (const flag of splitFlags(text)) byName.set(flagName(flag), flag);
  return [...byName.values()].sort().join(', ');
}

const FLAG_ATTRIBUTES = new Set(['weblate-flags', 'maxwidth', 'font']);

/**
 * Flags from `weblate-flags`, `maxwidth` + `size-unit` and `font` (formats.md §2.6, Weblate 5.x):
 * `char`/`byte` units give `max-length:N`, `pixel`/`point`/none give `max-size:N`.
 */
export function flagsFromAttributes(element: XmlElement): string {
  if (!element.attributes.some((attribute) => FLAG_ATTRIBUTES.has(attribute.name))) return '';
  const derived: string[] = [];
  const maxWidth = getAttribute(element, 'maxwidth');
  if (maxWidth !== undefined && /^\d+$/.test(maxWidth.trim())) {
    const unit = getAttribute(element, 'size-unit') ?? '';
    derived.push(`${unit === 'char' || unit === 'byte' ? 'max-length' : 'max-size'}:${maxWidth.trim()}`);
  }
  const font = getAttribute(element, 'font');
  if (font !== undefined) {
    const [family, size, weight] = font.split(';').map((part) => part.trim());
    if (family) derived.push(`font-family:${family.replace(/ /g, '_')}`);
    if (size) derived.push(`font-size:${size}`);
    if (weight) derived.push(`font-weight:${weight}`);
  }
  return mergeFlags(getAttribute(element, 'weblate-flags') ?? '', derived.join(', '));
}

/** True when a flags text holds the `read-only` flag. */
export function hasReadOnlyFlag(flags: string): boolean {
  return splitFlags(flags).includes('read-only');
}
