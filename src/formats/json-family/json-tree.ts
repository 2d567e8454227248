import { FormatLimitError, FormatParseError } from '../format';
import type { JsonValue } from '../json/json-value';
import { LineIndex } from './json-text';

// A position-keeping JSON reader. It accepts exactly what today's reader (the former src/formats/json/json-reader.ts)
// and Python's `json.loads` accept — standard JSON plus `NaN`, `Infinity`, `-Infinity` — but instead of a
// value tree it returns every value with its character span, so the writer can patch one value and leave the
// rest of the text alone (issue 11 item 3). Spans are offsets into the decoded text (BOM removed).

// Objects up to this many members look for a repeated key by comparing keys, without allocating a Set.
const REPEAT_SCAN_LIMIT = 8;

// Deeper documents are refused instead of overflowing the stack (Python stops near 1000 as well).
const MAX_DEPTH = 1000;

export interface JsonScalarNode {
  kind: 'string' | 'number' | 'boolean' | 'null';
  start: number;
  end: number;
  /** Decoded string; number literal text; `true`/`false`; `` for null. */
  value: string;
}

export interface JsonMember {
  key: string;
  /** Offset of the key's opening quote. */
  keyStart: number;
  /** Offset just after the key's closing quote. */
  keyEnd: number;
  value: JsonNode;
}

export interface JsonObjectNode {
  kind: 'object';
  start: number;
  end: number;
  /** Physical members in file order, repeated keys included. */
  members: JsonMember[];
  /** Some key appears twice: Python keeps the first place and the last value (see logicalMembers). */
  repeatsKeys: boolean;
}

export interface JsonArrayNode {
  kind: 'array';
  start: number;
  end: number;
  items: JsonNode[];
}

export type JsonContainerNode = JsonObjectNode | JsonArrayNode;
export type JsonNode = JsonScalarNode | JsonContainerNode;

