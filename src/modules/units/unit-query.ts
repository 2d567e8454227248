// A safe subset of Weblate's unit search language (`q`, weblate-api.md §7.1), compiled to a parameterised SQL
// condition over the `units u` alias. Supported: bare words and quoted phrases (substring of source, target or
// context, case-insensitive), `source:` `target:` `context:` `key:` `note:` `location:` `explanation:` (substring;
// `field:=value` for an exact match), `state:` with a state name and an optional operator, `position:` `id:`
// `priority:` with integers and operators, `is:` and `has:` flags, and `AND` / juxtaposition. Anything else
// (OR, NOT, parentheses, regular expressions, other fields) is rejected with UnitQueryError, which the API
// reports as 400, rather than silently matching something different from what Weblate would.

export class UnitQueryError extends Error {
  override readonly name = 'UnitQueryError';
}

type Operator = '' | '=' | '>' | '>=' | '<' | '<=';

interface Term {
  field: string | null;
  operator: Operator;
  value: string;
}

const TEXT_FIELDS: Readonly<Record<string, string>> = {
  source: 'u.source',
  target: 'u.target',
  context: 'u.context',
  key: 'u.context',
  note: 'u.note',
  location: 'u.location',
  explanation: 'u.explanation',
};

const NUMERIC_FIELDS: Readonly<Record<string, string>> = { position: 'u.position', id: 'u.id', priority: 'u.priority' };

/** State names of §7.1 and their codes (§8.2). */
const STATE_NAMES: Readonly<Record<string, number>> = {
  empty: 0,
  untranslated: 0,
  'needs-editing': 10,
  fuzzy: 10,
  'needs-rewriting': 11,
  'needs-checking': 12,
  translated: 20,
  approved: 30,
  'read-only': 100,
  readonly: 100,
};

const IS_CONDITIONS: Readonly<Record<string, string>> = {
  translated: 'u.state >= 20',
  untranslated: 'u.state < 20',
  'needs-editing': 'u.state BETWEEN 10 AND 12',
  fuzzy: 'u.state BETWEEN 10 AND 12',
  approved: 'u.state = 30',
  'read-only': 'u.state = 100',
  readonly: 'u.state = 100',
  pending: 'u.pending',
};

const HAS_CONDITIONS: Readonly<Record<string, string>> = {
  suggestion: 'u.has_suggestion',
  comment: 'u.has_comment',
  check: 'u.has_failing_check',
  plural: `strpos(u.source, chr(30) || chr(30)) > 0`,
  context: `u.context <> ''`,
  note: `u.note <> ''`,
  location: `u.location <> ''`,
  explanation: `u.explanation <> ''`,
  flags: `(u.flags <> '' OR u.extra_flags <> '')`,
};

const FIELD_PREFIX = /^([a-z_]+):/;
const OPERATOR = /^(>=|<=|>|<|=)/;

function readQuoted(text: string, start: number): { value: string; end: number } {
  const quote = text[start];
  const close = text.indexOf(quote, start + 1);
  if (close < 0) throw new UnitQueryError(`Unterminated quoted string at position ${start + 1}`);
  return { value: text.slice(start + 1, close), end: close + 1 };
}

function readBare(text: string, start: number): { value: string; end: number } {
  let end = start;
  while (end < text.length && !/\s/.test(text[end])) end += 1;
  return { value: text.slice(start, end), end };
}

export function tokenize(text: string): Term[] {
  const terms: Term[] = [];
  let i = 0;
  while (i < text.length) {
    if (/\s/.test(text[i])) {
      i += 1;
      continue;
    }
    const char = text[i];
    if (char === '(' || char === ')') throw new UnitQueryError('Grouping with parentheses is not supported');
    if (char === '"' || char === "'") {
      const { value, end } = readQuoted(text, i);
      terms.push({ field: null, operator: '', value });
      i = end;
      continue;
    }
    const field = FIELD_PREFIX.exec(text.slice(i));
    if (field) {
      i += field[0].length;
      const operator = OPERATOR.exec(text.slice(i));
      if (operator) i += operator[0].length;
      if (text[i] === 'r' && (text[i + 1] === '"' || text[i + 1] === "'")) {
        throw new UnitQueryError('Regular expression lookups are not supported');
      }
      const read = text[i] === '"' || text[i] === "'" ? readQuoted(text, i) : readBare(text, i);
      if (read.value === '') throw new UnitQueryError(`Missing value for "${field[1]}"`);
      terms.push({ field: field[1], operator: (operator?.[1] ?? '') as Operator, value: read.value });
      i = read.end;
      continue;
    }
    const { value, end } = readBare(text, i);
    i = end;
    const keyword = value.toUpperCase();
    if (keyword === 'AND') continue;
    if (keyword === 'OR' || keyword === 'NOT') throw new UnitQueryError(`Operator ${keyword} is not supported`);
    terms.push({ field: null, operator: '', value });
  }
  return terms;
}

const escapeLike = (value: string): string => `%${value.replace(/[\\%_]/g, '\\$&')}%`;

function comparison(column: string, operator: Operator, placeholder: string): string {
  return `${column} ${operator === '' ? '=' : operator} ${placeholder}`;
}

function compileTerm(term: Term, param: (value: unknown) => string): string {
  const { field, operator, value } = term;
  if (field === null) {
    const p = param(escapeLike(value));
    return `(u.source ILIKE ${p} OR u.target ILIKE ${p} OR u.context ILIKE ${p})`;
  }
  if (field in TEXT_FIELDS) {
    const column = TEXT_FIELDS[field];
    if (operator === '') return `${column} ILIKE ${param(escapeLike(value))}`;
    if (operator === '=') return `${column} = ${param(value)}`;
    throw new UnitQueryError(`Operator ${operator} is not supported for "${field}"`);
  }
  if (field in NUMERIC_FIELDS) {
    if (!/^\d+$/.test(value)) throw new UnitQueryError(`Invalid number for "${field}": ${value}`);
    return comparison(NUMERIC_FIELDS[field], operator, param(Number(value)));
  }
  if (field === 'state') {
    const code = STATE_NAMES[value.toLowerCase()];
    if (code === undefined) throw new UnitQueryError(`Unsupported state: ${value}`);
    return comparison('u.state', operator, param(code));
  }
  if (field === 'is' || field === 'has') {
    const table = field === 'is' ? IS_CONDITIONS : HAS_CONDITIONS;
    const condition = table[value.toLowerCase()];
    if (operator !== '' || condition === undefined) throw new UnitQueryError(`Unsupported lookup: ${field}:${operator}${value}`);
    return condition;
  }
  throw new UnitQueryError(`Unsupported field: ${field}`);
}

/**
 * Compiles `q` into a condition on `u`, appending its parameters to `params` (placeholders continue the
 * caller's numbering). Returns null for an empty query. Throws UnitQueryError for anything unsupported.
 */
export function compileUnitQuery(q: string, params: unknown[]): string | null {
  const terms = tokenize(q);
  if (terms.length === 0) return null;
  const param = (value: unknown): string => {
    params.push(value);
    return `$${params.length}`;
  };
  return terms.map((term) => compileTerm(term, param)).join(' AND ');
}
