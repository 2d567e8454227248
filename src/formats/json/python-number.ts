// Numbers as Python prints them. Weblate's unit source for a JSON number is Python `str()` of the value
// `json.loads` produced, and write-back goes through `json.dumps` (languages-formats-hashing.md §2.1, §2.2):
// integers keep all their digits, floats print in Python's shortest-repr style (`1.0`, `1e+16`, `1e-07`),
// which differs from JS (`1`, `10000000000000000`, `1e-7`).

const JSON_INTEGER = /^-?(?:0|[1-9]\d*)$/;
const JSON_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
const PYTHON_SPECIAL = /^([+-]?)(inf|infinity|nan)$/i;

/** Python `repr(float)`: shortest round-trip digits, exponent form below 1e-4 or from 1e16 on. */
export function pythonFloatRepr(value: number): string {
  if (Number.isNaN(value)) return 'nan';
  if (!Number.isFinite(value)) return value > 0 ? 'inf' : '-inf';
  if (value === 0) return Object.is(value, -0) ? '-0.0' : '0.0';
  // toExponential() without an argument yields the shortest digits that round-trip, as Python does.
  const [mantissa, exponentText] = Math.abs(value).toExponential().split('e');
  const digits = mantissa.replace('.', '');
  const exponent = Number(exponentText);
  const sign = value < 0 ? '-' : '';
  if (exponent < -4 || exponent >= 16) {
    const fraction = digits.length > 1 ? `.${digits.slice(1)}` : '';
    const exponentSign = exponent < 0 ? '-' : '+';
    return `${sign}${digits[0]}${fraction}e${exponentSign}${String(Math.abs(exponent)).padStart(2, '0')}`;
  }
  if (exponent < 0) return `${sign}0.${'0'.repeat(-exponent - 1)}${digits}`;
  const integerPart = digits.slice(0, exponent + 1).padEnd(exponent + 1, '0');
  const fractionPart = digits.slice(exponent + 1) || '0';
  return `${sign}${integerPart}.${fractionPart}`;
}

/** Python `str()` of the value `json.loads` gives for a JSON number literal (the unit source). */
export function pythonNumberText(literal: string): string {
  if (literal === 'NaN') return 'nan';
  if (literal === 'Infinity') return 'inf';
  if (literal === '-Infinity') return '-inf';
  // JSON integers become Python ints of any size ("-0" is just 0); everything else is a float.
  if (JSON_INTEGER.test(literal)) return BigInt(literal).toString();
  return pythonFloatRepr(Number(literal));
}

/**
 * The JSON literal `json.dumps` writes when a number leaf gets `target`, or undefined when the target is
 * not a number (the caller then writes it as a string). Accepts JSON number syntax and Python's
 * `inf`/`nan` spellings, so every source produced by pythonNumberText round-trips.
 */
export function jsonNumberLiteral(target: string): string | undefined {
  const text = target.trim();
  if (JSON_INTEGER.test(text)) return BigInt(text).toString();
  if (JSON_NUMBER.test(text)) {
    const value = Number(text);
    // Python's json.dumps spells non-finite floats as JavaScript literals (allow_nan=True).
    if (!Number.isFinite(value)) return value > 0 ? 'Infinity' : '-Infinity';
    return pythonFloatRepr(value);
  }
  const special = PYTHON_SPECIAL.exec(text);
  if (!special) return undefined;
  if (special[2].toLowerCase() === 'nan') return 'NaN';
  return special[1] === '-' ? '-Infinity' : 'Infinity';
}
