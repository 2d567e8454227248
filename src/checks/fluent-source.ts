import {
  FluentParser,
  NumberLiteral,
  Placeable,
  SelectExpression,
  serializeExpression,
  StringLiteral,
  TextElement,
  type Expression,
  type Pattern,
} from '@fluent/syntax';

// Weblate's Fluent source checks (checks-suggestions-search.md §1.6, Weblate 5.0+; both off unless their flag
// is set, and the Fluent format sets both, §2.3):
//   fluent-source-syntax     — the source text is not one valid Fluent pattern;
//   fluent-source-inner-html — the source value, read as an element's innerHTML, would lose text or open
//                              markup by accident (an unclosed or mismatched tag, a `<` or `&` right before a
//                              placeable, an unquoted attribute value, a character reference without `;`…).
// A Glossa Fluent unit is one pattern: a message or term value (context `id`) or an attribute (`id.attr`,
// formats.md §3.17); Weblate runs the inner-HTML check on values only, since attributes are rarely HTML.

/** The Fluent text of a unit as an entry the parser reads: `x = <text>` (the format's own value layout). */
function entrySource(text: string): string {
  // A text that starts on its own line keeps its layout; otherwise continuation lines are indented so that
  // they stay part of the pattern (as the Fluent writer stores them).
  return text.startsWith('\n') ? `x =${text}\n` : `x = ${text.split('\n').join('\n    ')}\n`;
}

/** The value pattern of the text, or null when the text is not exactly one valid Fluent pattern. */
export function parseFluentPattern(text: string): Pattern | null {
  let resource;
  try {
    resource = new FluentParser({ withSpans: false }).parse(entrySource(text));
  } catch {
    // A placeable nesting so deep that the parser's recursion fails is not valid either.
    return null;
  }
  if (resource.body.length !== 1) return null;
  const [entry] = resource.body;
  if (entry.type !== 'Message' || entry.value === null || entry.attributes.length > 0) return null;
  return entry.value;
}

/** fluent-source-syntax: a non-empty source that is not one valid Fluent pattern. */
export function fluentSyntaxFails(text: string): boolean {
  return text !== '' && parseFluentPattern(text) === null;
}

/** fluent-source-inner-html on one unit; attribute units (`id.attr`) and invalid syntax pass. */
export function fluentInnerHtmlFails(text: string, context: string): boolean {
  if (text === '' || context.includes('.')) return false;
  const pattern = parseFluentPattern(text);
  if (pattern === null) return false;
  return flatVariants(pattern).some((variant) => innerHtmlProblem(variant) !== null);
}

/** A variant's text with the positions that came from string or number literals (their `{` is text, not a placeable). */
export interface FlatText {
  text: string;
  literal: boolean[];
}

/** Variants beyond this many (nested select expressions multiply) are not examined. */
const MAX_VARIANTS = 64;

/**
 * The flat texts a pattern can produce: one per combination of select-expression variants, with literals
 * (`{ "<" }`, `{ 5 }`) replaced by their value and other placeables kept as Fluent syntax (`{ $name }`).
 */
export function flatVariants(pattern: Pattern): FlatText[] {
  let variants: FlatText[] = [{ text: '', literal: [] }];
  const append = (pieces: readonly FlatText[]) => {
    const next: FlatText[] = [];
    for (const variant of variants) {
      for (const piece of pieces) {
        if (next.length >= MAX_VARIANTS) break;
        next.push({ text: variant.text + piece.text, literal: [...variant.literal, ...piece.literal] });
      }
    }
    variants = next;
  };
  const plain = (text: string, literal = false): FlatText => ({ text, literal: Array.from(text, () => literal) });
  for (const element of pattern.elements) {
    if (element instanceof TextElement) append([plain(element.value)]);
    else append(expressionVariants(element.expression, plain));
  }
  return variants;
}

function expressionVariants(expression: Expression | Placeable, plain: (text: string, literal?: boolean) => FlatText): FlatText[] {
  if (expression instanceof Placeable) return expressionVariants(expression.expression, plain);
  if (expression instanceof StringLiteral) return [plain(expression.parse().value, true)];
  if (expression instanceof NumberLiteral) return [plain(expression.value, true)];
  if (expression instanceof SelectExpression) return expression.variants.flatMap((variant) => flatVariants(variant.value));
  return [plain(`{ ${serializeExpression(expression)} }`)];
}

/** HTML elements without content or end tag. */
const VOID_ELEMENTS = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr']);

/**
 * Named character references HTML expands even without the closing `;` (the HTML5 "legacy" names): `&lt`
 * or `&copy2024` in a text are expanded by a browser, almost never what the author meant.
 */
const LEGACY_REFERENCES = new Set(
  (
    'AElig AMP Aacute Acirc Agrave Aring Atilde Auml COPY Ccedil ETH Eacute Ecirc Egrave Euml GT Iacute Icirc Igrave Iuml LT ' +
    'Ntilde Oacute Ocirc Ograve Oslash Otilde Ouml QUOT REG THORN Uacute Ucirc Ugrave Uuml Yacute aacute acirc acute aelig ' +
    'agrave amp aring atilde auml brvbar ccedil cedil cent copy curren deg divide eacute ecirc egrave eth euml frac12 frac14 ' +
    'frac34 gt iacute icirc iexcl igrave iquest iuml laquo lt macr micro middot nbsp not ntilde oacute ocirc ograve ordf ' +
    'ordm oslash otilde ouml para plusmn pound quot raquo reg sect shy sup1 sup2 sup3 szlig thorn times uacute ucirc ugrave ' +
    'uml uuml yacute yen yuml'
  ).split(' '),
);

