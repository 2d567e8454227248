import { DuplicateFindings, mergeOccurrences, type DuplicateOccurrence } from './duplicate-string-alert';

const occurrence = (filename: string, context: string): DuplicateOccurrence => ({ language_code: 'cs', source: 'Hello', unit_pk: 1, filename, context });

describe('DuplicateFindings', () => {
  it('lists the skipped entries of every parsed file, a later parse of a file replacing the earlier one', () => {
    const findings = new DuplicateFindings();
    findings.record('po/cs.po', 'cs', ['a', 'b']);
    findings.record('po/de.po', 'de', []);
    findings.record('po/cs.po', 'cs', ['a']);
    expect(findings.skipped()).toEqual([{ filename: 'po/cs.po', languageCode: 'cs', context: 'a' }]);
    expect(findings.parsed('po/de.po')).toBe(true);
    expect(findings.parsed('po/fr.po')).toBe(false);
  });
});

describe('mergeOccurrences', () => {
  it('keeps the occurrences of files the scan did not parse and still has, replaces those it parsed, drops those gone', () => {
    const findings = new DuplicateFindings();
    findings.record('cs.json', 'cs', ['x']);
    const previous = [occurrence('cs.json', 'old'), occurrence('de.json', 'kept'), occurrence('gone.json', 'gone')];
    const found = [occurrence('cs.json', 'x')];
    expect(mergeOccurrences(previous, findings, new Set(['cs.json', 'de.json']), found)).toEqual([occurrence('de.json', 'kept'), occurrence('cs.json', 'x')]);
  });

  it('is empty once every file with duplicates was parsed clean', () => {
    const findings = new DuplicateFindings();
    findings.record('cs.json', 'cs', []);
    expect(mergeOccurrences([occurrence('cs.json', 'old')], findings, new Set(['cs.json']), [])).toEqual([]);
  });
});
