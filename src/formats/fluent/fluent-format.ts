// `fluent` (formats.md §3.17): parsed with @fluent/syntax (Project Fluent's own parser, with spans); a write
// replaces only the changed value or attribute pattern inside its entry's span, checked by re-parsing it.

import { Message, Term } from '@fluent/syntax';
import { FormatWriteError } from '../format';
import type { FileFormat, ParsedStore, StoreChanges, StoreParseOptions, UnitWrite } from '../store';
import { applyPatches, decodeText, encodeText, LineIndex, UnitCollector, type TextPatch } from '../yaml/text-patch';
import { fluentUnits, parseFluent, type FluentEntryUnit } from './fluent-units';

function parse(content: Buffer, options: StoreParseOptions = {}): ParsedStore {
  const { text } = decodeText(content);
  const lines = new LineIndex(text);
  const collector = new UnitCollector(options.limits, options.onDuplicate);
  for (const unit of fluentUnits(parseFluent(text, lines), lines, text)) collector.add(unit.context, [unit.text], unit.line, unit.note);
  return { units: collector.units };
}

/**
 * The source of `= <text>` for a new value: a text that starts on its own line (Weblate's multi-line form)
 * is kept as written; otherwise continuation lines are indented so they stay part of the pattern.
 */
function valueSource(value: string, indent: string, eol: string): string {
  const body = value.startsWith('\n') ? value : ` ${value.split('\n').join(`\n${indent}`)}`;
  return body.replace(/\n/g, eol);
}

/** Re-parses `x =<source>` and refuses a text that is not exactly one valid pattern (Weblate rejects it too). */
function checkedValueSource(context: string, value: string, indent: string, eol: string): string {
  const source = valueSource(value, indent, eol);
  const probe = `x =${source}\n`;
  const lines = new LineIndex(probe);
  let units: FluentEntryUnit[];
  try {
    units = fluentUnits(parseFluent(probe, lines), lines);
  } catch (error) {
    throw new FormatWriteError(`"${context}": not a valid Fluent pattern (${(error as Error).message})`);
  }
  if (units.length !== 1 || units[0].attribute) throw new FormatWriteError(`"${context}": the text must be one Fluent pattern`);
  return source;
}

interface WriteState {
  text: string;
  eol: string;
  patches: TextPatch[];
  /** New entries to append at the end, by message id: value and attributes. */
  appended: Map<string, { term: boolean; value?: string; attributes: [string, string][] }>;
  /** New attributes of existing entries. */
  newAttributes: Map<Message | Term, [string, string][]>;
}

/** Offset just after the `=` that follows an identifier. */
function equalsEnd(text: string, from: number): number {
  const at = text.indexOf('=', from);
  if (at === -1) throw new FormatWriteError('malformed entry');
  return at + 1;
}

function lineStart(text: string, offset: number): number {
  return text.lastIndexOf('\n', offset - 1) + 1;
}

function afterLine(text: string, offset: number): number {
  const lineEnd = text.indexOf('\n', offset);
  return lineEnd === -1 ? text.length : lineEnd + 1;
}

function removeUnit(state: WriteState, unit: FluentEntryUnit): void {
  const { entry, attribute } = unit;
  if (attribute) {
    state.patches.push({ start: lineStart(state.text, attribute.span?.start ?? 0), end: afterLine(state.text, attribute.span?.end ?? 0), text: '' });
    return;
  }
  if (entry instanceof Message && entry.attributes.length > 0) {
    // The attributes stay; a message may consist of attributes only.
    const start = equalsEnd(state.text, entry.id.span?.end ?? 0);
    state.patches.push({ start, end: entry.value?.span?.end ?? start, text: '' });
    return;
  }
  state.patches.push({ start: entry.span?.start ?? 0, end: afterLine(state.text, entry.span?.end ?? 0), text: '' });
}

function replaceUnit(state: WriteState, unit: FluentEntryUnit, value: string): void {
  const { entry, attribute } = unit;
  if (attribute) {
    const start = equalsEnd(state.text, attribute.id.span?.end ?? 0);
    state.patches.push({ start, end: attribute.value.span?.end ?? start, text: checkedValueSource(unit.context, value, '        ', state.eol) });
    return;
  }
  const start = equalsEnd(state.text, entry.id.span?.end ?? 0);
  state.patches.push({ start, end: entry.value?.span?.end ?? start, text: checkedValueSource(unit.context, value, '    ', state.eol) });
}

function splitContext(context: string): { id: string; attribute?: string } {
  const dot = context.indexOf('.');
  return dot === -1 ? { id: context } : { id: context.slice(0, dot), attribute: context.slice(dot + 1) };
}

