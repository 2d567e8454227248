// Writing a PO file back by patching its text (issue 11 item 3, formats.md §3.1 "Write-back"): only the
// entries whose target or state changed, the header fields Weblate updates on save, appended and removed
// entries differ from the original; everything else keeps its bytes, line ends and charset.

import { FormatWriteError, type ParseLimits } from '../format';
import type { StoreChanges, StoreWriteContext, UnitWrite } from '../store';
import { encodePo } from './po-charset';
import { editEntryLines, flagLine, isFuzzyState, renderMsgstr, targetForms } from './po-entry-edit';
import { headerText, parseHeaderFields, saveHeaderChanges, updateHeaderFields, type HeaderFields } from './po-header';
import { isUnitEntry, reparseEntry, type PoDocument, type PoEntry } from './po-parser';
import { contextOf, loadPo, sourceOf, unitKey, type LoadedPo, type PoFlavour } from './po-units';
import { assembleBytes, type ByteSplice } from './po-bytes';
import { scanPo, scanPoBytes, type EntryIdentity } from './po-scan';
import { cachedScan, indexRecorder, rememberWrite } from './po-write-cache';
import { renderPoString } from './po-wrap';

/** Replacement lines per entry index; null removes the entry. */
export type EntryReplacements = Map<number, string[] | null>;

/** The header entry with updated fields, or a new header's lines when the file has none. */
export function headerReplacement(
  loaded: LoadedPo,
  changes: (existing: HeaderFields) => Map<string, string>,
  dropFuzzy = false,
): { index: number; lines: string[] } | { index: -1; lines: string[] } {
  const { document, header } = loaded;
  if (!header) {
    const base: HeaderFields = [
      ['MIME-Version', '1.0'],
      ['Content-Type', 'text/plain; charset=UTF-8'],
      ['Content-Transfer-Encoding', '8bit'],
    ];
    const fields = updateHeaderFields(base, changes(base));
    return { index: -1, lines: ['msgid ""', ...renderPoString('msgstr', headerText(fields))] };
  }
  const existing = parseHeaderFields(header.msgstr[0]);
  const fields = updateHeaderFields(existing, changes(existing));
  const msgstr = renderPoString('msgstr', headerText(fields));
  const fuzzy = dropFuzzy ? false : header.flags.includes('fuzzy');
  const lines = editEntryLines(document, header, { target: header.msgstr, fuzzy }, msgstr) as string[];
  return { index: document.entries.indexOf(header), lines };
}

function noteLines(prefix: string, text: string | undefined): string[] {
  if (!text) return [];
  return text.split('\n').map((line) => (line ? `${prefix} ${line}` : prefix));
}

/** A new bilingual entry as translate-toolkit writes one (comments, msgctxt, msgid, msgstr). */
function newBilingualEntry(write: UnitWrite, pluralCount: number): string[] {
  const plural = write.source.length > 1;
  const target = targetForms(write.target, plural, pluralCount);
  const lines = noteLines('#.', write.note);
  for (const location of (write.location ?? '').split(/,\s*/).filter(Boolean)) lines.push(`#: ${location}`);
  const flags = (write.flags ?? '').split(/,\s*/).filter(Boolean);
  const flagText = flagLine(flags, isFuzzyState(write.state, target));
  if (flagText) lines.push(flagText);
  if (write.context) lines.push(...renderPoString('msgctxt', write.context));
  lines.push(...renderPoString('msgid', write.source[0] ?? ''));
  if (plural) lines.push(...renderPoString('msgid_plural', write.source[1]));
  lines.push(...renderMsgstr(target, plural));
  return lines;
}

/**
 * A new po-mono entry: a copy of the template's entry for that key without its notes (Weblate 5.x drops
 * them), or `msgid "<key>"` (+ `msgid_plural "<key>_plural"`) when the template has none (formats.md §3.1).
 */
function newMonolingualEntry(write: UnitWrite, template: LoadedPo | null, pluralCount: number): string[] {
  const entry = template?.document.entries.find(
    (candidate) => isUnitEntry(candidate) && contextOf(candidate, 'monolingual') === write.context,
  );
  const plural = entry ? entry.msgidPlural !== null : write.target.length > 1;
  const target = targetForms(write.target, plural, pluralCount);
  const fuzzy = isFuzzyState(write.state, target);
  if (!entry || !template) {
    const lines = fuzzy ? ['#, fuzzy'] : [];
    lines.push(...renderPoString('msgid', write.context));
    if (plural) lines.push(...renderPoString('msgid_plural', `${write.context}_plural`));
    return [...lines, ...renderMsgstr(target, plural)];
  }
  const lines: string[] = [];
  for (let index = entry.firstLine; index < entry.msgstrLine; index++) {
    const line = template.document.lineAt(index);
    if (index >= entry.keywordLine || line.trimStart().startsWith('#:')) lines.push(line);
  }
  const flagText = flagLine(entry.flags, fuzzy);
  const keywordAt = lines.findIndex((line) => /^\s*(msgctxt|msgid)/.test(line));
  if (flagText) lines.splice(keywordAt, 0, flagText);
  return [...lines, ...renderMsgstr(target, plural)];
}

