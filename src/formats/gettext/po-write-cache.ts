// The entry table of the file the last write produced, so that the next write of the same file does not scan
// its 6 MB again (issue 11: one edit written back to a 50,000-entry file in < 200 ms; docs/performance.md "One
// edit written back: fewer git processes and a remembered entry table"). A write scans the whole file to find
// the entries a change names (po-scan.ts): in the parse worker that scan was most of the 74 ms of a one-edit
// write. The next commit of the same translation reads back exactly the bytes the previous write produced,
// so the table of that output (line starts, and every live entry's msgctxt, msgid and lines) is derived from
// the input's table and the entries the write replaced, and used when the next input is byte for byte that
// output.
//
// Safety: the cache is only used when every byte of the new input equals the remembered output (compared in
// full, about a millisecond for 6 MB: a file changed on disk by a pull, a reset or by hand is simply scanned
// again) and the limits are the same; each replaced entry is scanned on its own, with the limits, and must
// read back as one entry with the same msgctxt and msgid, else nothing is remembered. Only writes that
// replace entries in place are remembered (no new header, no appended entries). It is off unless the caller
// owns its input buffers for good (the parse worker turns it on): the remembered output shares the input's
// memory instead of copying it.

import type { ParseLimits } from '../format';
import { UTF8_BOM } from '../format';
import type { PoEncoding } from './po-charset';
import { byteLineGetter, poBytesOf, type ByteSplice, type PoBytes } from './po-bytes';
import { findHeader, lineStartsOf, parseEntryAt, type PoDocument, type PoEntry } from './po-parser';
import { scanPoDocument, type EntryIdentity } from './po-scan';
import type { LoadedPo } from './po-units';

/** The entry table of one file body (what a full scan records): live entry i is on lines first[i]..last[i]. */
export interface PoIndex {
  lineStarts: Int32Array;
  first: Int32Array;
  last: Int32Array;
  msgctxt: (string | null)[];
  msgid: string[];
  newline: string;
  encoding: PoEncoding;
  limits: string;
}

type EntryTable = Pick<PoIndex, 'first' | 'last' | 'msgctxt' | 'msgid'>;

let enabled = false;
let remembered: { chunks: Buffer[]; length: number; index: PoIndex } | null = null;
let hits = 0;

/** How many writes used the remembered table since the cache was turned on (for tests and profiles). */
export function poWriteCacheHits(): number {
  return hits;
}

/** Turns the cache on or off (and forgets what it held). */
export function usePoWriteCache(on: boolean): void {
  enabled = on;
  remembered = null;
  hits = 0;
}

const limitsKey = (limits: ParseLimits | undefined): string => `${limits?.maxUnits ?? ''}/${limits?.maxStringLength ?? ''}`;

/** A recorder for scanPoDocument when the cache is on: collects the table of the file being scanned. */
export function indexRecorder(): { record: (identity: EntryIdentity, first: number, last: number) => void; table: () => EntryTable } | null {
  if (!enabled) return null;
  const first: number[] = [];
  const last: number[] = [];
  const msgctxt: (string | null)[] = [];
  const msgid: string[] = [];
  return {
    record: (identity, from, to) => {
      first.push(from);
      last.push(to);
      msgctxt.push(identity.msgctxt);
      msgid.push(identity.msgid);
    },
    table: () => ({ first: Int32Array.from(first), last: Int32Array.from(last), msgctxt, msgid }),
  };
}

/** scanPoBytes's answer from the remembered table, or null when `content` is not the remembered output. */
export function cachedScan(content: Buffer, wanted: (identity: EntryIdentity) => boolean, limits: ParseLimits | undefined): (LoadedPo & { bytes: PoBytes; index: PoIndex }) | null {
  if (!enabled || !remembered) return null;
  const { chunks, length, index } = remembered;
  if (length !== content.length || index.limits !== limitsKey(limits)) return null;
  let offset = 0;
  for (const chunk of chunks) {
    if (!content.subarray(offset, offset + chunk.length).equals(chunk)) return null;
    offset += chunk.length;
  }
  hits += 1;
  const bytes = poBytesOf(index.encoding.bom ? content.subarray(UTF8_BOM.length) : content, index.encoding);
  const lineAt = byteLineGetter(bytes, index.lineStarts);
  // As scanPoDocument: the first live entry (the header, when there is one) and the wanted ones, fully parsed.
  const entries: PoEntry[] = [];
  const identity: EntryIdentity = { msgctxt: null, msgid: '' };
  for (let at = 0; at < index.msgid.length; at++) {
    identity.msgctxt = index.msgctxt[at];
    identity.msgid = index.msgid[at];
    if (at !== 0 && !wanted(identity)) continue;
    const entry = parseEntryAt(lineAt, index.first[at], index.last[at]);
    if (entry) entries.push(entry);
  }
  const document: PoDocument = { text: bytes.image, lineAt, lineStarts: index.lineStarts, entries, newline: index.newline };
  return { document, encoding: index.encoding, header: findHeader(entries), bytes, index };
}

