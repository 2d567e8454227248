import { FormatWriteError, type PathPart } from '../format';
import type { JsonArray, JsonObject, JsonValue } from '../json/json-value';
import { writeJsonDocument, writeJsonString } from '../json/json-writer';
import { encodeJsonText, LineIndex, type JsonText } from './json-text';
import { isContainer, memberOf, membersNamed, scanJson, type JsonContainerNode, type JsonMember, type JsonNode, type ScanLimits } from './json-tree';

// Writes changes into a JSON text by patching spans (issue 11 item 3): a replaced value changes only its
// own characters; a removed member takes its comma and the whitespace before it along; a new member is
// appended at the end of its parent object (where Weblate's rebuilt document puts it, formats.md §2.5) with
// the separator, indentation and `: ` spelling of its siblings. Objects a removal empties vanish, as they do
// from a document rebuilt from the remaining units (formats.md §3.8).

/** A parsed JSON text, kept for patching. */
export interface JsonDocument extends JsonText {
  lines: LineIndex;
  root: JsonNode;
}

export function readJsonText(decoded: JsonText, limits: ScanLimits = {}): JsonDocument {
  const lines = new LineIndex(decoded.text);
  return { ...decoded, lines, root: scanJson(decoded.text, lines, limits) };
}

// Refuse to pad an array to an absurd length because of a context like `list[99999999]` (as json-build.ts).
const MAX_ARRAY_INDEX = 100_000;

interface Edit {
  start: number;
  end: number;
  text: string;
}

type Kid = JsonMember | JsonNode;

export class JsonPatcher {
  private readonly replacements = new Map<JsonNode, JsonValue>();
  private readonly removed = new Set<Kid>();
  /** New children per existing container: members of an object, or items past the end of an array. */
  private readonly pending = new Map<JsonContainerNode, JsonObject | JsonArray>();
  private indentUnit: string | undefined;

  constructor(
    private readonly doc: JsonDocument,
    /** Indentation step for new nested lines when the file shows none (Weblate: 4 spaces; ARB 2). */
    private readonly defaultIndent = '    ',
  ) {}

  /** The node at `path` as Python sees the document (the last of repeated keys), or undefined. */
  nodeAt(path: readonly PathPart[]): JsonNode | undefined {
    let node: JsonNode | undefined = this.doc.root;
    for (const part of path) node = node && childOf(node, part)?.node;
    return node;
  }

  /** Sets the value at `path`: replaces an existing value in place, or appends it (creating parents). */
  set(path: readonly PathPart[], value: JsonValue): void {
    if (path.length === 0) throw new FormatWriteError('An entry has an empty path');
    let node: JsonNode = this.doc.root;
    for (let i = 0; i < path.length; i++) {
      const child = childOf(node, path[i]);
      if (!child) return this.append(node, path.slice(i), value);
      if (i === path.length - 1) {
        if (isContainer(child.node) && value.type !== 'object' && value.type !== 'array') {
          throw new FormatWriteError(`Conflicting paths: ${describePath(path)} would replace an object or array`);
        }
        this.replacements.set(child.node, value);
        return;
      }
      if (!isContainer(child.node)) throw new FormatWriteError(`Conflicting paths: ${describePath(path)} goes through a value of another type`);
      node = child.node;
    }
  }

  /** Removes the member or item at `path` (every repeat of an object key); a missing path is ignored. */
  remove(path: readonly PathPart[]): void {
    const parent = this.nodeAt(path.slice(0, -1));
    const last = path[path.length - 1];
    if (!parent || !last) return;
    if (parent.kind === 'object' && 'key' in last) {
      for (const member of membersNamed(parent, last.key)) this.removed.add(member);
    } else if (parent.kind === 'array' && 'index' in last && parent.items[last.index]) {
      this.removed.add(parent.items[last.index]);
    }
  }

  /** The patched file, BOM and line breaks as the original had them. */
  result(): Buffer {
    const edits: Edit[] = [];
    this.visit(this.doc.root, edits, true);
    edits.sort((a, b) => a.start - b.start || a.end - b.end);
    const { text } = this.doc;
    const out: string[] = [];
    let at = 0;
    for (const edit of edits) {
      if (edit.start < at) throw new FormatWriteError('Overlapping changes to the same JSON value');
      out.push(text.slice(at, edit.start), edit.text);
      at = edit.end;
    }
    out.push(text.slice(at));
    return encodeJsonText(out.join(''), this.doc.bom);
  }

