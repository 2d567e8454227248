// Placeholder recognition of the format checks (checks-suggestions-search.md §1.8) and the comparison of
// §1.9. Each format yields tokens in text order; escapes (`%%`, `{{`/`}}` of brace formats) are dropped, a
// printf `%` that starts no valid directive is an "incomplete" empty token that must match too. A token is
// "named" (order-free) when it carries a key or an argument index.

export interface Token {
  text: string;
  named: boolean;
}

export interface Extracted {
  tokens: Token[];
  /** A syntax problem of the text itself (a single `{` in a brace format, an unbalanced ICU message). */
  error?: string;
}

// printf-like grammars, each matched at a `%`. Groups: 1 = key or index (named), rest = the spec.
const PYTHON = /%(\([^)]*\))?[ +#-]*(?:\d+|\*)?(?:\.(?:\d+|\*))?(?:hh|h|ll|l)?([a-zA-Z%])/y;
const C_LIKE = /%(\d+\$)?[ +#'0-]*(?:\d+|\*)?(?:\.(?:\d+|\*))?(?:hh|h|ll|l|L|z|j|t|q)?([a-zA-Z%])/y;
const PHP = /%(\d+\$)?[ +#0-]*(?:'.)?(?:\d+)?(?:\.\d+)?(?:hh|h|ll|l)?([a-zA-Z%])/y;

function printf(text: string, grammar: RegExp): Extracted {
  const tokens: Token[] = [];
  for (let i = text.indexOf('%'); i >= 0; i = text.indexOf('%', i)) {
    grammar.lastIndex = i;
    const match = grammar.exec(text);
    if (!match) {
      // An incomplete directive (formats.md: recorded as an empty token, so it must be matched too).
      tokens.push({ text: '', named: false });
      i += 1;
      continue;
    }
    i = grammar.lastIndex;
    if (match[0] === '%%') continue;
    // The thousands-grouping apostrophe does not change the argument (`%'d` equals `%d`).
    tokens.push({ text: match[0].slice(1).replace(/'/g, ''), named: match[1] !== undefined });
  }
  return { tokens };
}

/** Python `str.format` fields: `{}`, `{0}`, `{name.attr[0]!r:spec}`; `{{` and `}}` are escapes. */
function pythonBrace(text: string): Extracted {
  const tokens: Token[] = [];
  const field = /\{([A-Za-z_0-9]*(?:\.[A-Za-z_][A-Za-z_0-9]*|\[[^\]{}]*\])*)(![rsa])?(:[^{}]*)?\}/y;
  let i = 0;
  let error: string | undefined;
  while (i < text.length) {
    const ch = text[i];
    if ((ch === '{' || ch === '}') && text[i + 1] === ch) {
      i += 2;
      continue;
    }
    if (ch === '{') {
      field.lastIndex = i;
      const match = field.exec(text);
      if (match) {
        tokens.push({ text: match[0], named: match[1] !== '' });
        i = field.lastIndex;
        continue;
      }
    }
    if (ch === '{' || ch === '}') error = `Single ${ch} encountered in the format string.`;
    i += 1;
  }
  return { tokens, error };
}

/** i18next `{{…}}` interpolation and `$t(…)` nesting; whitespace inside is not significant. */
function i18next(text: string): Extracted {
  const tokens: Token[] = [];
  for (const match of text.matchAll(/\{\{([^{}]*)\}\}|\$t\(([^()]*)\)/g)) {
    tokens.push({ text: match[0].replace(/\s+/g, ''), named: true });
  }
  return { tokens };
}

/**
 * ICU MessageFormat arguments: `{name}`, `{name, type}`, `{name, type, style or sub-messages}`. Compared by
 * name and type (§1.8). An apostrophe quotes a following `{`, `}`, `#`, `|` or another apostrophe. Errors:
 * unbalanced braces, an empty argument name, plural/select without an `other` sub-message.
 */
function icu(text: string): Extracted {
  const tokens: Token[] = [];
  let i = 0;
  const fail = (message: string): Extracted => ({ tokens, error: message });
  // Reads a message until `}` (inside a sub-message) or the end (top level).
  const message = (depth: number): string | null => {
    while (i < text.length) {
      const ch = text[i];
      if (ch === "'") {
        const next = text[i + 1];
        if (next === "'") {
          i += 2;
          continue;
        }
        if (next === '{' || next === '}' || next === '#' || next === '|') {
          const close = text.indexOf("'", i + 1);
          i = close < 0 ? text.length : close + 1;
          continue;
        }
        i += 1;
        continue;
      }
      if (ch === '}') {
        if (depth === 0) return 'Unexpected "}"';
        return null;
      }
      if (ch === '{') {
        i += 1;
        const problem = argument(depth);
        if (problem !== null) return problem;
        continue;
      }
      i += 1;
    }
    return depth === 0 ? null : 'Unclosed "{"';
  };
  const argument = (depth: number): string | null => {
    if (depth > 20) return 'Too deeply nested';
    const close = /[,}]/g;
    close.lastIndex = i;
    const end = close.exec(text);
    if (!end) return 'Unclosed "{"';
    const name = text.slice(i, end.index).trim();
    if (name === '' || /[\s{]/.test(name)) return 'Invalid argument name';
    i = end.index + 1;
    if (end[0] === '}') {
      tokens.push({ text: name, named: true });
      return null;
    }
    const typeEnd = /[,}]/g;
    typeEnd.lastIndex = i;
    const t = typeEnd.exec(text);
    if (!t) return 'Unclosed "{"';
    const type = text.slice(i, t.index).trim();
    tokens.push({ text: `${name}:${type}`, named: true });
    i = t.index + 1;
    if (t[0] === '}') return null;
    if (type === 'plural' || type === 'select' || type === 'selectordinal') {
      let hasOther = false;
      for (;;) {
        while (i < text.length && /\s/.test(text[i])) i += 1;
        if (text[i] === '}') {
          i += 1;
          return hasOther ? null : `Missing other sub-message for ${name}`;
        }
        const selector = /^(=?[^\s{}]+)\s*\{/.exec(text.slice(i, i + 200));
        if (!selector) {
          // `offset:N` in plurals.
          const offset = /^offset:\s*\d+/.exec(text.slice(i, i + 50));
          if (offset) {
            i += offset[0].length;
            continue;
          }
          return 'Invalid sub-message selector';
        }
        if (selector[1] === 'other') hasOther = true;
        i += selector[0].length;
        const problem = message(depth + 1);
        if (problem !== null) return problem;
        i += 1;
      }
    }
    // A simple style: everything up to the closing brace.
    const styleEnd = text.indexOf('}', i);
    if (styleEnd < 0) return 'Unclosed "{"';
    i = styleEnd + 1;
    return null;
  };
  const problem = message(0);
  return problem === null ? { tokens } : fail(problem);
}

/** Extractors by check id. */
export const FORMAT_EXTRACTORS: Readonly<Record<string, (text: string) => Extracted>> = {
  python_format: (text) => printf(text, PYTHON),
  c_format: (text) => printf(text, C_LIKE),
  javascript_format: (text) => printf(text, C_LIKE),
  php_format: (text) => printf(text, PHP),
  python_brace_format: pythonBrace,
  i18next_interpolation: i18next,
  icu_message_format: icu,
};

/** Missing (in source, not target) and extra (in target, not source) tokens of one pair of texts (§1.9). */
export interface Comparison {
  missing: string[];
  extra: string[];
}

export function compareTokens(source: readonly Token[], target: readonly Token[]): Comparison {
  const missing: string[] = [];
  const extra: string[] = [];
  const ordered = source.length === 0 || source.some((token) => !token.named);
  if (ordered) {
    const length = Math.max(source.length, target.length);
    for (let i = 0; i < length; i += 1) {
      const s = source[i];
      const t = target[i];
      if (s !== undefined && t !== undefined && s.text === t.text) continue;
      if (s !== undefined) missing.push(s.text);
      if (t !== undefined) extra.push(t.text);
    }
    return { missing, extra };
  }
  // Order-free: multisets must be equal.
  const counts = new Map<string, number>();
  for (const token of source) counts.set(token.text, (counts.get(token.text) ?? 0) + 1);
  for (const token of target) {
    const left = counts.get(token.text) ?? 0;
    if (left > 0) counts.set(token.text, left - 1);
    else extra.push(token.text);
  }
  for (const [text, left] of counts) for (let k = 0; k < left; k += 1) missing.push(text);
  return { missing, extra };
}