/**
 * Remembers the table of the output of a write that replaced `splices` (in file order) in `input`, whose
 * table is `table` (from indexRecorder or cachedScan). Forgets everything when the output cannot be
 * described that way.
 */
export function rememberWrite(input: PoBytes, document: PoDocument, table: EntryTable | null, splices: ByteSplice[], limits: ParseLimits | undefined): void {
  remembered = null;
  if (!enabled || table === null) return;
  const old = document.lineStarts;
  // First each splice: the entry it replaced (same lines), and how its new bytes read (one entry, same identity).
  const plans: Array<{ splice: ByteSplice; entry: number; lines: number; starts: Int32Array }> = [];
  let entry = 0;
  for (const splice of splices) {
    while (entry < table.first.length && table.last[entry] < splice.firstLine) entry++;
    if (entry === table.first.length || table.first[entry] !== splice.firstLine || table.last[entry] !== splice.lastLine) return;
    const check = entryOf(splice.bytes, input.encoding, limits);
    if (!check || check.msgid !== table.msgid[entry] || check.msgctxt !== table.msgctxt[entry]) return;
    plans.push({ splice, entry, lines: check.lines, starts: check.lineStarts });
    entry++;
  }
  const lineDelta = plans.reduce((sum, plan) => sum + plan.lines - (plan.splice.lastLine + 1 - plan.splice.firstLine), 0);
  const starts = new Int32Array(old.length + lineDelta);
  const first = table.first.slice();
  const last = table.last.slice();
  const chunks: Buffer[] = input.encoding.bom ? [UTF8_BOM] : [];
  let line = 0; // next old line to copy
  let out = 0; // next new line to fill
  let nextEntry = 0; // next entry to shift
  let byteShift = 0;
  let lineShift = 0;
  let cursor = 0;
  for (const { splice, entry: replaced, lines, starts: chunkStarts } of plans) {
    for (; line < splice.firstLine; line++) starts[out++] = old[line] + byteShift;
    for (; nextEntry < replaced; nextEntry++) {
      first[nextEntry] += lineShift;
      last[nextEntry] += lineShift;
    }
    const start = old[splice.firstLine] + byteShift;
    for (let at = 0; at < lines; at++) starts[out++] = start + chunkStarts[at];
    first[replaced] = splice.firstLine + lineShift;
    last[replaced] = first[replaced] + lines - 1;
    nextEntry = replaced + 1;
    chunks.push(input.body.subarray(cursor, old[splice.firstLine]), splice.bytes);
    cursor = old[splice.lastLine + 1];
    byteShift += splice.bytes.length - (old[splice.lastLine + 1] - old[splice.firstLine]);
    lineShift += lines - (splice.lastLine + 1 - splice.firstLine);
    line = splice.lastLine + 1;
  }
  for (; line < old.length; line++) starts[out++] = old[line] + byteShift;
  for (; nextEntry < first.length; nextEntry++) {
    first[nextEntry] += lineShift;
    last[nextEntry] += lineShift;
  }
  chunks.push(input.body.subarray(cursor));
  const length = chunks.reduce((sum, chunk) => sum + chunk.length, 0);
  remembered = {
    chunks: chunks.filter((chunk) => chunk.length > 0),
    length,
    index: { lineStarts: starts, first, last, msgctxt: table.msgctxt, msgid: table.msgid, newline: document.newline, encoding: input.encoding, limits: limitsKey(limits) },
  };
}

/** The one live entry `bytes` hold, read as a scan reads it (within the limits), or null. */
function entryOf(bytes: Buffer, encoding: PoEncoding, limits: ParseLimits | undefined): (EntryIdentity & { lines: number; lineStarts: Int32Array }) | null {
  try {
    const chunk = poBytesOf(bytes, encoding);
    const found: Array<EntryIdentity & { first: number; last: number }> = [];
    const lineStarts = lineStartsOf(chunk.image);
    scanPoDocument(chunk.image, () => false, limits, (starts) => byteLineGetter(chunk, starts), (identity, first, last) =>
      found.push({ ...identity, first, last }),
    );
    const lines = lineStarts.length - 1;
    if (found.length !== 1 || found[0].first !== 0 || found[0].last !== lines - 1) return null;
    return { msgctxt: found[0].msgctxt, msgid: found[0].msgid, lines, lineStarts };
  } catch {
    return null;
  }
}
