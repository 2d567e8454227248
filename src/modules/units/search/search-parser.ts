// Weblate's search language (checks-suggestions-search.md §7.1), parsed into a tree. Pure: no SQL here (the
// compiler in search-compiler.ts turns the tree into a parameterised condition). Precedence NOT > AND > OR;
// juxtaposed terms are ANDed before OR as since Weblate 5.10.2 (`a b OR c` = `(a AND b) OR c`). Error texts
// are Weblate's [latest] ones (§7.8); the API prefixes them with "Could not parse query string: ".

export class SearchQueryError extends Error {
  override readonly name = 'SearchQueryError';
}

/** Bounds on what one query may cost to parse and compile (issue 13 item 5: user input is bounded). */
export const SEARCH_LIMITS = { queryLength: 2000, depth: 16, terms: 64, regexLength: 500 } as const;

export type SearchOperator = ':' | ':=' | ':>' | ':>=' | ':<' | ':<=';

export type SearchValue =
  | { kind: 'text'; text: string; quoted: boolean }
  | { kind: 'regex'; pattern: string }
  | { kind: 'range'; from: string; to: string };

export interface SearchTerm {
  type: 'term';
  /** Lower-cased field name; null for a bare word or phrase. */
  field: string | null;
  operator: SearchOperator;
  value: SearchValue;
}

export type SearchNode = SearchTerm | { type: 'and' | 'or'; children: SearchNode[] } | { type: 'not'; child: SearchNode };

type Token = { kind: 'open' | 'close' | 'and' | 'or' | 'not'; at: number } | { kind: 'term'; term: SearchTerm; at: number };

const FIELD = /^([A-Za-z_]+)(:=|:>=|:<=|:>|:<|:)/;
// A URL or mail address is a bare word, not a field lookup (§7.1).
const NOT_FIELDS = new Set(['http', 'https', 'ftp', 'mailto']);
// [latest] range bounds: letters, digits and `:` `.` `_` `-` (so `[20_days_ago to yesterday]` works).
const RANGE = /^\[\s*([A-Za-z0-9:._-]+)\s+to\s+([A-Za-z0-9:._-]+)\s*\]/i;

function parseError(detail: string): SearchQueryError {
  return new SearchQueryError(`Failed to parse the query string: ${detail}`);
}

/** `"…"` or `'…'` starting at `start`; the text up to the matching quote. */
function readQuoted(text: string, start: number): { value: string; end: number } {
  const close = text.indexOf(text[start], start + 1);
  if (close < 0) throw parseError(`unterminated quoted string at position ${start + 1}`);
  return { value: text.slice(start + 1, close), end: close + 1 };
}

/** `r"…"`: a backslash-escaped quote does not end the pattern (it stays in it: `\"` is a literal quote to PostgreSQL). */
function readRegex(text: string, start: number): { value: string; end: number } {
  const quote = text[start + 1];
  let i = start + 2;
  while (i < text.length && text[i] !== quote) i += text[i] === '\\' ? 2 : 1;
  if (i >= text.length) throw parseError(`unterminated regular expression at position ${start + 1}`);
  const pattern = text.slice(start + 2, i);
  if (pattern.length > SEARCH_LIMITS.regexLength) throw new SearchQueryError(`Invalid regular expression: longer than ${SEARCH_LIMITS.regexLength} characters`);
  return { value: pattern, end: i + 1 };
}

