// `php` and `laravel` (formats.md §3.15): read with php-reader.ts, written by replacing only the edited
// string literal (Weblate regenerates the whole file; see docs/formats/yaml-php-fluent.md for the differences).

import { FormatWriteError } from '../format';
import type { FileFormat, ParsedStore, StoreChanges, StoreParseOptions, StoreWriteContext, UnitWrite } from '../store';
import { applyPatches, decodeText, encodeText, LineIndex, UnitCollector, type TextPatch } from '../yaml/text-patch';
import { readPhpFile, type PhpArray, type PhpEntry, type PhpFile } from './php-reader';
import { encodePhpString } from './php-tokenizer';

/** Laravel joins plural forms with `|` inside one string (formats.md §3.15). */
const LARAVEL_PLURAL = '|';

function targetForms(value: string, laravel: boolean): string[] {
  return laravel && value.includes(LARAVEL_PLURAL) ? value.split(LARAVEL_PLURAL) : [value];
}

function parsePhp(content: Buffer, laravel: boolean, options: StoreParseOptions = {}): ParsedStore {
  const { text } = decodeText(content);
  const collector = new UnitCollector(options.limits, options.onDuplicate);
  const lines = new LineIndex(text);
  readPhpFile(text, lines, (entry) => collector.add(entry.context, targetForms(entry.value, laravel), entry.line, entry.note));
  return { units: collector.units };
}

interface WriteState {
  text: string;
  eol: string;
  file: PhpFile;
  patches: TextPatch[];
  /** Elements appended per array, rendered when all changes are known. */
  appended: Map<PhpArray, string[]>;
  /** Keys to add below an array the file lacks: per deepest existing array, or per new top-level statement. */
  trees: Map<PhpArray | string, PhpTree>;
  statements: string[];
}

function literalFor(value: string, quote: "'" | '"'): string {
  return encodePhpString(value, quote);
}

function replaceEntry(state: WriteState, entry: PhpEntry, value: string): void {
  const first = entry.literals[0];
  const last = entry.literals[entry.literals.length - 1];
  state.patches.push({ start: first.start, end: last.end, text: literalFor(value, first.quote ?? "'") });
}

function lineStart(text: string, offset: number): number {
  return text.lastIndexOf('\n', offset - 1) + 1;
}

function removeEntry(state: WriteState, entry: PhpEntry): void {
  const { text } = state;
  let start = entry.start;
  let end = entry.end;
  // Take the element's comma too, then the whole line when the entry stands alone on it.
  const rest = /^\s*,/.exec(text.slice(end, end + 200));
  if (rest && !text.slice(end, end + rest[0].length).includes('\n')) end += rest[0].length;
  const before = text.slice(lineStart(text, start), start);
  const lineEnd = text.indexOf('\n', end);
  const after = text.slice(end, lineEnd === -1 ? text.length : lineEnd);
  if (/^[ \t]*$/.test(before) && /^[ \t]*$/.test(after)) {
    start = lineStart(text, start);
    end = lineEnd === -1 ? text.length : lineEnd + 1;
  }
  state.patches.push({ start, end, text: '' });
}

/** The key part of a context as PHP source: `'key'` re-escaped, integers as they are. */
function keySource(key: string): string {
  if (/^-?[0-9]+$/.test(key)) return key;
  if (key.startsWith("'") && key.endsWith("'") && key.length >= 2) return encodePhpString(key.slice(1, -1), "'");
  return encodePhpString(key, "'");
}

/** One level of keys to add under an array the file does not have yet (formats.md §3.15 key paths). */
interface PhpTree {
  /** `[…]` (the path segment ends in `[]`) or `array(…)`. */
  short: boolean;
  /** Key source (`'k'`, `5`, or `` for an unkeyed element) -> a nested level or the value's literal. */
  children: Map<string, PhpTree | string>;
}

/** A key path segment after an array: `'key'` / `5` / `[]` (no key), with `[]` when it names a `[…]` array. */
const PATH_SEGMENT = /^(?:'(.*?)'|(-?[0-9]+)|(\[\]))(\[\])?(?:->|$)/s;
/** The head of a path whose array is missing: `return[]->`, `return->`, `$var[]->`, `$var->`. */
const PATH_HEAD = /^(return|\$[A-Za-z_\x80-\uffff][A-Za-z0-9_\x80-\uffff]*)(\[\])?->/;

