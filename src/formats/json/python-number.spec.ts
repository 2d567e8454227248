import { jsonNumberLiteral, pythonFloatRepr, pythonNumberText } from './python-number';

// Python's repr(float) and str(int), as Weblate shows JSON numbers (languages-formats-hashing.md §2.2).
describe('pythonFloatRepr', () => {
  it.each<[number, string]>([
    [1, '1.0'],
    [1.5, '1.5'],
    [0.1, '0.1'],
    [100, '100.0'],
    [1e15, '1000000000000000.0'],
    [1e16, '1e+16'],
    [1.5e16, '1.5e+16'],
    [123456789012345680000, '1.2345678901234568e+20'],
    [0.0001, '0.0001'],
    [0.00012, '0.00012'],
    [1e-5, '1e-05'],
    [1e-7, '1e-07'],
    [1.25e-10, '1.25e-10'],
    [-2.5, '-2.5'],
    [0, '0.0'],
    [-0, '-0.0'],
    [5e-324, '5e-324'],
    [1.7976931348623157e308, '1.7976931348623157e+308'],
    [Infinity, 'inf'],
    [-Infinity, '-inf'],
    [NaN, 'nan'],
  ])('%d -> %s', (value, expected) => {
    expect(pythonFloatRepr(value)).toBe(expected);
  });
});

describe('pythonNumberText / jsonNumberLiteral', () => {
  it('keeps integers exact and normalises -0', () => {
    expect(pythonNumberText('9007199254740993')).toBe('9007199254740993');
    expect(pythonNumberText('-0')).toBe('0');
    expect(pythonNumberText('1E2')).toBe('100.0');
  });

  it('round-trips every source it produces', () => {
    for (const literal of ['5', '-12', '1.0', '1e16', '1e-7', '0.5', '1e999', 'NaN', 'Infinity', '-Infinity']) {
      const source = pythonNumberText(literal);
      expect(pythonNumberText(jsonNumberLiteral(source) ?? 'x')).toBe(source);
    }
  });

  it('returns undefined for text that is not a number', () => {
    expect(jsonNumberLiteral('')).toBeUndefined();
    expect(jsonNumberLiteral('1,5')).toBeUndefined();
    expect(jsonNumberLiteral('0x10')).toBeUndefined();
    expect(jsonNumberLiteral('.5')).toBeUndefined();
  });
});