function queueAdd(state: WriteState, unit: UnitWrite, value: string, entries: Map<string, Message | Term>, templateTerms: Set<string>): void {
  const { id, attribute } = splitContext(unit.context);
  if (!/^[a-zA-Z][a-zA-Z0-9_-]*$/.test(id) || (attribute !== undefined && !/^[a-zA-Z][a-zA-Z0-9_-]*$/.test(attribute))) {
    throw new FormatWriteError(`"${unit.context}" is not a Fluent identifier`);
  }
  const existing = entries.get(id);
  if (existing) {
    if (attribute === undefined) {
      // An attributes-only message gains a value.
      const start = equalsEnd(state.text, existing.id.span?.end ?? 0);
      state.patches.push({ start, end: start, text: checkedValueSource(unit.context, value, '    ', state.eol) });
      return;
    }
    const list = state.newAttributes.get(existing) ?? [];
    list.push([attribute, checkedValueSource(unit.context, value, '        ', state.eol)]);
    state.newAttributes.set(existing, list);
    return;
  }
  const pending = state.appended.get(id) ?? { term: templateTerms.has(id), attributes: [] };
  if (attribute === undefined) pending.value = checkedValueSource(unit.context, value, '    ', state.eol);
  else pending.attributes.push([attribute, checkedValueSource(unit.context, value, '        ', state.eol)]);
  state.appended.set(id, pending);
}

function flushAdds(state: WriteState): void {
  const { eol } = state;
  for (const [entry, attributes] of state.newAttributes) {
    const end = entry.span?.end ?? 0;
    state.patches.push({ start: end, end, text: attributes.map(([name, source]) => `${eol}    .${name} =${source}`).join('') });
  }
  if (state.appended.size === 0) return;
  let out = state.text.length > 0 && !state.text.endsWith('\n') ? eol : '';
  for (const [id, pending] of state.appended) {
    if (pending.term && pending.value === undefined) throw new FormatWriteError(`term "-${id}" needs a value`);
    out += `${pending.term ? '-' : ''}${id} =${pending.value ?? ''}${eol}`;
    for (const [name, source] of pending.attributes) out += `    .${name} =${source}${eol}`;
  }
  state.patches.push({ start: state.text.length, end: state.text.length, text: out });
}

function templateTermIds(template: Buffer | null | undefined): Set<string> {
  if (!template) return new Set();
  const { text } = decodeText(template);
  const lines = new LineIndex(text);
  return new Set(parseFluent(text, lines).body.filter((entry) => entry instanceof Term).map((entry) => (entry as Term).id.name));
}

function write(current: Buffer, changes: StoreChanges, template: Buffer | null | undefined): Buffer {
  const decoded = decodeText(current);
  const lines = new LineIndex(decoded.text);
  const resource = parseFluent(decoded.text, lines);
  const units = fluentUnits(resource, lines, decoded.text);
  const byContext = new Map<string, FluentEntryUnit>();
  for (const unit of units) if (!byContext.has(unit.context)) byContext.set(unit.context, unit);
  const entries = new Map<string, Message | Term>();
  for (const entry of resource.body) if ((entry instanceof Message || entry instanceof Term) && !entries.has(entry.id.name)) entries.set(entry.id.name, entry);
  const state: WriteState = { text: decoded.text, eol: decoded.eol, patches: [], appended: new Map(), newAttributes: new Map() };
  let templateTerms: Set<string> | undefined;
  const removed = new Set((changes.remove ?? []).map((key) => key.context));
  for (const unit of [...changes.update, ...(changes.add ?? [])]) {
    if (removed.has(unit.context)) continue;
    const value = unit.target[0] ?? '';
    const existing = byContext.get(unit.context);
    // Fluent has no empty pattern: an emptied string leaves the file (a missing entry is untranslated).
    if (value === '') {
      if (existing) removed.add(unit.context);
      continue;
    }
    if (existing) {
      if (existing.text !== value) replaceUnit(state, existing, value);
      continue;
    }
    templateTerms ??= templateTermIds(template);
    queueAdd(state, unit, value, entries, templateTerms);
  }
  for (const context of removed) {
    const unit = byContext.get(context);
    if (unit) removeUnit(state, unit);
  }
  flushAdds(state);
  return encodeText(decoded, applyPatches(decoded.text, state.patches));
}

export const FLUENT_FORMAT: FileFormat = {
  id: 'fluent',
  name: 'Fluent file',
  kind: 'mono',
  extension: 'ftl',
  parse,
  write: (current, changes, context) => write(current, changes, context.template),
  // Weblate's fixed new-file content is empty [5.x]; a base's texts cannot be emptied in Fluent (no empty
  // patterns), so a new translation starts empty either way and its strings count as untranslated.
  create: () => Buffer.alloc(0),
};