  private append(node: JsonNode, rest: readonly PathPart[], value: JsonValue): void {
    const [first] = rest;
    if (node.kind === 'object' && 'key' in first) {
      let pending = this.pending.get(node);
      if (!pending) this.pending.set(node, (pending = { type: 'object', members: new Map() }));
      setIn(pending, rest, value, 0);
    } else if (node.kind === 'array' && 'index' in first) {
      let pending = this.pending.get(node);
      if (!pending) this.pending.set(node, (pending = { type: 'array', items: [] }));
      setIn(pending, rest, value, node.items.length);
    } else {
      throw new FormatWriteError(`Conflicting paths: ${describePath(rest)} does not fit the ${node.kind} at that place`);
    }
  }

  /** Emits the edits under `node`; true when the node lost all its children and should vanish with them. */
  private visit(node: JsonNode, edits: Edit[], isRoot = false): boolean {
    const replacement = this.replacements.get(node);
    if (replacement) {
      edits.push({ start: node.start, end: node.end, text: this.render(replacement, this.doc.lines.indentation(node.start)) });
      return false;
    }
    if (!isContainer(node)) return false;
    const kids: Kid[] = node.kind === 'object' ? node.members : node.items;
    const gone = kids.map((kid) => this.removed.has(kid) || this.visit(kidValue(kid), edits));
    const pending = this.pending.get(node);
    const added = pending ? this.renderPending(node, pending) : [];
    const keptCount = gone.filter((isGone) => !isGone).length;
    if (keptCount === kids.length && added.length === 0) return false;
    if (keptCount === 0) {
      if (added.length === 0 && !isRoot) return true;
      edits.push({ start: node.start + 1, end: node.end - 1, text: this.emptyContainerBody(node, added) });
      return false;
    }
    // Runs of removed children: after a kept one, cut from its end (the comma goes too); at the start, cut
    // up to the first kept child.
    for (let i = 0; i < kids.length; i++) {
      if (!gone[i]) continue;
      let j = i;
      while (j + 1 < kids.length && gone[j + 1]) j++;
      if (i > 0) edits.push({ start: kidEnd(kids[i - 1]), end: kidEnd(kids[j]), text: '' });
      else edits.push({ start: kidStart(kids[0]), end: kidStart(kids[j + 1]), text: '' });
      i = j;
    }
    if (added.length > 0) {
      const last = gone.lastIndexOf(false);
      let separator = this.separatorBefore(node, kids, last);
      // One inline child (`{"a": "x"}`) shows no separator between children: borrow one or use Python's.
      if (last === 0 && !separator.includes('\n')) separator = kids.length > 1 ? this.separatorBefore(node, kids, 1) : this.inlineSeparator(node);
      edits.push({ start: kidEnd(kids[last]), end: kidEnd(kids[last]), text: added.map((text) => `,${separator}${text}`).join('') });
    }
    return false;
  }

  /** What stands between the comma (or the opening bracket) and child `index`: line break + indentation. */
  private separatorBefore(node: JsonContainerNode, kids: readonly Kid[], index: number): string {
    const { text } = this.doc;
    if (index === 0) return text.slice(node.start + 1, kidStart(kids[0]));
    return text.slice(text.indexOf(',', kidEnd(kids[index - 1])) + 1, kidStart(kids[index]));
  }

  private inlineSeparator(node: JsonContainerNode): string {
    if (node.kind !== 'object' || node.members.length === 0) return ' ';
    // A minified file (`{"a":"x"}`) gets no space after the comma either.
    return this.doc.text.slice(node.members[0].keyEnd, node.members[0].value.start).includes(' ') ? ' ' : '';
  }

  private emptyContainerBody(node: JsonContainerNode, added: readonly string[]): string {
    if (added.length === 0) return '';
    const { newline } = this.doc;
    const own = this.doc.lines.indentation(node.start);
    const inner = own + this.unit();
    return `${newline}${inner}${added.join(`,${newline}${inner}`)}${newline}${own}`;
  }

  /** Texts of the new children of `node` (without separators), rendered at the indentation they will have. */
  private renderPending(node: JsonContainerNode, pending: JsonObject | JsonArray): string[] {
    const kids: Kid[] = node.kind === 'object' ? node.members : node.items;
    let indent = this.doc.lines.indentation(node.start) + this.unit();
    let inline = false;
    if (kids.length > 0) {
      const separator = this.separatorBefore(node, kids, kids.length - 1);
      const lineBreak = separator.lastIndexOf('\n');
      // Children on one line (`{"a": "x", "b": "y"}`): a new object or array stays on that line too.
      inline = lineBreak === -1;
      indent = inline ? this.doc.lines.indentation(kidStart(kids[kids.length - 1])) : separator.slice(lineBreak + 1);
    }
    const render = (value: JsonValue): string => (inline ? renderInline(value) : this.render(value, indent));
    if (pending.type === 'array') return pending.items.map(render);
    const colon = node.kind === 'object' && node.members.length > 0 ? this.doc.text.slice(node.members[0].keyEnd, node.members[0].value.start) : ': ';
    return [...pending.members].map(([key, value]) => `${writeJsonString(key)}${colon}${render(value)}`);
  }

