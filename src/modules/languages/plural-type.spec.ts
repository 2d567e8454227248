import { pluralTypeForFormula } from './plural-type';

describe('pluralTypeForFormula', () => {
  it('gives 0 for the one-form formula', () => {
    expect(pluralTypeForFormula('ja', '0')).toBe(0);
    expect(pluralTypeForFormula('ja', '0;')).toBe(0);
  });

  it('knows the one/other spellings regardless of spaces and a trailing semicolon', () => {
    for (const f of ['n != 1', 'n!=1', '(n != 1)', 'n > 1', '(n>1);']) {
      expect(pluralTypeForFormula('en', f)).toBe(1);
    }
  });

  // Rows of shared/reference/languages-formats-hashing.md §1.5 (current Weblate types).
  it.each([
    ['cs', '(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2', 22],
    ['ru', 'n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2', 22],
    ['pl', 'n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2', 22],
    ['ar', 'n==0 ? 0 : n==1 ? 1 : n==2 ? 2 : n%100>=3 && n%100<=10 ? 3 : n%100>=11 ? 4 : 5', 12],
    ['he', '(n == 1) ? 0 : ((n == 2) ? 1 : ((n > 10 && n % 10 == 0) ? 2 : 3))', 6],
    ['lv', '(n % 10 == 0 || n % 100 >= 11 && n % 100 <= 19) ? 0 : ((n % 10 == 1 && n % 100 != 11) ? 1 : 2)', 11],
    ['sa', 'n==1 ? 0 : n==2 ? 1 : 2', 4],
    ['ltg', 'n%10==1 && n%100!=11 ? 0 : n != 0 ? 1 : 2', 7],
    ['mt', 'n==1 ? 0 : n==0 || ( n%100>1 && n%100<11) ? 1 : (n%100>10 && n%100<20 ) ? 2 : 3', 8],
    ['vec', '(n == 1) ? 0 : ((n != 0 && n % 1000000 == 0) ? 1 : 2)', 20],
    ['ro', 'n==1 ? 0 : (n==0 || (n%100 > 0 && n%100 < 20)) ? 1 : 2', 2],
  ])('%s: %s -> %i', (code, formula, type) => {
    expect(pluralTypeForFormula(code, formula)).toBe(type);
  });

  it('knows spellings derived from CLDR rules', () => {
    expect(pluralTypeForFormula('cs', 'n==1 ? 0 : n>=2 && n<=4 ? 1 : 2')).toBe(22);
    expect(pluralTypeForFormula('fr', 'n==0 || n==1 ? 0 : 1')).toBe(1);
  });

  it('falls back to 3 for Arabic and 666 for anything else', () => {
    expect(pluralTypeForFormula('ar', 'n==0 ? 0 : n==1 ? 1 : 2 + 0')).toBe(3);
    expect(pluralTypeForFormula('ar_EG', 'n==0 ? 0 : n==1 ? 1 : 2 + 0')).toBe(3);
    expect(pluralTypeForFormula('de', 'n==0 ? 0 : n==1 ? 1 : 2 + 0')).toBe(666);
    // sgs: Weblate has no spelling for it (§1.5).
    expect(
      pluralTypeForFormula(
        'sgs',
        '(n % 10 == 1 && n % 100 != 11) ? 0 : ((n == 2) ? 1 : ((n != 2 && n % 10 >= 2 && n % 10 <= 9 && (n % 100 < 11 || n % 100 > 19)) ? 2 : 3))',
      ),
    ).toBe(666);
  });

  it('does not mistake object prototype keys for formulas', () => {
    expect(pluralTypeForFormula('de', 'constructor')).toBe(666);
  });
});
