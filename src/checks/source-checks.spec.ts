import { Flags } from './flags';
import { runSourceChecks } from './source-checks';

const check = (source: string | string[], flags = '', sourceLanguage = 'en'): string[] =>
  runSourceChecks({ source: Array.isArray(source) ? source : [source], flags: Flags.merge(flags), sourceLanguage });

/** [check id, source, flags, fails?] — a failing and a passing row per check and flag, and its ignore flag. */
const CASES: Array<[string, string | string[], string, boolean]> = [
  ['ellipsis', 'Loading...', '', true],
  ['ellipsis', 'Loading…', '', false],
  ['ellipsis', 'Wait... then go', '', true],
  ['ellipsis', 'Loading...', 'ignore-ellipsis', false],
  ['optional_plural', 'Delete file(s)', '', true],
  ['optional_plural', 'Delete file(s)?', '', true],
  ['optional_plural', 'Delete files', '', false],
  ['optional_plural', 'Delete (s) file', '', false],
  ['optional_plural', 'file(s)x', '', false],
  ['optional_plural', ['%d file(s)', '%d files'], '', false],
  ['optional_plural', 'Delete file(s)', 'ignore-optional-plural', false],
  ['unnamed_format', 'Copy %s to %s', 'c-format', true],
  ['unnamed_format', 'Copy %1$s to %2$s', 'c-format', false],
  ['unnamed_format', 'Copy %s', 'c-format', false],
  ['unnamed_format', '100%% of %s', 'c-format', false],
  ['unnamed_format', 'Copy %s to %s', '', false],
  ['unnamed_format', 'Copy %s to %s', 'python-format', true],
  ['unnamed_format', 'Copy %(from)s to %(to)s', 'python-format', false],
  ['unnamed_format', 'Copy {} to {}', 'python-brace-format', true],
  ['unnamed_format', 'Copy {0} to {1}', 'python-brace-format', false],
  ['unnamed_format', 'Copy %s to %s', 'php-format', true],
  ['unnamed_format', 'Copy %s to %s', 'javascript-format', true],
  ['unnamed_format', 'Copy {{a}} to {{b}}', 'i18next-interpolation', false],
  ['unnamed_format', 'Copy %s to %s', 'c-format, ignore-unnamed-format', false],
  ['icu_message_format_syntax', 'Hello {name', 'icu-message-format', true],
  ['icu_message_format_syntax', '{n, plural, one {# file}}', 'icu-message-format', true],
  ['icu_message_format_syntax', '{n, plural, one {# file} other {# files}}', 'icu-message-format', false],
  ['icu_message_format_syntax', 'Hello {name', '', false],
  ['icu_message_format_syntax', 'Hello {name', 'icu-message-format, ignore-icu-message-format', false],
  ['icu_message_format_syntax', 'Hello {name', 'icu-message-format, ignore-icu-message-format-syntax', false],
  ['source-max-length', 'Twelve chars', 'max-length:12', true],
  ['source-max-length', 'Ten chars!', 'max-length:12', false],
  ['source-max-length', 'Twelve chars', 'max-length:10', true],
  ['source-max-length', 'Twelve chars', '', false],
  ['source-max-length', 'Hi %s', 'max-length:5, replacements:%s:X', false],
  ['source-max-length', 'Twelve chars', 'max-length:12, ignore-source-max-length', false],
  ['source-max-length', 'Twelve chars', 'max-length:twelve', false],
];

describe('runSourceChecks', () => {
  it.each(CASES)('%s: %j with flags %j fails: %s', (id, source, flags, expected) => {
    expect(check(source, flags).includes(id)).toBe(expected);
  });

  it('leaves room for longer translations only when the source is English (85 % of max-length)', () => {
    // 11 characters: over 85 % of 12 (10) in English, within 12 otherwise.
    expect(check('Eleven char', 'max-length:12', 'en_GB')).toEqual(['source-max-length']);
    expect(check('Eleven char', 'max-length:12', 'cs')).toEqual([]);
  });

  it('ignore-all-checks switches every source check off, and an empty source fails nothing', () => {
    expect(check('Copy %s to %s file(s)...', 'c-format')).toEqual(['ellipsis', 'optional_plural', 'unnamed_format']);
    expect(check('Copy %s to %s file(s)...', 'c-format, ignore-all-checks')).toEqual([]);
    expect(check('')).toEqual([]);
  });
});
