import { FormatLimitError, FormatParseError, type ParseLimits } from '../format';
import type { JsonArray, JsonObject, JsonValue } from './json-value';

// A strict JSON reader that keeps key order (see json-value.ts). It accepts what Python's `json.loads`
// accepts, since that is what Weblate/translate-toolkit read files with: standard JSON plus the
// `NaN`, `Infinity` and `-Infinity` literals; a repeated key keeps its first place and takes the last value.

// Deeper documents are refused instead of overflowing the stack (Python stops near 1000 as well).
const MAX_DEPTH = 1000;

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
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

/**
 * Parses one JSON document. Throws FormatParseError with a line and column on invalid input, and
 * FormatLimitError as soon as the document goes past `limits` (leaves counted as they are read, so a file
 * with millions of keys stops at the limit instead of being built in memory first).
 */
export function readJsonDocument(text: string, limits: ParseLimits = {}): JsonValue {
  const maxLeaves = limits.maxUnits ?? Infinity;
  const maxString = limits.maxStringLength ?? Infinity;
  let pos = 0;
  let leaves = 0;

  const where = (at: number): string => {
    let line = 1;
    let lineStart = 0;
    for (let i = text.indexOf('\n'); i !== -1 && i < at; i = text.indexOf('\n', i + 1)) {
      line += 1;
      lineStart = i + 1;
    }
    return `line ${line}, column ${at - lineStart + 1}`;
  };

  const fail = (message: string, at = pos): never => {
    throw new FormatParseError(`Invalid JSON: ${message} at ${where(at)}`);
  };

  /** A scalar inside a container is one unit (a top-level scalar is none, §2.1). */
  const countLeaf = (depth: number, at: number): void => {
    if (depth === 0) return;
    leaves += 1;
    if (leaves > maxLeaves) throw new FormatLimitError('units', `more than ${maxLeaves} strings in one file (the limit was reached at ${where(at)})`);
  };

  const checkLength = (value: string, at: number): string => {
    if (value.length > maxString) throw new FormatLimitError('string-length', `a string longer than ${maxString} characters at ${where(at)}`);
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

  const expect = (char: string, what: string): void => {
    skipWhitespace();
    if (text[pos] !== char) fail(`expected ${what}, found ${describe(pos)}`);
    pos++;
  };

  const readString = (): string => {
    // Called with pos on the opening quote.
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
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) fail('invalid \\u escape');
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
    }
  };

  const readObject = (depth: number): JsonObject => {
    pos++;
    const members = new Map<string, JsonValue>();
    skipWhitespace();
    if (text[pos] === '}') {
      pos++;
      return { type: 'object', members };
    }
    for (;;) {
      skipWhitespace();
      if (text[pos] !== '"') fail(`expected a property name in double quotes, found ${describe(pos)}`);
      const key = readString();
      expect(':', "':' after the property name");
      members.set(key, readValue(depth + 1));
      skipWhitespace();
      const next = text[pos];
      pos++;
      if (next === '}') return { type: 'object', members };
      if (next !== ',') fail(`expected ',' or '}', found ${describe(pos - 1)}`, pos - 1);
    }
  };

  const readArray = (depth: number): JsonArray => {
    pos++;
    const items: JsonValue[] = [];
    skipWhitespace();
    if (text[pos] === ']') {
      pos++;
      return { type: 'array', items };
    }
    for (;;) {
      items.push(readValue(depth + 1));
      skipWhitespace();
      const next = text[pos];
      pos++;
      if (next === ']') return { type: 'array', items };
      if (next !== ',') fail(`expected ',' or ']', found ${describe(pos - 1)}`, pos - 1);
    }
  };

  const readWord = (word: string): boolean => {
    if (!text.startsWith(word, pos)) return false;
    pos += word.length;
    return true;
  };

  const readValue = (depth: number): JsonValue => {
    if (depth > MAX_DEPTH) fail(`nesting deeper than ${MAX_DEPTH} levels`);
    skipWhitespace();
    const char = text[pos];
    if (char === '{') return readObject(depth);
    if (char === '[') return readArray(depth);
    countLeaf(depth, pos);
    if (char === '"') return { type: 'string', value: readString() };
    if (readWord('true')) return { type: 'boolean', value: true };
    if (readWord('false')) return { type: 'boolean', value: false };
    if (readWord('null')) return { type: 'null' };
    for (const word of ['NaN', 'Infinity', '-Infinity']) {
      if (readWord(word)) return { type: 'number', text: word };
    }
    NUMBER.lastIndex = pos;
    const match = NUMBER.exec(text);
    if (match) {
      pos += match[0].length;
      return { type: 'number', text: checkLength(match[0], pos - match[0].length) };
    }
    return fail(`expected a value, found ${describe(pos)}`);
  };

  const document = readValue(0);
  skipWhitespace();
  if (pos < text.length) fail(`unexpected ${describe(pos)} after the end of the document`);
  return document;
}
