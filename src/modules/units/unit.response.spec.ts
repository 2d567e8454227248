import { fitPluralForms, targetPlurals } from './unit.response';

// Weblate's Unit.get_target_plurals (formats.md §2.3, weblate-api.md §9.5): a plural unit's `target` has
// exactly the translation's number of plural forms.

const SEP = '\x1e\x1e';

describe('fitPluralForms', () => {
  it('pads a short list with empty forms', () => {
    expect(fitPluralForms(['a', 'b'], 3)).toEqual(['a', 'b', '']);
  });

  it('cuts a long list to the count', () => {
    expect(fitPluralForms(['a', 'b', 'c', 'd'], 3)).toEqual(['a', 'b', 'c']);
  });

  it('keeps a list of the right length', () => {
    expect(fitPluralForms(['a', 'b'], 2)).toEqual(['a', 'b']);
  });
});

describe('targetPlurals', () => {
  it('answers every form of an empty plural', () => {
    expect(targetPlurals(`file${SEP}files`, '', 3)).toEqual(['', '', '']);
  });

  it('pads a plural stored with fewer forms than the translation has', () => {
    expect(targetPlurals(`file${SEP}files`, `soubor${SEP}soubory`, 3)).toEqual(['soubor', 'soubory', '']);
  });

  it('truncates a plural stored with more forms than the translation has', () => {
    expect(targetPlurals(`file${SEP}files`, `un${SEP}beaucoup${SEP}autres`, 2)).toEqual(['un', 'beaucoup']);
  });

  it('leaves a singular unit as its one text', () => {
    expect(targetPlurals('Hello', '', 3)).toEqual(['']);
    expect(targetPlurals('Hello', 'Ahoj', 3)).toEqual(['Ahoj']);
  });

  it('treats a unit whose target holds forms as plural (Weblate: source or target)', () => {
    expect(targetPlurals('files', `a${SEP}b`, 3)).toEqual(['a', 'b', '']);
  });
});