/** A word: up to whitespace or a quote; closing parentheses at its end belong to the grammar, not the word. */
function readWord(text: string, start: number): { value: string; end: number } {
  let end = start;
  while (end < text.length && !/\s/.test(text[end]) && text[end] !== '"' && text[end] !== "'") end += 1;
  while (end > start && text[end - 1] === ')') end -= 1;
  return { value: text.slice(start, end), end };
}

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const char = text[i];
    if (/\s/.test(char)) {
      i += 1;
      continue;
    }
    const at = i;
    if (char === '(' || char === ')') {
      tokens.push({ kind: char === '(' ? 'open' : 'close', at });
      i += 1;
      continue;
    }
    const field = FIELD.exec(text.slice(i));
    if (field && !NOT_FIELDS.has(field[1].toLowerCase())) {
      i += field[0].length;
      let value: SearchValue;
      const range = RANGE.exec(text.slice(i));
      if (text[i] === 'r' && (text[i + 1] === '"' || text[i + 1] === "'")) {
        const read = readRegex(text, i);
        value = { kind: 'regex', pattern: read.value };
        i = read.end;
      } else if (text[i] === '"' || text[i] === "'") {
        const read = readQuoted(text, i);
        value = { kind: 'text', text: read.value, quoted: true };
        i = read.end;
      } else if (range) {
        value = { kind: 'range', from: range[1], to: range[2] };
        i += range[0].length;
      } else {
        const read = readWord(text, i);
        if (read.value === '') throw parseError(`expected a value after "${field[0]}" at position ${i + 1}`);
        value = { kind: 'text', text: read.value, quoted: false };
        i = read.end;
      }
      tokens.push({ kind: 'term', at, term: { type: 'term', field: field[1].toLowerCase(), operator: field[2] as SearchOperator, value } });
      continue;
    }
    if (char === 'r' && (text[i + 1] === '"' || text[i + 1] === "'")) {
      const read = readRegex(text, i);
      tokens.push({ kind: 'term', at, term: { type: 'term', field: null, operator: ':', value: { kind: 'regex', pattern: read.value } } });
      i = read.end;
      continue;
    }
    if (char === '"' || char === "'") {
      const read = readQuoted(text, i);
      tokens.push({ kind: 'term', at, term: { type: 'term', field: null, operator: ':', value: { kind: 'text', text: read.value, quoted: true } } });
      i = read.end;
      continue;
    }
    const read = readWord(text, i);
    i = read.end;
    const keyword = read.value.toUpperCase();
    if (keyword === 'AND' || keyword === 'OR' || keyword === 'NOT') tokens.push({ kind: keyword.toLowerCase() as 'and' | 'or' | 'not', at });
    else tokens.push({ kind: 'term', at, term: { type: 'term', field: null, operator: ':', value: { kind: 'text', text: read.value, quoted: false } } });
  }
  return tokens;
}

class Parser {
  private index = 0;
  private depth = 0;

  constructor(private readonly tokens: Token[]) {}

  parse(): SearchNode {
    const node = this.or();
    const extra = this.tokens[this.index];
    if (extra) throw parseError(extra.kind === 'close' ? `unbalanced parenthesis at position ${extra.at + 1}` : `unexpected input at position ${extra.at + 1}`);
    return node;
  }

  private peek(): Token | undefined {
    return this.tokens[this.index];
  }

  private nest<T>(read: () => T): T {
    this.depth += 1;
    if (this.depth > SEARCH_LIMITS.depth) throw new SearchQueryError('Search query is too complex.');
    try {
      return read();
    } finally {
      this.depth -= 1;
    }
  }

  private or(): SearchNode {
    const children = [this.and()];
    while (this.peek()?.kind === 'or') {
      this.index += 1;
      children.push(this.and());
    }
    return children.length === 1 ? children[0] : { type: 'or', children };
  }

  private and(): SearchNode {
    const children = [this.not()];
    for (;;) {
      const next = this.peek();
      if (next?.kind === 'and') {
        this.index += 1;
        children.push(this.not());
      } else if (next && next.kind !== 'or' && next.kind !== 'close') {
        children.push(this.not());
      } else {
        break;
      }
    }
    return children.length === 1 ? children[0] : { type: 'and', children };
  }

  private not(): SearchNode {
    if (this.peek()?.kind === 'not') {
      this.index += 1;
      return this.nest(() => ({ type: 'not', child: this.not() }));
    }
    return this.primary();
  }

  private primary(): SearchNode {
    const token = this.peek();
    if (!token) throw parseError('unexpected end of the query');
    this.index += 1;
    if (token.kind === 'term') return token.term;
    if (token.kind === 'open') {
      const inner = this.nest(() => this.or());
      if (this.peek()?.kind !== 'close') throw parseError(`unbalanced parenthesis at position ${token.at + 1}`);
      this.index += 1;
      return inner;
    }
    throw parseError(`unexpected ${token.kind === 'close' ? '")"' : token.kind.toUpperCase()} at position ${token.at + 1}`);
  }
}

/** The tree of `q`, or null for an empty query (which matches everything, §7.1). */
export function parseSearchQuery(q: string): SearchNode | null {
  if (q.includes('\0')) throw new SearchQueryError('Invalid character in the query string');
  if (q.length > SEARCH_LIMITS.queryLength) throw new SearchQueryError('Search query is too complex.');
  const tokens = tokenize(q);
  if (tokens.length === 0) return null;
  if (tokens.filter((token) => token.kind === 'term').length > SEARCH_LIMITS.terms) throw new SearchQueryError('Search query is too complex.');
  return new Parser(tokens).parse();
}
