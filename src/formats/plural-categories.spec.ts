import { baseLanguage, pluralCategories } from './plural-categories';

describe('pluralCategories', () => {
  it.each([
    ['en', ['one', 'other']],
    ['cs', ['one', 'few', 'other']],
    ['pl', ['one', 'few', 'many']],
    ['pt_BR', ['one', 'many', 'other']],
    ['ar', ['zero', 'one', 'two', 'few', 'many', 'other']],
    ['ja', ['other']],
  ])('pins translate-toolkit lists: %s', (code, expected) => {
    expect(pluralCategories(code)).toEqual(expected);
  });

  it('falls back to CLDR in canonical order for unpinned languages', () => {
    expect(pluralCategories('hr')).toEqual(['one', 'few', 'other']);
    expect(pluralCategories('cy')).toEqual(['zero', 'one', 'two', 'few', 'many', 'other']);
  });

  it('treats unknown codes as English', () => {
    expect(pluralCategories('')).toEqual(['one', 'other']);
    expect(pluralCategories('xx-unknown')).toEqual(['one', 'other']);
  });

  it('strips region and variant', () => {
    expect(baseLanguage('sr@latin')).toBe('sr');
    expect(baseLanguage('zh-Hant')).toBe('zh');
  });
});
