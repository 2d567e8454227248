import { FormatParseError } from '../format';
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

/** Parses one JSON document. Throws FormatParseError with a line and column on invalid input. */
export function readJsonDocument(text: string): JsonValue {
  let pos = 0;

  const fail = (message: string, at = pos): never => {
    const before = text.slice(0, at);
    const line = before.split('\n').length;
    const column = at - before.lastIndexOf('\n');
    throw new FormatParseError(`Invalid JSON: ${message} at line ${line}, column ${column}`);
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
        return result;
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
      return { type: 'number', text: match[0] };
    }
    return fail(`expected a value, found ${describe(pos)}`);
  };

  const document = readValue(0);
  skipWhitespace();
  if (pos < text.length) fail(`unexpected ${describe(pos)} after the end of the document`);
  return document;
}
