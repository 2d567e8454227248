import { loadLanguageCatalog } from './language-catalog';
import { pluralFormulaError } from './plural-formula';

describe('pluralFormulaError (gettext.c2py)', () => {
  it('accepts every formula of the language catalog, "0" and an empty formula', () => {
    for (const language of loadLanguageCatalog()) expect([language.code, pluralFormulaError(language.plural.formula)]).toEqual([language.code, null]);
    expect(pluralFormulaError('0')).toBeNull();
    expect(pluralFormulaError('')).toBeNull();
    expect(pluralFormulaError('!(n == 1)')).toBeNull();
    expect(pluralFormulaError('n%10==1 && n%100!=11 ? 0 : n != 0 ? 1 : 2')).toBeNull();
  });

  it("reports c2py's errors with Weblate's prefix", () => {
    expect(pluralFormulaError('n != x')).toBe('Could not evaluate plural formula: invalid token in plural form: x');
    expect(pluralFormulaError('n ==')).toBe('Could not evaluate plural formula: unexpected end of plural form');
    expect(pluralFormulaError('n n')).toBe('Could not evaluate plural formula: unexpected token in plural form: n');
    expect(pluralFormulaError('(n != 1')).toBe('Could not evaluate plural formula: unbalanced parenthesis in plural form');
    expect(pluralFormulaError('n ? 1')).toBe('Could not evaluate plural formula: unexpected end of plural form');
    expect(pluralFormulaError('-1')).toBe('Could not evaluate plural formula: unexpected token in plural form: -');
    expect(pluralFormulaError('n = 1')).toBe('Could not evaluate plural formula: invalid token in plural form: =');
    expect(pluralFormulaError('1n')).toBe('Could not evaluate plural formula: invalid token in plural form: 1n');
    expect(pluralFormulaError('n;')).toBe('Could not evaluate plural formula: invalid token in plural form: ;');
    // A parse error before an invalid token wins, as with c2py's lazy tokenizer.
    expect(pluralFormulaError('n n @')).toBe('Could not evaluate plural formula: unexpected token in plural form: n');
    expect(pluralFormulaError(`${'('.repeat(21)}n${')'.repeat(21)}`)).toBe('Could not evaluate plural formula: plural form expression is too complex');
    expect(pluralFormulaError('n'.padEnd(1001, ' '))).toBe('Could not evaluate plural formula: plural form expression is too long');
  });
});
