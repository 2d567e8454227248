// Finds the translatable strings of a PHP file the way translate-toolkit's php store names them
// (formats.md §3.15, checked against translate-toolkit 3.8.4):
//   $LANG['title'] = 'x';            -> $LANG['title']        (the raw left-hand side, right-trimmed)
//   $messages = array('k' => 'x');   -> $messages->'k'
//   $short = ['k' => ['i' => 'x']];  -> $short[]->'k'[]->'i' (a `[…]` array adds `[]` to its name)
//   define('NAME', 'x');             -> define('NAME'         (sic: the raw text up to the comma)
//   return ['k' => 'x'];             -> return[]->'k'
// Keys are re-quoted with single quotes around their decoded value, integer keys stay bare, elements without
// a key are `[]`. Comments since the previous string become its note.

import { FormatParseError } from '../format';
import type { LineIndex } from '../yaml/text-patch';
import { stringValue, tokenizePhp, type PhpToken } from './php-tokenizer';

/** Statements read past without looking inside (declarations, definitions and their blocks). */
const SKIPPED_STATEMENTS = new Set(['namespace', 'use', 'declare', 'require', 'require_once', 'include', 'include_once', 'function', 'class', 'abstract', 'final', 'readonly', 'interface', 'trait', 'enum']);

/** Nesting deeper than this is refused (hostile input). */
const MAX_DEPTH = 100;

export interface PhpEntry {
  context: string;
  value: string;
  /** The literal tokens holding the value (several for a `'a' . 'b'` concatenation). */
  literals: PhpToken[];
  /** Where the whole entry (element or statement) starts and ends, for removal. */
  start: number;
  end: number;
  note: string;
  line: number;
}

/** An array literal of the file, for appending new elements to it. */
export interface PhpArray {
  name: string;
  open: PhpToken;
  close: PhpToken;
  /** End offset of the last element (before any trailing comma); absent for an empty array. */
  lastElementEnd?: number;
  hasTrailingComma: boolean;
  /** First element's start, for indentation. */
  firstElementStart?: number;
  quote: "'" | '"';
}

export interface PhpFile {
  entries: PhpEntry[];
  arrays: Map<string, PhpArray>;
  tokens: PhpToken[];
  /** Offset of a final `?>` (new statements go before it), else the text length. */
  appendAt: number;
}

/** The context spelling of an array key token. */
function keyName(tokens: PhpToken[]): string | null {
  if (tokens.length === 1 && tokens[0].kind === 'string') return `'${stringValue(tokens[0])}'`;
  if (tokens.length === 1 && tokens[0].kind === 'number' && /^[0-9]+$/.test(tokens[0].text)) return String(Number(tokens[0].text));
  if (tokens.length === 2 && tokens[0].text === '-' && tokens[1].kind === 'number') return `-${tokens[1].text}`;
  if (tokens.length > 1 && tokens.every((token, index) => (index % 2 === 1 ? token.text === '.' : token.kind === 'string'))) {
    return `'${tokens.filter((token) => token.kind === 'string').map(stringValue).join('')}'`;
  }
  return null;
}