const TAG_NAME = /[a-zA-Z][a-zA-Z0-9-]*/y;
const ATTRIBUTE_NAME = /[a-zA-Z][a-zA-Z0-9_.:-]*=/y;
const QUOTED_VALUE = /'[^']*'|"[^"]*"/y;
const BLANKS = /[ \t\n]*/y;
const END_TAG = /([a-zA-Z][a-zA-Z0-9-]*)[ \t\n]*>/y;
const REFERENCE = /&(#?)([a-zA-Z0-9]*)(;?)/g;

/** Matches a sticky expression at `at`; the text matched, or null. */
function stickyAt(expression: RegExp, text: string, at: number): string | null {
  expression.lastIndex = at;
  const match = expression.exec(text);
  return match === null ? null : match[0];
}

/** Whether a character reference sequence (`&…`) is a problem (see innerHtmlProblem). */
function referenceProblem(numeric: boolean, name: string, closed: boolean): boolean {
  if (numeric) {
    const digits = /^[xX]/.test(name) ? /^[xX]([0-9a-fA-F]+)/.exec(name) : /^([0-9]+)/.exec(name);
    const expands = digits !== null;
    // `&#80` expands without its `;`; `&#80x;` or `&#;` end in a `;` the reference does not reach.
    if (!closed) return expands;
    return !expands || digits[0].length !== name.length;
  }
  if (!closed) return [...LEGACY_REFERENCES].some((legacy) => name.startsWith(legacy));
  // `&;` is no reference. Other names ending in `;` are taken as meant (Glossa carries no table of the 2,231
  // HTML5 names to tell an unknown one, e.g. `&foo;`, from a real one).
  return name === '';
}

/**
 * The first problem of one flat variant read as innerHTML, or null: the rules of Weblate's
 * fluent-source-inner-html, written for Glossa. A `<` that cannot start a tag (`a < b`, `<3`) is text.
 */
export function innerHtmlProblem(flat: FlatText): string | null {
  const { text, literal } = flat;
  const placeableAt = (at: number) => text[at] === '{' && !literal[at];
  for (const match of text.matchAll(REFERENCE)) {
    const [sequence, hash, name, semicolon] = match;
    const end = match.index + sequence.length;
    if (semicolon === '' && placeableAt(end)) return `reference before a placeable: ${sequence}{`;
    if (referenceProblem(hash === '#', name, semicolon === ';')) return `character reference: ${sequence}`;
  }
  const open: string[] = [];
  let at = text.indexOf('<');
  while (at !== -1) {
    let next = at + 1;
    if (text[next] === '/') {
      const end = stickyAt(END_TAG, text, next + 1);
      if (end === null) return `invalid end tag at ${at}`;
      const name = end.replace(/[ \t\n]*>$/, '');
      if (VOID_ELEMENTS.has(name.toLowerCase())) return `end tag of void element ${name}`;
      if (open.pop() !== name) return `unmatched end tag ${name}`;
      next += 1 + end.length;
    } else if (placeableAt(next)) {
      return `placeable after <`;
    } else if (text[next] === '!' || text[next] === '?') {
      return `comment, declaration or processing instruction`;
    } else if (/[a-zA-Z]/.test(text[next] ?? '')) {
      const problem = startTag(text, next, open);
      if (typeof problem === 'string') return problem;
      next = problem;
    }
    at = text.indexOf('<', next);
  }
  return open.length > 0 ? `missing end tag of ${open[open.length - 1]}` : null;
}

/** Reads a start tag from its name at `at`; the offset after it, or the problem. Opens the element on `open`. */
function startTag(text: string, at: number, open: string[]): number | string {
  const name = stickyAt(TAG_NAME, text, at)!;
  const attributes = new Set<string>();
  let position = at + name.length;
  for (;;) {
    const blanks = stickyAt(BLANKS, text, position)!;
    position += blanks.length;
    const close = text.startsWith('/>', position) ? '/>' : text[position] === '>' ? '>' : null;
    if (close !== null) {
      if (!VOID_ELEMENTS.has(name.toLowerCase())) {
        if (close === '/>') return `self-closed non-void element ${name}`;
        open.push(name);
      }
      return position + close.length;
    }
    if (position >= text.length) return `start tag ${name} not closed`;
    // Between the name (or an attribute) and the next attribute there must be a blank.
    if (blanks === '') return `invalid start tag ${name}`;
    const attribute = stickyAt(ATTRIBUTE_NAME, text, position);
    if (attribute === null) return `invalid attribute in ${name}`;
    if (attributes.has(attribute)) return `duplicate attribute ${attribute.slice(0, -1)} in ${name}`;
    attributes.add(attribute);
    position += attribute.length;
    const value = stickyAt(QUOTED_VALUE, text, position);
    if (value === null) return `unquoted value of ${attribute.slice(0, -1)} in ${name}`;
    position += value.length;
  }
}
