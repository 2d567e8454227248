import {
  DEFAULT_LANGUAGE_REGEX,
  FilemaskError,
  LanguageRegexError,
  compileLanguageRegex,
  filemaskPath,
  matchFilemask,
} from './filemask';

const files = [
  'README.md',
  'sources/app.json',
  'translations/de/app.json',
  'translations/cs/app.json',
  'translations/pt_BR/app.json',
  'translations/de/other.json',
  'translations/cs/nested/app.json',
  'translations/cs.bak/app.json',
  'translations//app.json',
  'translations/sr@latin/app.json',
];

describe('matchFilemask', () => {
  it('finds one file per language, sorted by path, with the code the * stood for', () => {
    expect(matchFilemask(files, 'translations/*/app.json', DEFAULT_LANGUAGE_REGEX)).toEqual([
      { path: 'translations/cs/app.json', languageCode: 'cs' },
      { path: 'translations/de/app.json', languageCode: 'de' },
      { path: 'translations/pt_BR/app.json', languageCode: 'pt_BR' },
      { path: 'translations/sr@latin/app.json', languageCode: 'sr@latin' },
    ]);
  });

  it('treats every character except * literally', () => {
    const candidates = ['po/app.cs.po', 'po/appXdeXpo', 'po/app.(x).po', 'po/app.[de].po'];
    expect(matchFilemask(candidates, 'po/app.*.po', '').map((m) => m.languageCode)).toEqual(['(x)', '[de]', 'cs']);
    expect(matchFilemask(['a+b/cs.json', 'aab/de.json'], 'a+b/*.json', '')).toEqual([
      { path: 'a+b/cs.json', languageCode: 'cs' },
    ]);
  });

  it('matches the * within one path segment only', () => {
    expect(matchFilemask(['locale/cs/LC_MESSAGES/app.po', 'locale/x/y/LC_MESSAGES/app.po'], 'locale/*/LC_MESSAGES/app.po', ''))
      .toEqual([{ path: 'locale/cs/LC_MESSAGES/app.po', languageCode: 'cs' }]);
  });

  it('filters codes with the language regex (Python re.match semantics)', () => {
    const codes = (regex: string) => matchFilemask(files, 'translations/*/app.json', regex).map((m) => m.languageCode);
    expect(codes('^(cs|de)$')).toEqual(['cs', 'de']);
    expect(codes('')).toEqual(['cs.bak', 'cs', 'de', 'pt_BR', 'sr@latin']);
    // re.match anchors at the start only, so `cs` also accepts `cs.bak`.
    expect(codes('cs')).toEqual(['cs.bak', 'cs']);
    expect(codes('(?i)^PT_br$')).toEqual(['pt_BR']);
    expect(codes('^(?P<lang>[a-z]{2})(?:_[A-Z]{2})?\\Z')).toEqual(['cs', 'de', 'pt_BR']);
  });

  it.each<[string, string]>([
    ['', 'empty'],
    ['   ', 'empty'],
    ['translations/app.json', 'exactly one "*"'],
    ['translations/*/*.json', 'exactly one "*"'],
    ['**/app.json', 'exactly one "*"'],
    ['../*/app.json', '".."'],
    ['translations/../../*/app.json', '".."'],
    ['/etc/*/passwd', 'relative'],
    ['C:/repo/*.json', 'relative'],
    ['translations\\*\\app.json', 'backslashes'],
    ['.git/*/config', '.git'],
    ['sub/.GIT/*', '.git'],
    ['po/*\n.po', 'control'],
  ])('rejects the filemask %j (%s)', (mask, reason) => {
    expect(() => matchFilemask(files, mask, DEFAULT_LANGUAGE_REGEX)).toThrow(FilemaskError);
    expect(() => matchFilemask(files, mask, DEFAULT_LANGUAGE_REGEX)).toThrow(reason);
  });
});

describe('compileLanguageRegex', () => {
  it('reads Python spellings with re.match semantics', () => {
    expect(compileLanguageRegex('^(?P<lang>[a-z]{2})$').test('cs')).toBe(true);
    expect(compileLanguageRegex('\\Acs\\Z').test('cs')).toBe(true);
    expect(compileLanguageRegex('\\Acs\\Z').test('ccs')).toBe(false);
    expect(compileLanguageRegex('[a\\_]+$').test('a_')).toBe(true);
    // Anchored at the start only, like re.match.
    expect(compileLanguageRegex('cs').test('cs_CZ')).toBe(true);
    expect(compileLanguageRegex('cs').test('xcs')).toBe(false);
    expect(compileLanguageRegex('(?i)^PT_br$').test('pt_BR')).toBe(true);
    // An escaped backslash followed by Z stays a literal backslash and Z.
    expect(compileLanguageRegex('a\\\\Z').test('a\\Z')).toBe(true);
  });

  it('matches in linear time: nested quantifiers against a long non-matching code', () => {
    // With a backtracking engine this is 2^40 steps; RE2 reads the code once. The test would not finish.
    expect(compileLanguageRegex('^(a+)+$').test(`${'a'.repeat(40)}!`)).toBe(false);
    expect(compileLanguageRegex('^(a|a)*$').test(`${'a'.repeat(40)}!`)).toBe(false);
    expect(compileLanguageRegex('^(a+)+$').test('a'.repeat(40))).toBe(true);
  });

  it.each<[string, string]>([
    ['([a-z', 'missing closing ]'],
    ['(?x)^ cs $', 'Verbose'],
    ['^(?P<a>x)(?P=a)$', 'unsupported Perl syntax'],
    ['^(a)\\1$', 'invalid escape sequence'],
    ['^(?=cs)', 'unsupported Perl syntax'],
    ['^(?!cs)', 'unsupported Perl syntax'],
    ['(?<=c)s', 'RE2 syntax'],
    ['((a{100}){100}){100}', 'invalid repeat count'],
  ])('refuses %j (%s)', (pattern, reason) => {
    expect(() => compileLanguageRegex(pattern)).toThrow(LanguageRegexError);
    expect(() => compileLanguageRegex(pattern)).toThrow(reason);
  });
});

describe('filemaskPath', () => {
  it('puts the language code in place of the *', () => {
    expect(filemaskPath('translations/*/app.json', 'pt_BR')).toBe('translations/pt_BR/app.json');
  });

  it.each(['', '.', '..', 'cs/../../x', 'a\\b'])('refuses the code %j', (code) => {
    expect(() => filemaskPath('translations/*/app.json', code)).toThrow(FilemaskError);
  });
});