function splitSegments(rest: string): Array<{ key: string; short: boolean }> | null {
  const segments: Array<{ key: string; short: boolean }> = [];
  let cursor = rest;
  while (cursor !== '') {
    const match = PATH_SEGMENT.exec(cursor);
    if (!match) return null;
    const key = match[1] !== undefined ? keySource(`'${match[1]}'`) : (match[2] ?? '');
    segments.push({ key, short: match[4] !== undefined });
    cursor = cursor.slice(match[0].length);
    if (match[0].endsWith('->') && cursor === '') return null;
  }
  return segments;
}

/** The deepest array of the file a context lies under (names are the reader's, so a prefix match is exact). */
function deepestArray(file: PhpFile, context: string): PhpArray | undefined {
  let best: PhpArray | undefined;
  for (const [name, array] of file.arrays) if (context.startsWith(`${name}->`) && (!best || name.length > best.name.length)) best = array;
  return best;
}

function insertPath(tree: PhpTree, segments: Array<{ key: string; short: boolean }>, literal: string): void {
  let level = tree;
  segments.forEach((segment, index) => {
    if (index === segments.length - 1) {
      level.children.set(segment.key, literal);
      return;
    }
    const existing = level.children.get(segment.key);
    if (typeof existing === 'object') level = existing;
    else {
      const next: PhpTree = { short: segment.short, children: new Map() };
      level.children.set(segment.key, next);
      level = next;
    }
  });
}

function renderElements(tree: PhpTree): string[] {
  return [...tree.children].map(([key, node]) => {
    const value = typeof node === 'string' ? node : renderArray(node, renderElements(node).join(', '));
    return key === '' ? value : `${key} => ${value}`;
  });
}

function renderArray(tree: PhpTree, inner: string): string {
  return tree.short ? `[${inner}]` : `array(${inner})`;
}

function addEntry(state: WriteState, unit: UnitWrite, value: string): void {
  if (unit.context.includes('->')) {
    const array = deepestArray(state.file, unit.context);
    const rest = array ? unit.context.slice(array.name.length + 2) : unit.context.replace(PATH_HEAD, '');
    const head = array ? null : PATH_HEAD.exec(unit.context);
    const segments = splitSegments(rest);
    if ((!array && !head) || !segments || segments.length === 0 || segments[segments.length - 1].short) {
      throw new FormatWriteError(`cannot add "${unit.context}": not a PHP array key path`);
    }
    const literal = literalFor(value, array?.quote ?? "'");
    // Arrays the file lacks are created with the entry (translate-toolkit writes the whole key path).
    const treeKey = array ?? `${head![1]}${head![2] ?? ''}`;
    let tree = state.trees.get(treeKey);
    if (!tree) {
      tree = { short: array ? true : head![2] !== undefined, children: new Map() };
      state.trees.set(treeKey, tree);
    }
    insertPath(tree, segments, literal);
    return;
  }
  if (unit.context.startsWith('define(')) state.statements.push(`${unit.context}, ${literalFor(value, "'")});`);
  else if (unit.context.startsWith('$')) state.statements.push(`${unit.context} = ${literalFor(value, "'")};`);
  else throw new FormatWriteError(`cannot add "${unit.context}": not a PHP variable, define() or array key`);
}

/** New elements of existing arrays join `appended`; arrays the file lacks become statements at its end. */
function flushTrees(state: WriteState): void {
  const { eol } = state;
  for (const [owner, tree] of state.trees) {
    const elements = renderElements(tree);
    if (typeof owner !== 'string') {
      state.appended.set(owner, [...(state.appended.get(owner) ?? []), ...elements]);
      continue;
    }
    const short = owner.endsWith('[]');
    const name = short ? owner.slice(0, -2) : owner;
    const body = `${short ? '[' : 'array('}${eol}${elements.map((element) => `    ${element},${eol}`).join('')}${short ? ']' : ')'}`;
    state.statements.push(name === 'return' ? `return ${body};` : `${name} = ${body};`);
  }
}

