/**
 * Checks a gettext plural formula the way Weblate's validate_plural_formula does: it compiles the formula
 * with Python's gettext.c2py (an empty formula counts as "0") and reports c2py's ValueError as
 * `Could not evaluate plural formula: <error>`. This is a port of c2py's tokenizer and precedence parser
 * (CPython Lib/gettext.py); it only validates, it never evaluates, so no code is generated from input.
 * Returns the error message, or null for a valid formula.
 */
export function pluralFormulaError(formula: string): string | null {
  try {
    checkC2py(formula || '0');
    return null;
  } catch (error) {
    if (error instanceof PluralFormulaError) return `Could not evaluate plural formula: ${error.message}`;
    throw error;
  }
}

class PluralFormulaError extends Error {}

// c2py's token pattern: spaces/tabs, decimal integers, the variable n, parentheses, the C operators it
// accepts; anything else (a word or one character) is an invalid token.
const TOKEN = /([ \t]+)|([0-9]+(?![\p{L}\p{N}_]))|(n(?![\p{L}\p{N}_]))|([()])|([-*/%+?:]|[><!]=?|==|&&|\|\|)|([\p{L}\p{N}_]+|[\s\S])/uy;

/** Lazy, like c2py's generator: a parse error before an invalid token is reported first. */
function* tokenize(formula: string): Generator<string, void, undefined> {
  const pattern = new RegExp(TOKEN);
  while (pattern.lastIndex < formula.length) {
    const match = pattern.exec(formula)!;
    if (match[1] !== undefined) continue;
    if (match[6] !== undefined) throw new PluralFormulaError(`invalid token in plural form: ${match[6]}`);
    yield match[0];
  }
  yield '';
}

const unexpected = (token: string): PluralFormulaError =>
  new PluralFormulaError(token ? `unexpected token in plural form: ${token}` : 'unexpected end of plural form');

/** Binding strength of each binary operator, as in c2py (1 = weakest). */
const BINARY_PRIORITY: Readonly<Record<string, number>> = {
  '||': 1,
  '&&': 2,
  '==': 3,
  '!=': 3,
  '<': 4,
  '>': 4,
  '<=': 4,
  '>=': 4,
  '+': 5,
  '-': 5,
  '*': 6,
  '/': 6,
  '%': 6,
};
const PYTHON_OPERATOR: Readonly<Record<string, string>> = { '||': 'or', '&&': 'and', '/': '//' };

class Parser {
  constructor(private readonly tokens: Generator<string, void, undefined>) {}

  next(): string {
    // The parser stops at the final '' token, so it never reads past the end.
    return this.tokens.next().value ?? '';
  }

  /** c2py's _parse: returns the Python expression it would build and the token after it. */
  parse(priority = -1): [string, string] {
    let result = '';
    let token = this.next();
    while (token === '!') {
      result += 'not ';
      token = this.next();
    }
    if (token === '(') {
      const [inner, after] = this.parse();
      result = `${result}(${inner})`;
      if (after !== ')') throw new PluralFormulaError('unbalanced parenthesis in plural form');
    } else if (token === 'n') {
      result += token;
    } else if (/^[0-9]+$/.test(token)) {
      result += String(BigInt(token));
    } else {
      throw unexpected(token);
    }
    token = this.next();

    let previous = 100;
    while (Object.hasOwn(BINARY_PRIORITY, token)) {
      const current = BINARY_PRIORITY[token];
      if (current < priority) break;
      // Chained comparisons are broken up with parentheses.
      if ((current === 3 || current === 4) && (previous === 3 || previous === 4)) result = `(${result})`;
      const operator = PYTHON_OPERATOR[token] ?? token;
      const [right, after] = this.parse(current + 1);
      result = `${result} ${operator} ${right}`;
      token = after;
      previous = current;
    }
    if (previous === priority && priority === 4) result = `(${result})`;

    if (token === '?' && priority <= 0) {
      const [ifTrue, afterTrue] = this.parse(0);
      if (afterTrue !== ':') throw unexpected(afterTrue);
      const [ifFalse, afterFalse] = this.parse();
      result = `${ifTrue} if ${result} else ${ifFalse}`;
      if (priority === 0) result = `(${result})`;
      token = afterFalse;
    }
    return [result, token];
  }
}

function checkC2py(formula: string): void {
  if (formula.length > 1000) throw new PluralFormulaError('plural form expression is too long');
  const parser = new Parser(tokenize(formula));
  let expression: string;
  try {
    const [result, rest] = parser.parse();
    if (rest) throw unexpected(rest);
    expression = result;
  } catch (error) {
    if (error instanceof RangeError) throw new PluralFormulaError('plural form expression is too complex');
    throw error;
  }
  let depth = 0;
  for (const char of expression) {
    if (char === '(') {
      depth += 1;
      if (depth > 20) throw new PluralFormulaError('plural form expression is too complex');
    } else if (char === ')') {
      depth -= 1;
    }
  }
}