  /** A value as Python's json.dumps writes it (indent 4), re-indented to the file's step and line breaks. */
  private render(value: JsonValue, indent: string): string {
    const unit = this.unit();
    const { newline } = this.doc;
    const text = writeJsonDocument(value).slice(0, -1);
    // Only structural line breaks exist: json.dumps escapes every newline inside strings.
    return text.replace(/\n((?: {4})*)/g, (_, spaces: string) => `${newline}${indent}${unit.repeat(spaces.length / 4)}`);
  }

  /** The file's indentation step, read from the root's first child; the format's default when it shows none. */
  private unit(): string {
    if (this.indentUnit !== undefined) return this.indentUnit;
    const { root, text } = this.doc;
    let unit = this.defaultIndent;
    const first = root.kind === 'object' ? root.members[0] : root.kind === 'array' ? root.items[0] : undefined;
    if (first && isContainer(root)) {
      const separator = text.slice(root.start + 1, kidStart(first));
      const lineBreak = separator.lastIndexOf('\n');
      const own = this.doc.lines.indentation(root.start);
      const indent = separator.slice(lineBreak + 1);
      if (lineBreak !== -1 && indent.length > own.length && indent.startsWith(own)) unit = indent.slice(own.length);
    }
    return (this.indentUnit = unit);
  }
}

/** A value on one line, as json.dumps writes it without indent (`{"a": 1, "b": [2]}`). */
function renderInline(value: JsonValue): string {
  return writeJsonDocument(value)
    .slice(0, -1)
    .replace(/,\n(?: {4})*/g, ', ')
    .replace(/\n(?: {4})*/g, '');
}

function childOf(node: JsonNode, part: PathPart): { node: JsonNode } | undefined {
  if (node.kind === 'object' && 'key' in part) {
    const member = memberOf(node, part.key);
    return member && { node: member.value };
  }
  if (node.kind === 'array' && 'index' in part) {
    const item = node.items[part.index];
    return item && { node: item };
  }
  return undefined;
}

function kidValue(kid: Kid): JsonNode {
  return 'key' in kid && 'keyStart' in kid ? kid.value : (kid as JsonNode);
}

function kidStart(kid: Kid): number {
  return 'keyStart' in kid ? kid.keyStart : kid.start;
}

function kidEnd(kid: Kid): number {
  return 'keyStart' in kid ? kid.value.end : kid.end;
}

function describePath(path: readonly PathPart[]): string {
  return JSON.stringify(path.map((part) => ('key' in part ? part.key : `[${part.index}]`)).join('.'));
}

/** Puts `value` at `path` inside a new (not yet written) container, creating containers on the way. */
function setIn(container: JsonObject | JsonArray, path: readonly PathPart[], value: JsonValue, indexOffset: number): void {
  let current: JsonObject | JsonArray = container;
  let offset = indexOffset;
  for (let i = 0; i < path.length; i++) {
    const part = path[i];
    const last = i === path.length - 1;
    const existing: JsonValue | undefined =
      current.type === 'object' && 'key' in part ? current.members.get(part.key) : current.type === 'array' && 'index' in part ? current.items[part.index - offset] : undefined;
    let next: JsonValue;
    if (last) {
      if (existing && (existing.type === 'object' || existing.type === 'array')) throw new FormatWriteError(`Conflicting paths: ${describePath(path)} would replace an object or array`);
      next = value;
    } else {
      const wanted = 'key' in path[i + 1] ? 'object' : 'array';
      if (existing && existing.type !== wanted && existing !== PADDING) throw new FormatWriteError(`Conflicting paths: ${describePath(path)} goes through a value of another type`);
      next = existing && existing !== PADDING ? existing : wanted === 'object' ? { type: 'object', members: new Map() } : { type: 'array', items: [] };
    }
    if (current.type === 'object' && 'key' in part) current.members.set(part.key, next);
    else if (current.type === 'array' && 'index' in part) {
      const index = part.index - offset;
      if (!Number.isSafeInteger(part.index) || index < 0 || part.index > MAX_ARRAY_INDEX) throw new FormatWriteError(`Array index out of range in ${describePath(path)}`);
      while (current.items.length < index) current.items.push(PADDING);
      current.items[index] = next;
    } else {
      throw new FormatWriteError(`Conflicting paths: ${describePath(path)} does not fit the ${current.type} at that place`);
    }
    if (!last) current = next as JsonObject | JsonArray;
    offset = 0;
  }
}

// Padding slots may later be filled by a value or a container; a real `null` leaf may not (as json-build.ts).
const PADDING: JsonValue = Object.freeze({ type: 'null' });
