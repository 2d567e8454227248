// A fast reader for the shape most translation YAML files have: nested block mappings of plain keys and
// one-line plain / single-quoted / double-quoted strings, with comments and blank lines. The `yaml`
// package's full document parse costs about 20 µs per entry (1 s for 50,000 units), which is too slow for
// large files (issue 11 performance target); this scanner is one linear pass. It returns null at the first
// line outside that shape (sequences, block scalars, anchors, tags, flow collections, numbers, booleans...),
// and the caller then uses the full parser, so both paths give the same units.

const PLAIN_KEY = /^[A-Za-z_$][\w.\-/$]*$/;
/** Keys YAML would not read as the plain string they spell. */
const NON_STRING_KEY = /^(?:null|Null|NULL|true|True|TRUE|false|False|FALSE|y|Y|n|N)$/;
/** Plain values YAML 1.2 reads as null, booleans or numbers; the full parser handles those. */
const NON_STRING_VALUE = /^(?:~|null|Null|NULL|true|True|TRUE|false|False|FALSE|[-+]?\.?[0-9].*|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$/;
const PLAIN_FIRST = /[-?:,[\]{}#&*!|>'"%@`]/;
const JSON_ESCAPE = /\\[^"\\/bfnrtu]/;

export type FastStyle = 'PLAIN' | 'QUOTE_SINGLE' | 'QUOTE_DOUBLE';

export interface FastScalar {
  kind: 'scalar';
  /** null for an empty value (YAML null). */
  text: string | null;
  start: number;
  end: number;
  style: FastStyle;
}

export interface FastMap {
  kind: 'map';
  pairs: FastPair[];
}

export interface FastPair {
  key: string;
  line: number;
  value: FastScalar | FastMap;
}

interface Frame {
  map: FastMap;
  indent: number;
}

/** The scalar after `key:` on one line, or undefined when the line is outside the fast shape. */
function readValue(line: string, from: number, base: number): FastScalar | undefined {
  let i = from;
  while (line[i] === ' ') i += 1;
  const rest = line.slice(i);
  if (rest === '' || rest.startsWith('#')) return { kind: 'scalar', text: null, start: base + i, end: base + i, style: 'PLAIN' };
  const trailingOk = (after: string): boolean => /^\s*(?:#.*)?$/.test(after) && (after === '' || /^\s/.test(after));
  if (rest[0] === '"') {
    let j = 1;
    while (j < rest.length && rest[j] !== '"') j += rest[j] === '\\' ? 2 : 1;
    if (j >= rest.length || !trailingOk(rest.slice(j + 1))) return undefined;
    const body = rest.slice(1, j);
    if (!body.includes('\\') && !/[\x00-\x1f]/.test(body)) return { kind: 'scalar', text: body, start: base + i, end: base + i + j + 1, style: 'QUOTE_DOUBLE' };
    if (JSON_ESCAPE.test(body)) return undefined;
    try {
      return { kind: 'scalar', text: JSON.parse(`"${body}"`) as string, start: base + i, end: base + i + j + 1, style: 'QUOTE_DOUBLE' };
    } catch {
      return undefined;
    }
  }
  if (rest[0] === "'") {
    let j = 1;
    for (;;) {
      const close = rest.indexOf("'", j);
      if (close === -1) return undefined;
      if (rest[close + 1] === "'") {
        j = close + 2;
        continue;
      }
      j = close;
      break;
    }
    if (!trailingOk(rest.slice(j + 1))) return undefined;
    return { kind: 'scalar', text: rest.slice(1, j).replace(/''/g, "'"), start: base + i, end: base + i + j + 1, style: 'QUOTE_SINGLE' };
  }
  if (PLAIN_FIRST.test(rest[0]) || rest.includes(': ') || rest.includes('\t')) return undefined;
  const comment = rest.indexOf(' #');
  const value = (comment === -1 ? rest : rest.slice(0, comment)).trimEnd();
  if (value.endsWith(':') || NON_STRING_VALUE.test(value)) return undefined;
  return { kind: 'scalar', text: value, start: base + i, end: base + i + value.length, style: 'PLAIN' };
}

/** The document as nested maps, or null when the text needs the full parser. */
export function readFastYaml(text: string): FastMap | null {
  const root: FastMap = { kind: 'map', pairs: [] };
  const stack: Frame[] = [{ map: root, indent: 0 }];
  /** The last pair whose value was empty: the next deeper line makes it a mapping. */
  let pending: { pair: FastPair; indent: number } | null = null;
  let offset = 0;
  let lineNumber = 0;
  while (offset <= text.length) {
    const newline = text.indexOf('\n', offset);
    const lineEnd = newline === -1 ? text.length : newline;
    let line = text.slice(offset, lineEnd);
    if (line.endsWith('\r')) line = line.slice(0, -1);
    lineNumber += 1;
    const base = offset;
    offset = lineEnd + 1;
    let indent = 0;
    while (line[indent] === ' ') indent += 1;
    if (indent === line.length || line[indent] === '#') {
      if (newline === -1) break;
      continue;
    }
    if (line[indent] === '\t' || (indent === 0 && (line.startsWith('---') || line.startsWith('...') || line.startsWith('%')))) return null;
    const colon = line.indexOf(':', indent);
    if (colon === -1 || (colon + 1 < line.length && line[colon + 1] !== ' ')) return null;
    const key = line.slice(indent, colon);
    if (!PLAIN_KEY.test(key) || NON_STRING_KEY.test(key)) return null;
    if (pending && indent > pending.indent) {
      const map: FastMap = { kind: 'map', pairs: [] };
      pending.pair.value = map;
      stack.push({ map, indent });
    } else {
      while (stack.length > 1 && stack[stack.length - 1].indent > indent) stack.pop();
      if (stack[stack.length - 1].indent !== indent) return null;
    }
    pending = null;
    const value = readValue(line, colon + 1, base);
    if (!value) return null;
    const pair: FastPair = { key, line: lineNumber, value };
    stack[stack.length - 1].map.pairs.push(pair);
    if (value.text === null) pending = { pair, indent };
    if (newline === -1) break;
  }
  return root;
}

export interface FastLeaf {
  context: string;
  texts: string[];
  line: number;
  plural: boolean;
  /** The scalar of a non-plural leaf. */
  scalar?: FastScalar;
}

/** Category names as the plural table spells them (kept local to stay a leaf module). */
const CATEGORY_NAMES = new Set(['zero', 'one', 'two', 'few', 'many', 'other']);

/**
 * The leaves of a fast-read document in file order, with the same rules as walkYamlTree (yaml-tree.ts):
 * `->` paths, nulls skipped, Ruby language root and category maps as plural units.
 */
export function fastLeaves(root: FastMap, ruby: boolean, pluralTexts: (forms: Map<string, string | null>) => string[]): FastLeaf[] {
  const leaves: FastLeaf[] = [];
  let top = root;
  const only = root.pairs.length === 1 ? root.pairs[0] : undefined;
  if (ruby && only && only.value.kind === 'map') top = only.value;
  const visit = (map: FastMap, prefix: string): void => {
    for (const pair of map.pairs) {
      const context = prefix === '' ? pair.key : `${prefix}->${pair.key}`;
      const value = pair.value;
      if (value.kind === 'scalar') {
        if (value.text !== null) leaves.push({ context, texts: [value.text], line: pair.line, plural: false, scalar: value });
        continue;
      }
      if (ruby && value.pairs.length > 0 && value.pairs.every((child) => CATEGORY_NAMES.has(child.key) && child.value.kind === 'scalar')) {
        const forms = new Map<string, string | null>();
        for (const child of value.pairs) if (!forms.has(child.key)) forms.set(child.key, (child.value as FastScalar).text);
        leaves.push({ context, texts: pluralTexts(forms), line: pair.line, plural: true });
        continue;
      }
      visit(value, context);
    }
  };
  visit(top, '');
  return leaves;
}

/** The Ruby language root key of a fast-read document, if it has one. */
export function fastLanguageKey(root: FastMap): string | undefined {
  return root.pairs.length === 1 && root.pairs[0].value.kind === 'map' ? root.pairs[0].key : undefined;
}
