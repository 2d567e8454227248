import { fitPluralForms } from './unit.response';

// Weblate's Unit.get_target_plurals (formats.md §2.3, weblate-api.md §9.5): a plural unit's `target` has
// exactly the translation's number of plural forms. The reads fit them in SQL (unit.response.ts targetSql,
// test/e2e/unit-json.e2e-spec.ts); unit writes answer with fitPluralForms.

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
