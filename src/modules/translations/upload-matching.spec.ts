import { PLURAL_SEPARATOR, type StoreUnit } from '../../formats/store';
import { mergeableEntries, UnitMatcher, uploadEntries } from './upload-matching';

// formats.md §5: how uploaded entries find their units.

const unit = (id: string, context: string, source: string) => ({ id, context, source });

describe('UnitMatcher', () => {
  const units = [unit('1', 'menu', 'File'), unit('2', '', 'File'), unit('3', '', 'Open'), unit('4', 'other', 'Open')];

  it('matches bilingual entries by (context, source), the id after ///, ("", source), then source alone', () => {
    const matcher = new UnitMatcher(units, false);
    const find = (context: string, source: string) => matcher.find({ context, source, target: 'x', fuzzy: false })?.id;
    expect(find('menu', 'File')).toBe('1');
    expect(find('NoName///menu', 'File')).toBe('1');
    expect(find('elsewhere', 'File')).toBe('2');
    expect(find('', 'Open')).toBe('3');
    // Source alone: the last unit with that text wins.
    expect(find('x', 'Open')).toBe('3');
    expect(new UnitMatcher([unit('5', 'a', 'Save'), unit('6', 'b', 'Save')], false).find({ context: 'c', source: 'Save', target: '', fuzzy: false })?.id).toBe('6');
    expect(find('menu', 'Missing')).toBeUndefined();
  });

  it('matches monolingual entries and key/value files by key', () => {
    expect(new UnitMatcher(units, true).find({ context: 'other', source: 'Whatever', target: 'x', fuzzy: false })?.id).toBe('4');
    expect(new UnitMatcher(units, false).find({ context: 'menu', source: '', target: 'x', fuzzy: false })?.id).toBe('1');
  });

  it('turns StoreUnits into entries: forms joined, a list of empty forms is no translation', () => {
    const base: StoreUnit = { context: 'c', source: ['a', 'b'], target: ['', ''], plural: true, note: '', location: '', flags: '', previousSource: '', fuzzy: true, approved: false, readOnly: false, position: 1, line: 1 };
    expect(uploadEntries([base, { ...base, target: ['x', 'y'], fuzzy: false }])).toEqual([
      { context: 'c', source: `a${PLURAL_SEPARATOR}b`, target: '', fuzzy: true },
      { context: 'c', source: `a${PLURAL_SEPARATOR}b`, target: `x${PLURAL_SEPARATOR}y`, fuzzy: false },
    ]);
  });
});

describe('mergeableEntries', () => {
  const entry = (context: string, target: string, fuzzy = false) => ({ context, source: '', target, fuzzy });

  it('keeps translated entries, and fuzzy ones only when asked; untranslated entries never take part', () => {
    const entries = [entry('a', 'A'), entry('b', ''), entry('c', 'C', true), entry('d', '', true)];
    expect(mergeableEntries(entries, false).map((e) => e.context)).toEqual(['a']);
    expect(mergeableEntries(entries, true).map((e) => e.context)).toEqual(['a', 'c']);
  });
});
