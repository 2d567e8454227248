import { Flags, parseFlagItems } from './flags';

describe('flags', () => {
  it('parses names, parameters, quotes and regular expressions', () => {
    expect(parseFlagItems('c-format, max-length:80 ,placeholders:$A$:"b, c":r"\\{x\\}"')).toEqual([
      { name: 'c-format', params: [] },
      { name: 'max-length', params: [{ value: '80', regex: false }] },
      {
        name: 'placeholders',
        params: [
          { value: '$A$', regex: false },
          { value: 'b, c', regex: false },
          { value: '\\{x\\}', regex: true },
        ],
      },
    ]);
  });

  it('unescapes quoted values and ignores fuzzy and gettext #', () => {
    expect(parseFlagItems('#, fuzzy, replacements:"a\\"b":\'x\\ny\'')).toEqual([{ name: 'replacements', params: [{ value: 'a"b', regex: false }, { value: 'x\ny', regex: false }] }]);
  });

  it('merges in order: later values replace earlier ones, discard removes, aliases apply', () => {
    const flags = Flags.merge('max-length:10, md-text', 'max-length:20', 'discard:md-text, markdown-text', '');
    expect(flags.params('max-length')).toEqual([{ value: '20', regex: false }]);
    expect(flags.has('md-text')).toBe(true);
    expect(Flags.merge('md-text', 'discard:md-text').has('md-text')).toBe(false);
  });

  it('ignore flags use the dashed id; ignore-all-checks covers every check', () => {
    expect(Flags.merge('ignore-end-stop').ignores('end_stop')).toBe(true);
    expect(Flags.merge('ignore-end_stop').ignores('end_stop')).toBe(false);
    expect(Flags.merge('ignore-all-checks').ignores('same')).toBe(true);
  });
});