export interface ScanLimits {
  /** Scalars inside containers (a top-level scalar is none); FormatLimitError('units') past it. */
  maxLeaves?: number;
  /** Characters of any decoded string or number literal; FormatLimitError('string-length') past it. */
  maxStringLength?: number;
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const HEX4 = /^[0-9a-fA-F]{4}$/;
const SIMPLE_ESCAPES: Readonly<Record<string, string>> = {
  '"': '"',
  '\\': '\\',
  '/': '/',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
};

/** Reads one document. Errors are FormatParseError `line N: problem (column C)`. */
export function scanJson(text: string, lines: LineIndex, limits: ScanLimits = {}): JsonNode {
  const maxLeaves = limits.maxLeaves ?? Infinity;
  const maxString = limits.maxStringLength ?? Infinity;
  let pos = 0;
  let leaves = 0;

  const fail = (message: string, at = pos): never => {
    const { line, column } = lines.position(at);
    throw new FormatParseError(`line ${line}: invalid JSON: ${message} (column ${column})`);
  };
  const countLeaf = (depth: number, at: number): void => {
    if (depth === 0) return;
    leaves += 1;
    if (leaves > maxLeaves) {
      throw new FormatLimitError('units', `more than ${maxLeaves} strings in one file (the limit was reached at ${lines.describe(at)})`);
    }
  };
  const checkLength = (value: string, at: number): string => {
    if (value.length > maxString) throw new FormatLimitError('string-length', `a string longer than ${maxString} characters at ${lines.describe(at)}`);
    return value;
  };
  const describe = (at: number): string => (at >= text.length ? 'end of file' : JSON.stringify(text[at]));
  const skipWhitespace = (): void => {
    for (;;) {
      const code = text.charCodeAt(pos);
      if (code !== 0x20 && code !== 0x0a && code !== 0x0d && code !== 0x09) return;
      pos++;
    }
  };

  const readString = (): string => {
    const start = pos;
    pos++;
    let result = '';
    let chunkStart = pos;
    for (;;) {
      if (pos >= text.length) fail('unterminated string', start);
      const code = text.charCodeAt(pos);
      if (code === 0x22) {
        result += text.slice(chunkStart, pos);
        pos++;
        return checkLength(result, start);
      }
      if (code < 0x20) fail('control character in string (it must be escaped)');
      if (code !== 0x5c) {
        pos++;
        continue;
      }
      result += text.slice(chunkStart, pos);
      const escape = text[pos + 1];
      if (escape === 'u') {
        const hex = text.slice(pos + 2, pos + 6);
        if (!HEX4.test(hex)) fail('invalid \\u escape');
        // Surrogate pairs need no special handling: JS strings are UTF-16 code units too.
        result += String.fromCharCode(parseInt(hex, 16));
        pos += 6;
      } else if (escape !== undefined && escape in SIMPLE_ESCAPES) {
        result += SIMPLE_ESCAPES[escape];
        pos += 2;
      } else {
        fail('invalid escape sequence');
      }
      chunkStart = pos;
      // Bound the decoded length while it grows, so a huge escaped string stops early.
      if (result.length > maxString) checkLength(result, start);
    }
  };

  const readObject = (depth: number): JsonObjectNode => {
    const node: JsonObjectNode = { kind: 'object', start: pos, end: pos, members: [], repeatsKeys: false };
    pos++;
    skipWhitespace();
    if (text[pos] === '}') {
      pos++;
      node.end = pos;
      return node;
    }
    // Repeated keys are rare: small objects compare keys in place, bigger ones build a Set once they grow.
    let seen: Set<string> | undefined;
    for (;;) {
      skipWhitespace();
      if (text[pos] !== '"') fail(`expected a property name in double quotes, found ${describe(pos)}`);
      const keyStart = pos;
      const key = readString();
      const keyEnd = pos;
      skipWhitespace();
      if (text[pos] !== ':') fail(`expected ':' after the property name, found ${describe(pos)}`);
      pos++;
      node.members.push({ key, keyStart, keyEnd, value: readValue(depth + 1) });
      const count = node.members.length;
      if (count > 1 && count <= REPEAT_SCAN_LIMIT) {
        for (let at = 0; at < count - 1; at++) if (node.members[at].key === key) node.repeatsKeys = true;
      } else if (count > REPEAT_SCAN_LIMIT) {
        seen ??= new Set(node.members.slice(0, -1).map((member) => member.key));
        if (seen.has(key)) node.repeatsKeys = true;
        seen.add(key);
      }
      skipWhitespace();
      const next = text[pos];
      pos++;
      if (next === '}') {
        node.end = pos;
        return node;
      }
      if (next !== ',') fail(`expected ',' or '}', found ${describe(pos - 1)}`, pos - 1);
    }
  };

  const readArray = (depth: number): JsonArrayNode => {
    const node: JsonArrayNode = { kind: 'array', start: pos, end: pos, items: [] };
    pos++;
    skipWhitespace();
    if (text[pos] === ']') {
      pos++;
      node.end = pos;
      return node;
    }
    for (;;) {
      node.items.push(readValue(depth + 1));
      skipWhitespace();
      const next = text[pos];
      pos++;
      if (next === ']') {
        node.end = pos;
        return node;
      }
      if (next !== ',') fail(`expected ',' or ']', found ${describe(pos - 1)}`, pos - 1);
    }
  };

  const scalar = (kind: JsonScalarNode['kind'], start: number, value: string): JsonScalarNode => ({ kind, start, end: pos, value });

  const readWord = (word: string): boolean => {
    if (!text.startsWith(word, pos)) return false;
    pos += word.length;
    return true;
  };

  const readValue = (depth: number): JsonNode => {
    if (depth > MAX_DEPTH) fail(`nesting deeper than ${MAX_DEPTH} levels`);
    skipWhitespace();
    const start = pos;
    const char = text[pos];
    if (char === '{') return readObject(depth);
    if (char === '[') return readArray(depth);
    countLeaf(depth, pos);
    if (char === '"') {
      const value = readString();
      return scalar('string', start, value);
    }
    if (readWord('true')) return scalar('boolean', start, 'true');
    if (readWord('false')) return scalar('boolean', start, 'false');
    if (readWord('null')) return scalar('null', start, '');
    for (const word of ['NaN', 'Infinity', '-Infinity']) {
      if (readWord(word)) return scalar('number', start, word);
    }
    NUMBER.lastIndex = pos;
    const match = NUMBER.exec(text);
    if (match) {
      pos += match[0].length;
      return scalar('number', start, checkLength(match[0], start));
    }
    return fail(`expected a value, found ${describe(pos)}`);
  };

  const document = readValue(0);
  skipWhitespace();
  if (pos < text.length) fail(`unexpected ${describe(pos)} after the end of the document`);
  return document;
}

/** Members as Python's dict sees them: first place of each key, last value (json.loads semantics). */
export function logicalMembers(node: JsonObjectNode): JsonMember[] {
  if (!node.repeatsKeys) return node.members;
  const byKey = new Map<string, JsonMember>();
  for (const member of node.members) {
    const first = byKey.get(member.key);
    byKey.set(member.key, first ? { ...first, value: member.value } : member);
  }
  return [...byKey.values()];
}

// Key lookups in big objects go through an index built on first use, so writing k keys into an object of
// m members costs O(k + m), not O(k × m) (a flat 50,000-key file with every key updated).
const SCAN_LIMIT = 16;
const memberIndexes = new WeakMap<JsonObjectNode, Map<string, JsonMember[]>>();

/** Every physical member named `key`, in file order. */
export function membersNamed(node: JsonObjectNode, key: string): JsonMember[] {
  if (node.members.length <= SCAN_LIMIT) return node.members.filter((member) => member.key === key);
  let index = memberIndexes.get(node);
  if (!index) {
    index = new Map();
    for (const member of node.members) {
      const list = index.get(member.key);
      if (list) list.push(member);
      else index.set(member.key, [member]);
    }
    memberIndexes.set(node, index);
  }
  return index.get(key) ?? [];
}

/** The member Python keeps for `key` (the last one), or undefined. */
export function memberOf(node: JsonObjectNode, key: string): JsonMember | undefined {
  if (node.members.length <= SCAN_LIMIT) {
    // Small objects (ARB metadata, go-i18n items...) are searched in place: no list per lookup.
    for (let at = node.members.length - 1; at >= 0; at--) if (node.members[at].key === key) return node.members[at];
    return undefined;
  }
  const named = membersNamed(node, key);
  return named[named.length - 1];
}

export function isContainer(node: JsonNode | undefined): node is JsonContainerNode {
  return node?.kind === 'object' || node?.kind === 'array';
}

/** The value tree of a node (for copying template entries into a translation file). */
export function toJsonValue(node: JsonNode): JsonValue {
  switch (node.kind) {
    case 'object':
      return { type: 'object', members: new Map(logicalMembers(node).map((member) => [member.key, toJsonValue(member.value)])) };
    case 'array':
      return { type: 'array', items: node.items.map(toJsonValue) };
    case 'string':
      return { type: 'string', value: node.value };
    case 'number':
      return { type: 'number', text: node.value };
    case 'boolean':
      return { type: 'boolean', value: node.value === 'true' };
    case 'null':
      return { type: 'null' };
  }
}
