// Helpers shared by the XML store formats: limits, duplicate handling, and small splicing utilities.

import { FormatLimitError, FormatParseError, type ParseLimits } from '../format';
import type { StoreParseOptions, StoreUnit } from '../store';
import type { Splice } from './xml-encoding';
import { escapeXmlAttribute } from './xml-escape';
import type { XmlElement } from './xml-tokenizer';

/** Checks limits as units are read and drops duplicates (formats.md §2.1; store.ts `onDuplicate`). */
export class UnitCollector {
  readonly units: StoreUnit[] = [];
  private readonly seen = new Map<string, StoreUnit>();
  private count = 0;
  private readonly limits: ParseLimits;

  constructor(
    private readonly options: StoreParseOptions,
    private readonly describe: (unit: StoreUnit) => string,
  ) {
    this.limits = options.limits ?? {};
  }

  /** The next 1-based position; duplicates use one up too (format.ts ParsedUnit.position). */
  nextPosition(): number {
    this.count += 1;
    if (this.limits.maxUnits !== undefined && this.count > this.limits.maxUnits) {
      throw new FormatLimitError('units', `the file has more than ${this.limits.maxUnits} strings`);
    }
    return this.count;
  }

  checkLength(text: string, line: number): void {
    const max = this.limits.maxStringLength;
    if (max !== undefined && text.length > max) {
      throw new FormatLimitError('string-length', `line ${line}: a string is longer than ${max} characters`);
    }
  }

  /** Adds `unit` unless `key` repeats an earlier unit's key. */
  add(unit: StoreUnit, key: string): void {
    if (this.limits.maxStringLength !== undefined) {
      this.checkLength(unit.context, unit.line);
      for (const text of unit.source) this.checkLength(text, unit.line);
      for (const text of unit.target) this.checkLength(text, unit.line);
    }
    const kept = this.seen.get(key);
    if (kept) {
      if (!this.options.onDuplicate) {
        throw new FormatParseError(`line ${unit.line}: duplicate ${this.describe(unit)} (first on line ${kept.line})`);
      }
      this.options.onDuplicate(unit, kept);
      return;
    }
    this.seen.set(key, unit);
    this.units.push(unit);
  }
}

/** Where an element's line starts: the offset after the newline before its indentation (or the element). */
export function lineStartBefore(source: string, element: Pick<XmlElement, 'start'>): number {
  let at = element.start;
  while (at > 0 && (source[at - 1] === ' ' || source[at - 1] === '\t')) at -= 1;
  return at;
}

/** The range to cut when removing `element`: its own line including the preceding line break. */
export function removalRange(source: string, element: Pick<XmlElement, 'start' | 'end'>): { start: number; end: number } {
  let start = lineStartBefore(source, element);
  if (start > 0 && source[start - 1] === '\n') {
    start -= 1;
    if (start > 0 && source[start - 1] === '\r') start -= 1;
  } else start = element.start;
  return { start, end: element.end };
}

/** The indentation (spaces/tabs) in front of `element` on its line, or null when other text precedes it. */
export function indentationOf(source: string, element: Pick<XmlElement, 'start'>): string | null {
  const from = lineStartBefore(source, element);
  if (from > 0 && source[from - 1] !== '\n') return null;
  return source.slice(from, element.start);
}

/** Plural forms padded with "" or cut to `count` (formats.md §2.3). */
export function fitForms(forms: readonly string[], count: number): string[] {
  return Array.from({ length: count }, (_, index) => forms[index] ?? '');
}

export interface ElementEdit {
  /** Attributes to set (added after the last attribute when missing). */
  attributes?: Readonly<Record<string, string>>;
  /** New raw content between the tags (a self-closing element is opened up). */
  content?: string;
}

/** Splices that set attributes and/or replace the content of `element`, leaving the rest of its bytes alone. */
export function editElement(element: XmlElement, edit: ElementEdit): Splice[] {
  const splices: Splice[] = [];
  let inserted = '';
  for (const [name, value] of Object.entries(edit.attributes ?? {})) {
    const existing = element.attributes.find((attribute) => attribute.name === name);
    if (!existing) inserted += ` ${name}="${escapeXmlAttribute(value)}"`;
    else if (existing.value !== value) {
      splices.push({ start: existing.valueStart, end: existing.valueEnd, text: escapeXmlAttribute(value, existing.quote) });
    }
  }
  const lastAttribute = element.attributes[element.attributes.length - 1];
  const afterAttributes = lastAttribute ? lastAttribute.end : element.start + 1 + element.name.length;
  if (edit.content !== undefined && element.selfClosing) {
    splices.push({ start: afterAttributes, end: element.end, text: `${inserted}>${edit.content}</${element.name}>` });
    return splices;
  }
  if (inserted) splices.push({ start: afterAttributes, end: afterAttributes, text: inserted });
  if (edit.content !== undefined) splices.push({ start: element.startTagEnd, end: element.endTagStart, text: edit.content });
  return splices;
}
