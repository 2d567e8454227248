// A small PHP tokenizer, just enough for translation files (formats.md §3.15): strings with their raw
// ranges, comments, variables, words, numbers and punctuation. One forward pass, no regex backtracking over
// the input, so hostile files cost linear time. Text outside `<?php … ?>` is skipped as inline HTML.

import { FormatParseError } from '../format';
import type { LineIndex } from '../yaml/text-patch';

export type PhpTokenKind = 'string' | 'comment' | 'variable' | 'word' | 'number' | 'punct' | 'heredoc';

export interface PhpToken {
  kind: PhpTokenKind;
  /** Raw source text of the token. */
  text: string;
  start: number;
  end: number;
  /** Strings: the quote character. */
  quote?: "'" | '"';
}

// Character classes by code, not by regex: the tokenizer runs once per character of large files.
function isWordStart(code: number): boolean {
  return (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95 || code === 92 || code >= 0x80;
}

function isWordPart(code: number): boolean {
  return isWordStart(code) || (code >= 48 && code <= 57);
}

function isNumberPart(code: number): boolean {
  return isWordPart(code) || code === 46;
}

const WORD_PART = /[A-Za-z0-9_\x80-\uffff\\]/;
const TWO_CHAR_PUNCT = new Set(['=>', '::', '->', '==', '!=', '<=', '>=', '&&', '||', '??', '.=', '+=', '-=', '++', '--']);

export function tokenizePhp(text: string, lines: LineIndex): PhpToken[] {
  const tokens: PhpToken[] = [];
  const fail = (offset: number, problem: string): never => {
    throw new FormatParseError(`line ${lines.line(offset)}: ${problem}`);
  };
  // translate-toolkit reads a file without `<?php` as if it started with one.
  let i = text.indexOf('<?php');
  if (i === -1) i = 0;
  else i += 5;
  const length = text.length;
  while (i < length) {
    const char = text[i];
    if (char === ' ' || char === '\t' || char === '\n' || char === '\r') {
      i += 1;
      continue;
    }
    const start = i;
    if (char === '?' && text[i + 1] === '>') {
      // Inline HTML until the next `<?php`.
      const reopen = text.indexOf('<?php', i + 2);
      i = reopen === -1 ? length : reopen + 5;
      tokens.push({ kind: 'punct', text: ';', start, end: start + 2 });
      continue;
    }
    if ((char === '/' && text[i + 1] === '/') || (char === '#' && text[i + 1] !== '[')) {
      while (i < length && text[i] !== '\n' && !(text[i] === '?' && text[i + 1] === '>')) i += 1;
      tokens.push({ kind: 'comment', text: text.slice(start, i), start, end: i });
      continue;
    }
    if (char === '/' && text[i + 1] === '*') {
      const close = text.indexOf('*/', i + 2);
      if (close === -1) fail(start, 'unterminated comment');
      i = close + 2;
      tokens.push({ kind: 'comment', text: text.slice(start, i), start, end: i });
      continue;
    }
    if (char === "'" || char === '"') {
      i += 1;
      while (i < length && text[i] !== char) i += text[i] === '\\' ? 2 : 1;
      if (i >= length) fail(start, 'unterminated string');
      i += 1;
      tokens.push({ kind: 'string', text: text.slice(start, i), start, end: i, quote: char });
      continue;
    }
    if (char === '<' && text.startsWith('<<<', i)) {
      // Heredoc / nowdoc: skipped as one opaque token (translate-toolkit does not read them either).
      const lineEnd = text.indexOf('\n', i);
      if (lineEnd === -1) fail(start, 'unterminated heredoc');
      const label = text.slice(i + 3, lineEnd).trim().replace(/^["']|["']$/g, '');
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(label)) fail(start, 'bad heredoc label');
      let cursor = lineEnd + 1;
      for (;;) {
        const next = text.indexOf('\n', cursor);
        const line = text.slice(cursor, next === -1 ? length : next).trimStart();
        if (line.startsWith(label) && !WORD_PART.test(line[label.length] ?? '')) {
          i = text.indexOf(label, cursor) + label.length;
          break;
        }
        if (next === -1) fail(start, 'unterminated heredoc');
        cursor = next + 1;
      }
      tokens.push({ kind: 'heredoc', text: text.slice(start, i), start, end: i });
      continue;
    }
    if (char === '$' && i + 1 < length && isWordStart(text.charCodeAt(i + 1))) {
      i += 2;
      while (i < length && isWordPart(text.charCodeAt(i))) i += 1;
      tokens.push({ kind: 'variable', text: text.slice(start, i), start, end: i });
      continue;
    }
    if (isWordStart(text.charCodeAt(i))) {
      i += 1;
      while (i < length && isWordPart(text.charCodeAt(i))) i += 1;
      tokens.push({ kind: 'word', text: text.slice(start, i), start, end: i });
      continue;
    }
    if (char >= '0' && char <= '9') {
      i += 1;
      while (i < length && isNumberPart(text.charCodeAt(i))) i += 1;
      tokens.push({ kind: 'number', text: text.slice(start, i), start, end: i });
      continue;
    }
    const pair = text.slice(i, i + 2);
    i += TWO_CHAR_PUNCT.has(pair) ? 2 : 1;
    tokens.push({ kind: 'punct', text: text.slice(start, i), start, end: i });
  }
  return tokens;
}

/** PHP's escapes of a single-quoted literal: only `\\` and `\'`. */
function decodeSingle(body: string): string {
  let out = '';
  for (let i = 0; i < body.length; i++) {
    if (body[i] === '\\' && (body[i + 1] === '\\' || body[i + 1] === "'")) {
      out += body[i + 1];
      i += 1;
    } else out += body[i];
  }
  return out;
}

const SIMPLE_ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', v: '\v', e: '\x1b', f: '\f', '\\': '\\', $: '$', '"': '"' };

/** PHP's escapes of a double-quoted literal (variables are left as written). */
function decodeDouble(body: string): string {
  let out = '';
  for (let i = 0; i < body.length; i++) {
    const char = body[i];
    if (char !== '\\' || i + 1 >= body.length) {
      out += char;
      continue;
    }
    const next = body[i + 1];
    if (SIMPLE_ESCAPES[next] !== undefined) {
      out += SIMPLE_ESCAPES[next];
      i += 1;
      continue;
    }
    const octal = /^[0-7]{1,3}/.exec(body.slice(i + 1, i + 4));
    if (octal) {
      out += String.fromCharCode(parseInt(octal[0], 8) & 0xff);
      i += octal[0].length;
      continue;
    }
    const hex = next === 'x' ? /^[0-9A-Fa-f]{1,2}/.exec(body.slice(i + 2, i + 4)) : null;
    if (hex) {
      out += String.fromCharCode(parseInt(hex[0], 16));
      i += 1 + hex[0].length;
      continue;
    }
    const unicode = next === 'u' ? /^\{([0-9A-Fa-f]{1,6})\}/.exec(body.slice(i + 2, i + 10)) : null;
    if (unicode && parseInt(unicode[1], 16) <= 0x10ffff) {
      out += String.fromCodePoint(parseInt(unicode[1], 16));
      i += 1 + unicode[0].length;
      continue;
    }
    out += char;
  }
  return out;
}

/** The value of a string token. */
export function stringValue(token: PhpToken): string {
  const body = token.text.slice(1, -1);
  return token.quote === '"' ? decodeDouble(body) : decodeSingle(body);
}

/** A text as a PHP literal in the given quote style (newlines as `\n` in double quotes). */
export function encodePhpString(value: string, quote: "'" | '"'): string {
  if (quote === "'") {
    let out = '';
    for (let i = 0; i < value.length; i++) {
      const char = value[i];
      if (char === "'") out += "\\'";
      // A backslash needs doubling only where PHP would read it as an escape (before \ or ', or at the end).
      else if (char === '\\' && (i + 1 === value.length || value[i + 1] === '\\' || value[i + 1] === "'")) out += '\\\\';
      else out += char;
    }
    return `'${out}'`;
  }
  let out = '';
  for (const char of value) {
    if (char === '\\') out += '\\\\';
    else if (char === '"') out += '\\"';
    else if (char === '$') out += '\\$';
    else if (char === '\n') out += '\\n';
    else if (char === '\t') out += '\\t';
    else if (char === '\r') out += '\\r';
    else if (char === '\v') out += '\\v';
    else if (char === '\f') out += '\\f';
    else if (char === '\x1b') out += '\\e';
    else if (char < ' ' || char === '\x7f') out += `\\x${char.charCodeAt(0).toString(16).padStart(2, '0')}`;
    else out += char;
  }
  return `"${out}"`;
}
