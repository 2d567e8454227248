// How a YAML scalar reads as a unit text and how a new text is written as a scalar (formats.md §3.7).
// Weblate reads YAML through ruamel.yaml, so a unit's text is Python's `str()` of the loaded value:
// `42` -> "42", `1.0` -> "1.0", `true` -> "True".

import { parse as parseYamlValue, Scalar } from 'yaml';
import { pythonFloatRepr } from '../json/python-number';

const DECIMAL_INTEGER = /^[-+]?[0-9]+$/;

/** The unit text of a loaded scalar, or null for a null scalar (which gives no unit). */
export function scalarText(node: Scalar): string | null {
  const value: unknown = node.value;
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'number') {
    const source = (node.source ?? '').trim();
    // Python ints have any size, so a long decimal literal keeps every digit.
    if (DECIMAL_INTEGER.test(source)) return BigInt(source).toString();
    if (Number.isInteger(value) && !/[.eE]/.test(source) && !/inf|nan/i.test(source)) return String(value);
    return pythonFloatRepr(value);
  }
  return String(value);
}

/** Plain words that YAML 1.1 readers (Ruby's Psych, PyYAML) load as booleans or numbers. */
const YAML11_NON_STRING = /^(?:yes|no|on|off|[-+]?[0-9][0-9_]*|[-+]?[0-9]+(?::[0-5]?[0-9])+)$/i;

/** Characters that may not start a plain scalar. */
const PLAIN_FIRST = /^[-?:,[\]{}#&*!|>'"%@`\s]/;

/**
 * A plain scalar is used only when it reads back as exactly the same string: not a number, boolean or
 * null look-alike, no `: ` / ` #` sequences, no flow indicators inside a flow collection.
 */
function plainAllowed(value: string, inFlow: boolean): boolean {
  if (value === '' || value.includes('\n') || value.includes('\r') || /\s$/.test(value)) return false;
  if (PLAIN_FIRST.test(value) || value.includes(': ') || value.includes(' #') || value.endsWith(':')) return false;
  if (inFlow && /[,[\]{}]/.test(value)) return false;
  if (!/^[\x20-\x7e\u00a0-\ud7ff\ue000-\ufffd]*$/.test(value)) return false;
  try {
    return parseYamlValue(value) === value && !YAML11_NON_STRING.test(value);
  } catch {
    return false;
  }
}

function singleQuotedAllowed(value: string): boolean {
  return !/[\n\r]/.test(value) && /^[\x20-\x7e\u00a0-\ud7ff\ue000-\ufffd\t]*$/.test(value) && !/^\s|\s$/.test(value);
}

export function singleQuoted(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}

const DOUBLE_ESCAPES: Record<string, string> = {
  '\\': '\\\\',
  '"': '\\"',
  '\n': '\\n',
  '\t': '\\t',
  '\r': '\\r',
  '\0': '\\0',
  '\x07': '\\a',
  '\b': '\\b',
  '\x1b': '\\e',
  '\f': '\\f',
  '\v': '\\v',
  '\x85': '\\N',
  '\u00a0': '\\_',
  '\u2028': '\\L',
  '\u2029': '\\P',
};

export function doubleQuoted(value: string): string {
  let out = '"';
  for (const char of value) {
    const escape = DOUBLE_ESCAPES[char];
    if (escape) out += escape;
    else if (char === '\ufeff') out += '\\ufeff';
    else if (char < ' ' || char === '\x7f' || (char >= '\x80' && char < '\xa0')) {
      out += `\\x${char.charCodeAt(0).toString(16).padStart(2, '0')}`;
    } else out += char;
  }
  return `${out}"`;
}

/**
 * A new value as ruamel.yaml would emit a plain Python string: plain when that reads back unchanged,
 * else single-quoted, else double-quoted; multi-line texts double-quoted with `\n` (formats.md §3.7 [obs]).
 */
export function quoteNewValue(value: string, inFlow: boolean): string {
  if (plainAllowed(value, inFlow)) return value;
  if (singleQuotedAllowed(value)) return singleQuoted(value);
  return doubleQuoted(value);
}

/** The original scalar's style kept where it can hold the new text, so an edit keeps the file's quoting. */
export function quoteLikeOriginal(value: string, original: Scalar, inFlow: boolean): string {
  switch (original.type) {
    case Scalar.QUOTE_DOUBLE:
      return doubleQuoted(value);
    case Scalar.QUOTE_SINGLE:
      return singleQuotedAllowed(value) ? singleQuoted(value) : doubleQuoted(value);
    default:
      return quoteNewValue(value, inFlow);
  }
}

/**
 * A literal block scalar (`|`, `|-`, `|+`) for a multi-line text replacing one, indented like the original's
 * content; null when the text cannot be a literal block without an indentation indicator.
 */
export function literalBlock(value: string, indent: string, eol: string): string | null {
  if (!value.includes('\n') || /[\r\x00-\x08\x0b-\x1f\x7f]/.test(value) || /^[ \t]/.test(value)) return null;
  const body = value.replace(/\n+$/, '');
  const trailing = value.length - body.length;
  if (body === '') return null;
  const chomp = trailing === 0 ? '-' : trailing === 1 ? '' : '+';
  const lines = body.split('\n').map((line) => (line === '' ? '' : indent + line));
  const extra = trailing > 1 ? eol.repeat(trailing - 1) : '';
  return `|${chomp}${eol}${lines.join(eol)}${eol}${extra}`;
}
