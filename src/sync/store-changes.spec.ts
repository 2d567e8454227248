import { pluralTargetForms, unitWrite } from './store-changes';

// Weblate hands a plural's target to the file padded to the translation's plural count (get_target_plurals,
// formats.md §2.3); these pin that for untranslated and short targets, and that nothing else is touched.

describe('pluralTargetForms', () => {
  it('pads an untranslated or short plural target with empty forms to the plural count', () => {
    expect(pluralTargetForms(['%d file', '%d files'], [''], 3)).toEqual(['', '', '']);
    expect(pluralTargetForms(['%d file', '%d files'], ['%d soubor'], 3)).toEqual(['%d soubor', '', '']);
  });

  it('leaves singular units, complete plurals, longer targets and an unknown count alone', () => {
    expect(pluralTargetForms(['Hello'], [''], 3)).toEqual(['']);
    expect(pluralTargetForms(['a', 'b'], ['x', 'y', 'z'], 3)).toEqual(['x', 'y', 'z']);
    // stringsdict keeps a leading zero form: more forms than the language's count are the format's to fit.
    expect(pluralTargetForms(['', 'a', 'b'], ['', 'w', 'x', 'y'], 3)).toEqual(['', 'w', 'x', 'y']);
    expect(pluralTargetForms(['a', 'b'], [''], undefined)).toEqual(['']);
  });
});

describe('unitWrite', () => {
  const row = { context: 'files', source: '%d file\x1e\x1e%d files', target: '', state: 0 };

  it('writes an untranslated plural with every form of the translation', () => {
    expect(unitWrite(row, false, 3)).toEqual({ context: 'files', source: ['%d file', '%d files'], target: ['', '', ''], state: 'empty', note: undefined, flags: undefined, location: undefined });
  });

  it('writes the source translation’s own text as it is', () => {
    expect(unitWrite(row, true, 3).target).toEqual(['%d file', '%d files']);
  });
});
