// Shared by the YAML, PHP and Fluent formats: a file is written back by replacing byte ranges of the decoded
// text (issue 11 item 3), never by re-serialising it, so everything outside the edited ranges is unchanged.

import { FormatLimitError, FormatParseError, UTF8_BOM, decodeUtf8Text, hasUtf8Bom, type ParseLimits } from '../format';
import type { StoreUnit } from '../store';
import { applySplices, type TextSplice } from '../text-splice';

/** Replace `[start, end)` of the text with `text`; an insertion has start === end. */
/** A replacement of `text[start, end)`; see applySplices. */
export type TextPatch = TextSplice;

export function applyPatches(text: string, patches: readonly TextPatch[]): string {
  return applySplices(text, patches, 'overlapping patches');
}

/** A UTF-8 file as text plus what must be restored on write (BOM, line ending style). */
export interface DecodedText {
  text: string;
  bom: boolean;
  eol: '\n' | '\r\n';
}

export function decodeText(content: Buffer): DecodedText {
  const text = decodeUtf8Text(content);
  return { text, bom: hasUtf8Bom(content), eol: text.includes('\r\n') ? '\r\n' : '\n' };
}

export function encodeText(decoded: DecodedText, text: string): Buffer {
  const body = Buffer.from(text, 'utf8');
  return decoded.bom ? Buffer.concat([UTF8_BOM, body]) : body;
}

/** 1-based line numbers of offsets, by binary search over line starts (linear setup, log lookups). */
export class LineIndex {
  private readonly starts: number[] = [0];

  constructor(text: string) {
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) this.starts.push(i + 1);
  }

  line(offset: number): number {
    let low = 0;
    let high = this.starts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (this.starts[mid] <= offset) low = mid;
      else high = mid - 1;
    }
    return low + 1;
  }

  /** Offset where the line holding `offset` starts. */
  lineStart(offset: number): number {
    return this.starts[this.line(offset) - 1];
  }
}

/** A monolingual key/value unit with every other field at its "the file says nothing" value. */
export function monolingualUnit(context: string, target: string[], position: number, line: number, note = ''): StoreUnit {
  return {
    context,
    source: [],
    target,
    plural: target.length > 1,
    note,
    location: '',
    flags: '',
    previousSource: '',
    fuzzy: false,
    approved: false,
    readOnly: false,
    position,
    line,
  };
}

/**
 * Collects units in file order while enforcing the parse limits and Weblate's duplicate rule (the first
 * unit of a context is kept; formats.md §2.1). Shared by every format in these directories.
 */
export class UnitCollector {
  readonly units: StoreUnit[] = [];
  private readonly byContext = new Map<string, StoreUnit>();
  private seen = 0;

  constructor(
    private readonly limits: ParseLimits | undefined,
    private readonly onDuplicate: ((duplicate: StoreUnit, kept: StoreUnit) => void) | undefined,
  ) {}

  /** Throws FormatLimitError when one string is longer than maxStringLength. */
  checkString(value: string, line: number): void {
    const max = this.limits?.maxStringLength;
    if (max !== undefined && value.length > max) {
      throw new FormatLimitError('string-length', `line ${line}: a string is longer than ${max} characters`);
    }
  }

  add(context: string, target: string[], line: number, note = ''): void {
    this.seen += 1;
    const maxUnits = this.limits?.maxUnits;
    if (maxUnits !== undefined && this.seen > maxUnits) {
      throw new FormatLimitError('units', `line ${line}: the file has more than ${maxUnits} strings`);
    }
    this.checkString(context, line);
    for (const form of target) this.checkString(form, line);
    const unit = monolingualUnit(context, target, this.seen, line, note);
    const kept = this.byContext.get(context);
    if (kept) {
      if (!this.onDuplicate) {
        throw new FormatParseError(`line ${line}: duplicate string "${context}" (first on line ${kept.line})`);
      }
      this.onDuplicate(unit, kept);
      return;
    }
    this.byContext.set(context, unit);
    this.units.push(unit);
  }
}
