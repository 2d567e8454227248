// Line edits of one PO entry, mirroring what translate-toolkit changes when Weblate saves a unit
// (formats.md §3.1 "States", "Wrapping"): the msgstr is re-quoted (and re-wrapped at 77 columns) when its
// text changes; the `#,` line is rewritten sorted when fuzzy is added or removed (all `#,` lines merge into
// one, as settypecomment does); `#|` lines go when the unit stops being fuzzy. Every other line of the
// entry keeps its bytes.

import type { UnitFileState } from '../store';
import type { PoDocument, PoEntry } from './po-parser';
import { renderPoString } from './po-wrap';

export interface EntryEdit {
  /** Target forms as they should end up in the file. */
  target: readonly string[];
  fuzzy: boolean;
}

/** Target forms for an entry: plural entries get exactly `pluralCount` forms, others one (Weblate pads/cuts). */
export function targetForms(target: readonly string[], plural: boolean, pluralCount: number): string[] {
  if (!plural) return [target[0] ?? ''];
  const forms: string[] = [];
  for (let i = 0; i < Math.max(1, pluralCount); i++) forms.push(target[i] ?? '');
  return forms;
}

export function isFuzzyState(state: UnitFileState, target: readonly string[]): boolean {
  return state === 'fuzzy' && target.some((form) => form !== '');
}

export function renderMsgstr(forms: readonly string[], plural: boolean): string[] {
  if (!plural) return renderPoString('msgstr', forms[0] ?? '');
  return forms.flatMap((form, index) => renderPoString(`msgstr[${index}]`, form));
}

/** translate-toolkit's settypecomment: flag words with fuzzy added/removed, sorted; null when none remain. */
export function flagLine(flags: readonly string[], fuzzy: boolean): string | null {
  const words = [...flags];
  const at = words.indexOf('fuzzy');
  if (fuzzy && at === -1) words.push('fuzzy');
  if (!fuzzy && at !== -1) words.splice(at, 1);
  if (words.length === 0) return null;
  return `#, ${words.sort().join(', ')}`;
}

function sameForms(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((form, index) => form === b[index]);
}

/**
 * The entry's new lines (without line ends), or null when the edit changes nothing. `msgstrLines` replaces the
 * msgstr part when given (used for the header), otherwise it is rendered from `edit.target` if that changed.
 */
export function editEntryLines(document: PoDocument, entry: PoEntry, edit: EntryEdit, msgstrLines?: string[]): string[] | null {
  const plural = entry.msgidPlural !== null;
  const wasFuzzy = entry.flags.includes('fuzzy');
  const newMsgstr = msgstrLines ?? (sameForms(edit.target, entry.msgstr) ? null : renderMsgstr(edit.target, plural));
  const flagsChange = wasFuzzy !== edit.fuzzy;
  const dropPrevious = !edit.fuzzy && entry.previousLines.length > 0;
  if (!newMsgstr && !flagsChange && !dropPrevious) return null;

  const newFlagLine = flagsChange ? flagLine(entry.flags, edit.fuzzy) : null;
  const flagLines = new Set(entry.flagLines);
  const previousLines = new Set(entry.previousLines);
  // Without a `#,` line, a new one goes where translate-toolkit writes it: after the other comments,
  // before `#|` and the keywords.
  const insertFlagsAt =
    flagsChange && entry.flagLines.length === 0
      ? Math.min(...[entry.keywordLine, ...entry.previousLines].filter((line) => line >= 0))
      : -1;
  const lines: string[] = [];
  let flagsWritten = false;
  for (let index = entry.firstLine; index <= entry.lastLine; index++) {
    if (index === insertFlagsAt && newFlagLine) lines.push(newFlagLine);
    if (newMsgstr && index >= entry.msgstrLine) {
      if (index === entry.msgstrLine) lines.push(...newMsgstr);
      continue;
    }
    if (flagLines.has(index) && flagsChange) {
      if (!flagsWritten && newFlagLine) lines.push(newFlagLine);
      flagsWritten = true;
      continue;
    }
    if (previousLines.has(index) && dropPrevious) continue;
    lines.push(document.lineAt(index));
  }
  return lines;
}