export function readPhpFile(text: string, lines: LineIndex, onEntry: (entry: PhpEntry) => void): PhpFile {
  const tokens = tokenizePhp(text, lines);
  const code = tokens.filter((token) => token.kind !== 'comment');
  const commentsBefore: string[] = [];
  const arrays = new Map<string, PhpArray>();
  const entries: PhpEntry[] = [];
  // Comments are collected as the code cursor passes them.
  let commentCursor = 0;
  const collectCommentsUpTo = (offset: number): void => {
    while (commentCursor < tokens.length && tokens[commentCursor].start < offset) {
      if (tokens[commentCursor].kind === 'comment') commentsBefore.push(tokens[commentCursor].text.trim());
      commentCursor += 1;
    }
  };
  const fail = (token: PhpToken | undefined, problem: string): never => {
    throw new FormatParseError(`line ${lines.line(token?.start ?? text.length)}: ${problem}`);
  };
  const emit = (context: string, literals: PhpToken[], start: number, end: number, lineOffset: number): void => {
    collectCommentsUpTo(literals[literals.length - 1].end);
    const entry: PhpEntry = {
      context,
      value: literals.map(stringValue).join(''),
      literals,
      start,
      end,
      note: commentsBefore.join('\n'),
      line: lines.line(lineOffset),
    };
    commentsBefore.length = 0;
    entries.push(entry);
    onEntry(entry);
  };

  let pos = 0;
  const peek = (offset = 0): PhpToken | undefined => code[pos + offset];

  /** Index just past the balanced expression starting at pos, stopping at `,` `;` or a closing bracket. */
  const skipExpression = (closeText: string): void => {
    let depth = 0;
    while (pos < code.length) {
      const t = code[pos].text;
      if (depth === 0 && (t === ',' || t === ';' || t === ')' || t === ']' || t === '}')) return;
      // Two operands in a row (`'b' 'c'`) mean a missing comma.
      if (depth === 0 && pos > 0 && code[pos].kind === 'string' && ['string', 'number', 'variable'].includes(code[pos - 1].kind)) {
        fail(code[pos], `expected "," or "${closeText}" in an array`);
      }
      if (t === '(' || t === '[' || t === '{') depth += 1;
      else if (t === ')' || t === ']' || t === '}') depth -= 1;
      pos += 1;
    }
  };

  /** A string literal or `'a' . 'b'` concatenation ending the expression, or null. */
  const readStringExpression = (): PhpToken[] | null => {
    const literals: PhpToken[] = [];
    let cursor = pos;
    for (;;) {
      const token = code[cursor];
      if (token?.kind !== 'string') return null;
      literals.push(token);
      cursor += 1;
      if (code[cursor]?.text !== '.') break;
      cursor += 1;
    }
    const after = code[cursor]?.text;
    if (after !== ',' && after !== ';' && after !== ')' && after !== ']') return null;
    pos = cursor;
    return literals;
  };

  const isArrayStart = (): boolean => peek()?.text === '[' || (peek()?.kind === 'word' && peek()?.text.toLowerCase() === 'array' && peek(1)?.text === '(');

  const readArray = (prefix: string, depth: number): void => {
    if (depth > MAX_DEPTH) fail(peek(), `arrays nested deeper than ${MAX_DEPTH} levels`);
    const short = peek()?.text === '[';
    if (!short) pos += 1;
    const open = code[pos];
    const closeText = short ? ']' : ')';
    const name = prefix + (short ? '[]' : '');
    pos += 1;
    const info: PhpArray = { name, open, close: open, hasTrailingComma: false, quote: "'" };
    while (pos < code.length && code[pos].text !== closeText) {
      const elementStart = code[pos];
      info.firstElementStart ??= elementStart.start;
      // Find `=>` at this level to split key and value.
      const keyTokens: PhpToken[] = [];
      let arrow = -1;
      for (let scan = pos, depthScan = 0; scan < code.length; scan++) {
        const t = code[scan].text;
        if (depthScan === 0 && (t === ',' || t === closeText)) break;
        if (depthScan === 0 && t === '=>') {
          arrow = scan;
          break;
        }
        if (t === '(' || t === '[' || t === '{') depthScan += 1;
        else if (t === ')' || t === ']' || t === '}') depthScan -= 1;
        if (depthScan < 0) break;
      }
      let key: string | null = '[]';
      if (arrow !== -1) {
        for (let k = pos; k < arrow; k++) keyTokens.push(code[k]);
        key = keyName(keyTokens);
        pos = arrow + 1;
      }
      const elementName = `${name}->${key}`;
      if (key !== null && isArrayStart()) {
        readArray(elementName, depth + 1);
      } else {
        const valueStart = pos;
        const literals = key !== null ? readStringExpression() : null;
        if (literals && literals.length === 1) {
          info.quote = literals[0].quote ?? "'";
          emit(elementName, literals, elementStart.start, literals[0].end, elementStart.start);
        } else if (literals) {
          // translate-toolkit skips a concatenation inside an array; dropping a string silently is worse
          // than refusing the file (issue 11 item 6), so it is an error naming the key.
          fail(literals[0], `cannot read "${elementName}": a concatenation inside an array (write it as one string)`);
        } else {
          skipExpression(closeText);
          if (pos === valueStart) fail(code[pos], 'expected a value in an array');
          if (hasString(valueStart, pos)) {
            fail(code[valueStart], key === null ? 'cannot read an array key that is not a string or an integer' : `cannot read "${elementName}": only strings, their concatenations and arrays are read`);
          }
        }
      }
      info.lastElementEnd = code[pos - 1].end;
      info.hasTrailingComma = false;
      if (code[pos]?.text === ',') {
        info.hasTrailingComma = true;
        pos += 1;
      } else if (code[pos]?.text !== closeText) fail(code[pos], `expected "," or "${closeText}" in an array`);
    }
    if (pos >= code.length) fail(open, 'unclosed array');
    info.close = code[pos];
    pos += 1;
    if (!arrays.has(name)) arrays.set(name, info);
  };

  /** Skips one statement: up to `;` at depth 0, or a balanced `{…}` block. */
  const skipStatement = (): void => {
    let depth = 0;
    while (pos < code.length) {
      const t = code[pos].text;
      pos += 1;
      if (t === '(' || t === '[' || t === '{') depth += 1;
      else if (t === ')' || t === ']' || t === '}') {
        depth -= 1;
        if (depth <= 0 && t === '}') return;
      } else if (t === ';' && depth <= 0) return;
    }
  };

  /** Whether code[from, to) holds a string literal: a value the reader would drop if it skipped it. */
  const hasString = (from: number, to: number): boolean => code.slice(from, to).some((token) => token.kind === 'string');

  /**
   * Skips the rest of a statement whose value the reader cannot read; refused when that would drop a string
   * or the value is missing (`$a = ;`). Values without strings (numbers, constants, calls) hold nothing to
   * translate and are skipped as translate-toolkit skips them.
   */
  const skipValue = (what: string): void => {
    const from = pos;
    skipStatement();
    if (code[from]?.text === ';') fail(code[from], `expected a value for ${what}`);
    if (hasString(from, pos)) fail(code[from], `cannot read the value of ${what}: only strings, their concatenations and arrays are read`);
  };

  const endStatement = (): number => {
    if (peek()?.text !== ';') fail(peek(), 'expected ";"');
    pos += 1;
    return code[pos - 1].end;
  };

  while (pos < code.length) {
    const first = code[pos];
    if (first.kind === 'variable') {
      // $name ( [ … ] )* = …
      let cursor = pos + 1;
      while (code[cursor]?.text === '[') {
        let depth = 0;
        for (; cursor < code.length; cursor++) {
          if (code[cursor].text === '[') depth += 1;
          else if (code[cursor].text === ']' && --depth === 0) break;
        }
        cursor += 1;
      }
      if (code[cursor]?.text === '=') {
        const name = text.slice(first.start, code[cursor].start).trimEnd();
        pos = cursor + 1;
        if (isArrayStart()) {
          readArray(name, 0);
          endStatement();
          continue;
        }
        const literals = readStringExpression();
        if (literals && peek()?.text === ';') {
          emit(name, literals, first.start, endStatement(), first.start);
          continue;
        }
        skipValue(`"${name}"`);
        continue;
      }
      fail(first, `unsupported statement starting with "${first.text}" (only assignments, define() and return are read)`);
    }
    if (first.kind === 'word' && first.text.toLowerCase() === 'define' && peek(1)?.text === '(' && peek(2)?.kind === 'string' && peek(3)?.text === ',') {
      const name = text.slice(first.start, code[pos + 3].start).trimEnd();
      pos += 4;
      const literals = readStringExpression();
      if (literals && peek()?.text === ')' && peek(1)?.text === ';') {
        pos += 1;
        emit(name, literals, first.start, endStatement(), first.start);
        continue;
      }
      skipValue(`"${name}"`);
      continue;
    }
    if (first.kind === 'word' && first.text.toLowerCase() === 'return') {
      pos += 1;
      if (isArrayStart()) {
        readArray('return', 0);
        endStatement();
        continue;
      }
      skipValue('return');
      continue;
    }
    // Code around the strings that translate-toolkit reads past: declarations and blocks whose contents are
    // not translations (formats.md §3.15). Anything else is a statement the reader does not understand, and a
    // file it cannot fully read is refused with the line rather than read with strings missing.
    if ((first.kind === 'word' && SKIPPED_STATEMENTS.has(first.text.toLowerCase())) || first.text === ';') {
      skipStatement();
      continue;
    }
    fail(first, `unsupported statement starting with "${first.text}" (only assignments, define() and return are read)`);
  }

  const closing = tokens.length > 0 && text.slice(tokens[tokens.length - 1].start).startsWith('?>') ? tokens[tokens.length - 1].start : text.length;
  return { entries, arrays, tokens, appendAt: closing };
}
