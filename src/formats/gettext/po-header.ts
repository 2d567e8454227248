// The PO header (the msgstr of `msgid ""`): reading Plural-Forms and Language, and the update Weblate
// applies on every save (formats.md §3.1 "Header on save"): translate-toolkit's header update with add=True
// keeps known fields in gettext's standard order, then the file's other fields in their order, then new
// ones; the whole header msgstr is then re-quoted (and so re-wrapped).

import type { PluralDeclaration, StoreWriteContext } from '../store';

export type HeaderFields = [key: string, value: string][];

/** gettext's field order, which translate-toolkit keeps known fields in. */
const HEADER_ORDER = [
  'Project-Id-Version',
  'Report-Msgid-Bugs-To',
  'POT-Creation-Date',
  'PO-Revision-Date',
  'Last-Translator',
  'Language-Team',
  'Language',
  'MIME-Version',
  'Content-Type',
  'Content-Transfer-Encoding',
  'Plural-Forms',
  'X-Accelerator-Marker',
  'X-Generator',
  'X-Merge-On',
];

/** Header text to fields, as translate-toolkit's parseheader: `Key: value` lines, both sides trimmed. */
export function parseHeaderFields(header: string): HeaderFields {
  const fields: HeaderFields = [];
  for (const line of header.split('\n')) {
    const colon = line.indexOf(':');
    if (colon === -1) continue;
    const key = line.slice(0, colon).trim();
    const value = line.slice(colon + 1).trim();
    const existing = fields.findIndex(([name]) => name === key);
    if (existing === -1) fields.push([key, value]);
    else fields[existing] = [key, value];
  }
  return fields;
}

export function headerField(fields: HeaderFields, key: string): string | undefined {
  return fields.find(([name]) => name === key)?.[1];
}

/** `nplurals=3; plural=(n==1) ? 0 : …;` -> declaration; undefined when absent or the template's placeholder. */
export function parsePluralForms(value: string | undefined): PluralDeclaration | undefined {
  if (!value) return undefined;
  const number = /nplurals\s*=\s*(\d+)/.exec(value);
  const formula = /(?:^|[\s;])plural\s*=\s*([^;]*)/.exec(value);
  if (!number || !formula) return undefined;
  return { number: Number(number[1]), formula: formula[1].trim() };
}

export function formatPluralForms(plural: PluralDeclaration): string {
  return `nplurals=${plural.number}; plural=${plural.formula};`;
}

/** `YYYY-MM-DD HH:MM+0000`, Python's `%Y-%m-%d %H:%M%z` for a UTC time. */
export function formatRevisionDate(date: Date): string {
  const two = (value: number): string => String(value).padStart(2, '0');
  return (
    `${date.getUTCFullYear()}-${two(date.getUTCMonth() + 1)}-${two(date.getUTCDate())} ` +
    `${two(date.getUTCHours())}:${two(date.getUTCMinutes())}+0000`
  );
}

/** translate-toolkit's header `update(existing, add=True, **changes)`. */
export function updateHeaderFields(existing: HeaderFields, changes: ReadonlyMap<string, string>): HeaderFields {
  const pending = new Map(changes);
  const result: HeaderFields = [];
  const placed = new Set<string>();
  for (const key of HEADER_ORDER) {
    const current = headerField(existing, key);
    if (current !== undefined || pending.has(key)) {
      result.push([key, pending.get(key) ?? (current as string)]);
      pending.delete(key);
      placed.add(key);
    }
  }
  for (const [key, value] of existing) {
    if (placed.has(key)) continue;
    result.push([key, pending.get(key) ?? value]);
    pending.delete(key);
  }
  for (const [key, value] of pending) result.push([key, value]);
  return result;
}

export function headerText(fields: HeaderFields): string {
  return fields.map(([key, value]) => `${key}: ${value}\n`).join('');
}

/** The fields Weblate sets on every commit (formats.md §3.1), plus the Content-Type repair. */
export function saveHeaderChanges(existing: HeaderFields, context: StoreWriteContext): Map<string, string> {
  const changes = new Map<string, string>();
  if (context.revisionDate) changes.set('PO-Revision-Date', formatRevisionDate(context.revisionDate));
  if (context.lastTranslator) changes.set('Last-Translator', context.lastTranslator);
  if (context.languageTeam) changes.set('Language-Team', context.languageTeam);
  if (context.reportMsgidBugsTo) changes.set('Report-Msgid-Bugs-To', context.reportMsgidBugsTo);
  changes.set('Language', context.languageCode);
  changes.set('Plural-Forms', formatPluralForms(context.plural));
  if (context.generator) changes.set('X-Generator', context.generator);
  const contentType = headerField(existing, 'Content-Type');
  if (contentType === undefined || /charset=(CHARSET|ASCII)\b/.test(contentType)) {
    changes.set('Content-Type', 'text/plain; charset=UTF-8');
  }
  return changes;
}
