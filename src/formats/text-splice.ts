import { FormatWriteError } from './format';

/** Replace `text[start, end)` by `text`; an insertion has start === end. */
export interface TextSplice {
  start: number;
  end: number;
  text: string;
}

/**
 * Applies non-overlapping splices in one pass, O(text + splices log splices): how every patching writer
 * changes only the entries it must (issue 11 item 3). The sort is stable, so insertions at one offset keep
 * the order they were given in (several keys appended to one parent stay in request order). Overlapping
 * splices are a writer bug, reported as FormatWriteError with `overlapMessage`.
 */
export function applySplices(text: string, splices: readonly TextSplice[], overlapMessage = 'overlapping edits'): string {
  if (splices.length === 0) return text;
  const ordered = [...splices].sort((a, b) => a.start - b.start || a.end - b.end);
  const parts: string[] = [];
  let cursor = 0;
  for (const splice of ordered) {
    if (splice.start < cursor) throw new FormatWriteError(`${overlapMessage} at offset ${splice.start}`);
    parts.push(text.slice(cursor, splice.start), splice.text);
    cursor = splice.end;
  }
  parts.push(text.slice(cursor));
  return parts.join('');
}
