// The `po` converted download (formats.md §4): a whole PO file built from database units. Header as
// Weblate's PoExporter sets it (Project-Id-Version `<language> (<project>)`, Language-Team `<language>
// <url>`, Language, Plural-Forms, X-Generator) on translate-toolkit's default header; each unit gets its note
// as `#.` lines, one `#:` line per location, its flags (+ fuzzy for state 10) on a sorted `#,` line,
// msgctxt = context, msgid(+msgid_plural) = source and msgstr(/[n]) = target.

import type { ExportContext, Exporter, ExportUnit } from '../store';
import { flagLine, renderMsgstr, targetForms } from './po-entry-edit';
import { formatPluralForms, headerText, updateHeaderFields, type HeaderFields } from './po-header';
import { renderPoString } from './po-wrap';

const FUZZY_STATE = 10;

/** The header fields of an exported file (translate-toolkit's default header updated by Weblate). */
export function exportHeaderFields(context: ExportContext): HeaderFields {
  const defaults: HeaderFields = [
    ['Project-Id-Version', 'PACKAGE VERSION'],
    ['Report-Msgid-Bugs-To', ''],
    ['Last-Translator', 'Automatically generated'],
    ['Language-Team', 'none'],
    ['MIME-Version', '1.0'],
    ['Content-Type', 'text/plain; charset=UTF-8'],
    ['Content-Transfer-Encoding', '8bit'],
  ];
  const changes = new Map<string, string>([
    ['Language', context.languageCode],
    ['X-Generator', context.generator],
    ['Project-Id-Version', `${context.languageName} (${context.projectName})`],
    ['Plural-Forms', formatPluralForms(context.plural)],
    ['Language-Team', `${context.languageName} <${context.translationUrl}>`],
  ]);
  return updateHeaderFields(defaults, changes);
}

function exportEntry(unit: ExportUnit, context: ExportContext): string[] {
  const plural = unit.source.length > 1 || unit.target.length > 1;
  const target = targetForms(unit.target, plural, context.plural.number);
  const lines: string[] = [];
  if (unit.note) lines.push(...unit.note.split('\n').map((line) => (line ? `#. ${line}` : '#.')));
  for (const location of unit.location.split(/,\s*/).filter(Boolean)) lines.push(`#: ${location}`);
  const flags = unit.flags.split(/,\s*/).filter(Boolean);
  const flagText = flagLine(flags, unit.state === FUZZY_STATE);
  if (flagText) lines.push(flagText);
  if (unit.context) lines.push(...renderPoString('msgctxt', unit.context));
  lines.push(...renderPoString('msgid', unit.source[0] ?? ''));
  if (plural) lines.push(...renderPoString('msgid_plural', unit.source[1] ?? unit.source[0] ?? ''));
  lines.push(...renderMsgstr(target, plural));
  return lines;
}

export function exportPoText(units: readonly ExportUnit[], context: ExportContext): string {
  const blocks = [['msgid ""', ...renderPoString('msgstr', headerText(exportHeaderFields(context)))]];
  for (const unit of units) blocks.push(exportEntry(unit, context));
  return blocks.map((lines) => lines.join('\n')).join('\n\n') + '\n';
}

export const PO_EXPORTER: Exporter = {
  id: 'po',
  extension: 'po',
  contentType: 'text/x-po',
  accepts: () => true,
  export: (units, context) => Buffer.from(exportPoText(units, context), 'utf8'),
};