function assemble(document: PoDocument, replacements: EntryReplacements, prefix: string[], appended: string[][]): string {
  const { text, lineStarts, entries, newline } = document;
  const out: string[] = [];
  if (prefix.length > 0) out.push(prefix.join(newline) + newline + (text.length > 0 ? newline : ''));
  let cursor = 0;
  for (let index = 0; index < entries.length; index++) {
    const replacement = replacements.get(index);
    if (replacement === undefined) continue;
    const entry = entries[index];
    const start = lineStarts[entry.firstLine];
    const end = lineStarts[entry.lastLine + 1];
    const next = index + 1 < entries.length ? lineStarts[entries[index + 1].firstLine] : text.length;
    if (replacement === null) {
      // Drop the entry with the blank lines after it; the last entry takes the blank lines before it.
      const previousEnd = index > 0 ? lineStarts[entries[index - 1].lastLine + 1] : cursor;
      out.push(text.slice(cursor, next === text.length ? Math.max(cursor, previousEnd) : start));
      cursor = next;
      continue;
    }
    out.push(text.slice(cursor, start));
    const endsWithNewline = end > start && text.charCodeAt(end - 1) === 10;
    out.push(replacement.join(newline) + (endsWithNewline ? newline : ''));
    cursor = end;
  }
  out.push(text.slice(cursor));
  let result = out.join('');
  for (const lines of appended) {
    if (result.length > 0 && !result.endsWith('\n')) result += newline;
    if (result.length > 0) result += newline;
    result += lines.join(newline) + newline;
  }
  return result;
}

/**
 * `current` with `changes` applied. With `limits`, `current` must be within them as `parse` would require
 * (write-back checks them here instead of parsing the file first); a file over them throws FormatLimitError.
 */
export function writePo(
  current: Buffer,
  changes: StoreChanges,
  context: StoreWriteContext,
  flavour: PoFlavour,
  limits?: ParseLimits,
  // false: the text path even for UTF-8 and ISO-8859-1 (the specs compare both paths byte for byte).
  { bytes = true }: { bytes?: boolean } = {},
): Buffer {
  const removals = changes.remove ?? [];
  const nothing = changes.update.length === 0 && (changes.add ?? []).length === 0 && removals.length === 0;
  if (nothing && !limits) return current;
  // Only entries whose msgid some change names can match (a po-mono key without msgid is its msgctxt), so
  // the full key is built for those alone: this keeps a one-edit write on a large file cheap.
  const named = new Set<string>();
  for (const change of [...changes.update, ...(changes.add ?? []), ...removals]) {
    named.add(flavour === 'bilingual' ? (change.source[0] ?? '') : change.context);
  }
  // Replacing and appending need only the named entries and the header: one scan finds them. Removing an
  // entry also needs its neighbours (assemble drops the blank lines around it), so that reads every entry.
  // UTF-8 and ISO-8859-1 files are scanned and patched as bytes (po-bytes.ts), other charsets as text.
  const wanted = ({ msgctxt, msgid }: EntryIdentity): boolean =>
    named.has(flavour === 'bilingual' ? msgid : msgid && msgctxt !== null ? `${msgctxt}.${msgid}` : msgid || (msgctxt ?? ''));
  // The table of the file the last write produced, when `current` is that output (po-write-cache.ts).
  const cached = removals.length > 0 || !bytes ? null : cachedScan(current, wanted, limits);
  const recorder = cached || removals.length > 0 || !bytes ? null : indexRecorder();
  const scanned = cached ?? (removals.length > 0 || !bytes ? null : scanPoBytes(current, wanted, limits, recorder?.record));
  const loaded = scanned ?? (removals.length > 0 ? loadPo(current, limits, true) : scanPo(current, wanted, limits));
  if (nothing) return current;
  const { document } = loaded;
  const index = new Map<string, number>();
  document.entries.forEach((entry, at) => {
    if (!isUnitEntry(entry)) return;
    const msgid = entry.msgid as string;
    if (flavour === 'bilingual' ? !named.has(msgid) : msgid !== '' && !named.has(msgid) && !entry.msgctxt) return;
    const key = unitKey(flavour, contextOf(entry, flavour), sourceOf(entry));
    if (!index.has(key)) index.set(key, at);
  });
  const replacements: EntryReplacements = new Map();
  const toAdd: UnitWrite[] = [];
  for (const write of changes.update) {
    const at = index.get(unitKey(flavour, write.context, write.source));
    if (at === undefined) {
      toAdd.push(write);
      continue;
    }
    const entry = reparseEntry(document, document.entries[at]);
    const target = targetForms(write.target, entry.msgidPlural !== null, context.plural.number);
    const lines = editEntryLines(document, entry, { target, fuzzy: isFuzzyState(write.state, target) });
    if (lines) replacements.set(at, lines);
  }
  for (const key of removals) {
    const at = index.get(unitKey(flavour, key.context, key.source));
    if (at !== undefined) replacements.set(at, null);
  }
  const template = flavour === 'monolingual' && context.template ? loadPo(context.template) : null;
  const appended: string[][] = [];
  for (const write of [...toAdd, ...(changes.add ?? [])]) {
    const key = unitKey(flavour, write.context, write.source);
    if (index.has(key)) throw new FormatWriteError(`Unit "${write.context}" is already in the file`);
    index.set(key, -1);
    appended.push(
      flavour === 'bilingual' ? newBilingualEntry(write, context.plural.number) : newMonolingualEntry(write, template, context.plural.number),
    );
  }
  const header = headerReplacement(loaded, (existing) => saveHeaderChanges(existing, context));
  if (header.index >= 0) replacements.set(header.index, header.lines);
  const prefix = header.index === -1 ? header.lines : [];
  if (scanned) {
    const splices: ByteSplice[] = [];
    const written = assembleBytes(scanned.bytes, document, replacements, prefix, appended, splices);
    const table = prefix.length > 0 || appended.length > 0 ? null : (cached?.index ?? recorder?.table() ?? null);
    rememberWrite(scanned.bytes, document, table, splices, limits);
    return written;
  }
  return encodePo(assemble(document, replacements, prefix, appended), loaded.encoding);
}

export { assemble as assemblePo };
export type { PoEntry };