function flushArrays(state: WriteState): void {
  const { text, eol } = state;
  for (const [array, elements] of state.appended) {
    const closeLineStart = lineStart(text, array.close.start);
    const closeOnOwnLine = /^[ \t]*$/.test(text.slice(closeLineStart, array.close.start));
    if (array.lastElementEnd === undefined || !closeOnOwnLine) {
      // Inline array (`['a' => 'b']` or `[]`): elements go just before the closing bracket.
      const joined = elements.join(', ');
      const needsComma = array.lastElementEnd !== undefined && !array.hasTrailingComma;
      const space = array.lastElementEnd !== undefined && array.hasTrailingComma ? ' ' : '';
      state.patches.push({ start: array.close.start, end: array.close.start, text: `${needsComma ? ', ' : space}${joined}` });
      continue;
    }
    const indent = /^[ \t]*/.exec(text.slice(lineStart(text, array.firstElementStart ?? array.close.start)))?.[0] ?? '    ';
    if (!array.hasTrailingComma) state.patches.push({ start: array.lastElementEnd, end: array.lastElementEnd, text: ',' });
    state.patches.push({ start: closeLineStart, end: closeLineStart, text: elements.map((element) => `${indent}${element},${eol}`).join('') });
  }
  if (state.statements.length > 0) {
    const at = state.file.appendAt;
    const lead = at > 0 && text[at - 1] !== '\n' ? eol : '';
    state.patches.push({ start: at, end: at, text: lead + state.statements.map((statement) => statement + eol).join('') });
  }
}

function writePhp(current: Buffer, changes: StoreChanges, laravel: boolean): Buffer {
  const decoded = decodeText(current);
  const lines = new LineIndex(decoded.text);
  const file = readPhpFile(decoded.text, lines, () => undefined);
  const byContext = new Map<string, PhpEntry>();
  for (const entry of file.entries) if (!byContext.has(entry.context)) byContext.set(entry.context, entry);
  const state: WriteState = { text: decoded.text, eol: decoded.eol, file, patches: [], appended: new Map(), trees: new Map(), statements: [] };
  const removed = new Set((changes.remove ?? []).map((key) => key.context));
  for (const unit of [...changes.update, ...(changes.add ?? [])]) {
    if (removed.has(unit.context)) continue;
    const value = laravel ? unit.target.join(LARAVEL_PLURAL) : (unit.target[0] ?? '');
    const entry = byContext.get(unit.context);
    if (!entry) addEntry(state, unit, value);
    else if (entry.value !== value) replaceEntry(state, entry, value);
  }
  for (const context of removed) {
    const entry = byContext.get(context);
    if (entry) removeEntry(state, entry);
  }
  flushTrees(state);
  flushArrays(state);
  return encodeText(decoded, applyPatches(decoded.text, state.patches));
}

/** A new file from a base: every string emptied (formats.md §2.4); Weblate's fixed content is `<?php`. */
function createPhp(base: Buffer | null): Buffer {
  if (!base) return Buffer.from('<?php\n', 'utf8');
  const decoded = decodeText(base);
  const file = readPhpFile(decoded.text, new LineIndex(decoded.text), () => undefined);
  const state: WriteState = { text: decoded.text, eol: decoded.eol, file, patches: [], appended: new Map(), trees: new Map(), statements: [] };
  for (const entry of file.entries) if (entry.value !== '') replaceEntry(state, entry, '');
  return encodeText(decoded, applyPatches(decoded.text, state.patches));
}

/**
 * A key added to a Laravel component is an element of the file's `return [...]` array, named as translate-
 * toolkit reads it back (`bye` -> `return[]->'bye'`, formats.md §3.15); a key already spelled as a path stays.
 */
function laravelContext(key: string): string {
  if (/^return(\[\])?->/.test(key)) return key;
  return `return[]->${keySource(key)}`;
}

function phpFormat(id: string, name: string, laravel: boolean): FileFormat {
  return {
    id,
    name,
    kind: 'mono',
    extension: 'php',
    parse: (content, options) => parsePhp(content, laravel, options),
    write: (current, changes: StoreChanges, _context: StoreWriteContext) => writePhp(current, changes, laravel),
    create: (base) => createPhp(base),
    ...(laravel ? { contextForKey: laravelContext } : {}),
  };
}

export const PHP_FORMAT = phpFormat('php', 'PHP strings', false);
export const LARAVEL_FORMAT = phpFormat('laravel', 'Laravel PHP strings', true);
