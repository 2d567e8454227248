import { runChecks, type CheckUnit } from './engine';
import { Flags } from './flags';

function unit(source: string | string[], target: string | string[], flags = '', extra: Partial<CheckUnit> = {}): CheckUnit {
  return {
    source: Array.isArray(source) ? source : [source],
    target: Array.isArray(target) ? target : [target],
    state: 20,
    flags: Flags.merge(flags),
    language: 'cs',
    sourceLanguage: 'en',
    ...extra,
  };
}

const fails = (u: CheckUnit, id: string): boolean => runChecks(u).includes(id);

/** [check id, source, target, flags, fails?] — one failing and one passing row at least per check and flag. */
const CASES: Array<[string, string | string[], string | string[], string, boolean]> = [
  ['same', 'Hello world', 'Hello world', '', true],
  ['same', 'Hello world', 'Ahoj světe', '', false],
  ['same', 'Hello world', 'Hello world', 'ignore-same', false],
  ['same', '%d', '%d', 'c-format', false],
  ['same', '12:30', '12:30', '', false],
  ['same', 'OK', 'OK', '', false],
  ['same', 'USB HDMI', 'USB HDMI', '', false],
  ['same', 'USB HDMI', 'USB HDMI', 'strict-same', true],
  ['same', 'See https://example.com', 'See https://example.com', '', true],
  ['begin_newline', '\nHello', 'Ahoj', '', true],
  ['begin_newline', '\nHello', '\nAhoj', '', false],
  ['begin_newline', '\nHello', 'Ahoj', 'ignore-begin-newline', false],
  ['end_newline', 'Hello\n', 'Ahoj', '', true],
  ['end_newline', 'Hello\n', 'Ahoj\n', '', false],
  ['end_newline', 'Hello\n', 'Ahoj', 'ignore-end-newline', false],
  ['begin_space', '  Hello', ' Ahoj', '', true],
  ['begin_space', '  Hello', '  Ahoj', '', false],
  ['begin_space', '  Hello', 'Ahoj', 'ignore-begin-space', false],
  ['end_space', 'Hello ', 'Ahoj', '', true],
  ['end_space', 'Hello ', 'Ahoj ', '', false],
  ['end_space', 'Hello ', 'Ahoj', 'ignore-end-space', false],
  ['double_space', 'Hello world', 'Ahoj  světe', '', true],
  ['double_space', 'Hello  world', 'Ahoj  světe', '', false],
  ['double_space', 'Hello world', 'Ahoj  světe', 'ignore-double-space', false],
  ['end_stop', 'Hello world.', 'Ahoj světe', '', true],
  ['end_stop', 'Hello world.', 'Ahoj světe.', '', false],
  ['end_stop', 'Etc.', 'Atd', '', false],
  ['end_stop', 'Hello world.', 'Ahoj světe', 'ignore-end-stop', false],
  ['end_colon', 'Name:', 'Jméno', '', true],
  ['end_colon', 'Name:', 'Jméno：', '', false],
  ['end_colon', 'Name:', 'Jméno', 'ignore-end-colon', false],
  ['end_question', 'Really?', 'Opravdu', '', true],
  ['end_question', 'Really?', 'Opravdu?', '', false],
  ['end_question', 'Really?', 'Opravdu', 'ignore-end-question', false],
  ['end_exclamation', 'Done!', 'Hotovo', '', true],
  ['end_exclamation', 'Done!', 'Hotovo!', '', false],
  ['end_exclamation', 'Done!', 'Hotovo', 'ignore-end-exclamation', false],
  ['end_ellipsis', 'Loading…', 'Načítání', '', true],
  ['end_ellipsis', 'Loading...', 'Načítání…', '', false],
  ['end_ellipsis', 'Loading…', 'Načítání', 'ignore-end-ellipsis', false],
  ['escaped_newline', 'Line\\nLine', 'Řádek Řádek', '', true],
  ['escaped_newline', 'Line\\nLine', 'Řádek\\nŘádek', '', false],
  ['escaped_newline', 'Open C:\\new', 'Otevřít C:\\new', 'ignore-same', false],
  ['escaped_newline', 'Line\\nLine', 'Řádek Řádek', 'ignore-escaped-newline', false],
  ['zero-width-space', 'Hello', 'Ah\u200boj', '', true],
  ['zero-width-space', 'Hel\u200blo', 'Ah\u200boj', '', false],
  ['zero-width-space', 'Hello', 'Ah\u200boj', 'ignore-zero-width-space', false],
  ['max-length', 'Hello', 'Ahoj světe', 'max-length:5', true],
  ['max-length', 'Hello', 'Ahoj', 'max-length:5', false],
  ['max-length', 'Hello', 'Ahoj světe', '', false],
  ['max-length', 'Hello', 'Ahoj', 'max-length:five', true],
  ['max-length', 'Hi %s', 'Ahoj %s', 'max-length:6, replacements:%s:X', false],
  ['max-length', 'Hello', 'Ahoj světe', 'max-length:5, ignore-max-length', false],
  ['plurals', ['%d file', '%d files'], ['%d soubor', ''], '', true],
  ['plurals', ['%d file', '%d files'], ['%d soubor', '%d soubory'], '', false],
  ['plurals', ['%d file', '%d files'], ['%d soubor', ''], 'ignore-plurals', false],
  ['same-plurals', ['%d file', '%d files'], ['%d soubor', '%d soubor'], '', true],
  ['same-plurals', ['%d file', '%d files'], ['%d soubor', '%d souborů'], '', false],
  ['same-plurals', ['%d file', '%d files'], ['%d soubor', '%d soubor'], 'ignore-same-plurals', false],
  ['xml-tags', 'Click <b>here</b>', 'Klikněte <i>sem</i>', '', true],
  ['xml-tags', 'Click <b>here</b>', 'Klikněte <b>sem</b>', '', false],
  ['xml-tags', 'Click <b>here</b>', 'Klikněte <i>sem</i>', 'ignore-xml-tags', false],
  ['xml-tags', 'Click <b>here</b>', 'Klikněte <i>sem</i>', 'safe-html', false],
  ['xml-invalid', 'Click <b>here</b>', 'Klikněte <b>sem', '', true],
  ['xml-invalid', 'Click <b>here</b>', 'Klikněte <b>sem</b>', '', false],
  ['xml-invalid', 'a < b', 'a < b', 'ignore-same', false],
  ['xml-invalid', 'Click <b>here</b>', 'Klikněte <b>sem', 'ignore-xml-invalid', false],
  ['md-link', 'See [docs](https://a.example)', 'Viz [dokumentace](https://b.example)', 'md-text', true],
  ['md-link', 'See [docs](https://a.example)', 'Viz [dokumentace](https://a.example)', 'md-text', false],
  ['md-link', 'See [docs](https://a.example)', 'Viz [dokumentace](https://b.example)', '', false],
  ['md-syntax', 'This is **bold**', 'Toto je tučné', 'md-text', true],
  ['md-syntax', 'This is **bold**', 'Toto je **tučné**', 'md-text', false],
  ['url', 'https://example.com', 'not a url', 'url', true],
  ['url', 'https://example.com', 'https://example.cz/cs/', 'url', false],
  ['url', 'https://example.com', 'javascript:alert(1)', 'url', true],
  ['url', 'https://example.com', 'not a url', '', false],
  ['safe-html', 'Click <b>here</b>', 'Klikněte <b onclick="x()">sem</b>', 'safe-html', true],
  ['safe-html', 'Click <b>here</b>', 'Klikněte <script>x()</script><b>sem</b>', 'safe-html', true],
  ['safe-html', 'Click <b>here</b>', 'Klikněte <b>sem</b>', 'safe-html', false],
  ['safe-html', 'Click <b>here</b>', 'Klikněte <b onclick="x()">sem</b>', '', false],
  ['safe-html', 'Click <b>here</b>', 'Klikněte <b onclick="x()">sem</b>', 'auto-safe-html', true],
  ['safe-html', 'Click here', 'Klikněte <b onclick="x()">sem</b>', 'auto-safe-html', false],
  ['safe-html', 'Click <b>here</b>', 'Klikněte <b onclick="x()">sem</b>', 'safe-html, ignore-safe-html', false],
  ['placeholders', 'Hello $NAME$', 'Ahoj', 'placeholders:$NAME$', true],
  ['placeholders', 'Hello $NAME$', 'Ahoj $NAME$', 'placeholders:$NAME$', false],
  ['placeholders', 'Hello $NAME$', 'Ahoj $name$', 'placeholders:$NAME$, case-insensitive', false],
  ['placeholders', 'Hello {user}', 'Ahoj {uzivatel}', 'placeholders:r"\\{[a-z]+\\}"', true],
  ['placeholders', 'Hello {user}', 'Ahoj {user}', 'placeholders:r"\\{[a-z]+\\}"', false],
  ['placeholders', 'Hello {user}', 'Ahoj {user}', 'placeholders:r"(a+)+"', true],
  ['placeholders', 'Hello $NAME$', 'Ahoj', 'placeholders:$NAME$, ignore-placeholders', false],
  ['regex', 'Code', 'KÓD', 'regex:r"^[A-Z]+$"', true],
  ['regex', 'Code', 'KOD', 'regex:r"^[A-Z]+$"', false],
  ['regex', 'Code', 'KOD', 'regex:r"^(a|b)*$"', true],
  ['regex', 'Code', 'KOD', 'regex:""', false],
  ['regex', 'Code', 'kod', 'regex:r"^\\p{Lu}+$"', true],
  ['c_format', 'Hello %s, you have %d files', 'Ahoj %s, máte %s souborů', 'c-format', true],
  ['c_format', 'Hello %s, you have %d files', 'Ahoj %s, máte %d souborů', 'c-format', false],
  ['c_format', 'Hello %1$s, %2$d files', 'Souborů %2$d, ahoj %1$s', 'c-format', false],
  ['c_format', '100%% done %d', 'hotovo %d', 'c-format', false],
  ['c_format', 'Count %\'d', 'Počet %d', 'c-format', false],
  ['c_format', 'Hello %s', 'Ahoj', '', false],
  ['c_format', 'Hello %s', 'Ahoj', 'c-format, ignore-c-format', false],
  ['python_format', 'Hello %(name)s', 'Ahoj %(jmeno)s', 'python-format', true],
  ['python_format', 'Hello %(name)s and %(other)s', 'Ahoj %(other)s a %(name)s', 'python-format', false],
  ['python_brace_format', 'Hello {name}', 'Ahoj {jmeno}', 'python-brace-format', true],
  ['python_brace_format', 'Hello {name}', 'Ahoj {name}', 'python-brace-format', false],
  ['python_brace_format', 'Hello {name}', 'Ahoj {name} {', 'python-brace-format', true],
  ['python_brace_format', 'Price {0:.2f} {{x}}', 'Cena {0:.2f} {{x}}', 'python-brace-format', false],
  ['php_format', 'Hello %s', 'Ahoj %d', 'php-format', true],
  ['php_format', 'Hello %1$s', 'Ahoj %1$s', 'php-format', false],
  ['javascript_format', 'Hello %s', 'Ahoj', 'javascript-format', true],
  ['javascript_format', 'Hello %s', 'Ahoj %s', 'javascript-format', false],
  ['i18next_interpolation', 'Hello {{name}}', 'Ahoj {{jmeno}}', 'i18next-interpolation', true],
  ['i18next_interpolation', 'Hello {{name}} $t(common.ok)', 'Ahoj {{ name }} $t(common.ok)', 'i18next-interpolation', false],
  ['icu_message_format', '{count, plural, one {# file} other {# files}}', '{count, plural, one {# soubor} few {# soubory} other {# souborů}}', 'icu-message-format', false],
  ['icu_message_format', '{count, plural, one {# file} other {# files}}', '{pocet, plural, one {# soubor} other {# souborů}}', 'icu-message-format', true],
  ['icu_message_format', 'Hello {name}', 'Ahoj {name', 'icu-message-format', true],
  ['icu_message_format', '{n, plural, one {a} other {b}}', '{n, plural, one {a}}', 'icu-message-format', true],
  ['icu_message_format', "It's '{name}' {name}", "Je to '{jmeno}' {name}", 'icu-message-format', false],
];

describe('runChecks', () => {
  it.each(CASES)('%s: %j → %j with flags %j fails: %s', (id, source, target, flags, expected) => {
    expect(fails(unit(source, target, flags), id)).toBe(expected);
  });

  it('does not check empty, read-only or source-language units', () => {
    expect(runChecks(unit('Hello', 'Hello', '', { state: 0 }))).toEqual([]);
    expect(runChecks(unit('Hello world', 'Hello world', '', { state: 100 }))).toEqual([]);
    expect(runChecks(unit('Hello world', 'Hello world', 'read-only'))).toEqual([]);
    expect(runChecks(unit('Hello world', 'Hello world', '', { language: 'en_GB' }))).toEqual([]);
  });

  it('checks units needing editing', () => {
    expect(runChecks(unit('Hello world', 'Hello world', '', { state: 10 }))).toEqual(['same']);
  });

  it('ignore-all-checks switches every check off', () => {
    expect(runChecks(unit('Hello world.', 'Hello world', 'ignore-all-checks'))).toEqual([]);
  });

  it('a plural singular may omit the count placeholder unless strict-format', () => {
    expect(fails(unit(['%d file', '%d files'], ['jeden soubor', '%d soubory'], 'c-format'), 'c_format')).toBe(false);
    expect(fails(unit(['%d file', '%d files'], ['jeden soubor', '%d soubory'], 'c-format, strict-format'), 'c_format')).toBe(true);
  });

  it('inconsistent compares with the translations of the same string elsewhere in the project', () => {
    expect(fails(unit('Save', 'Uložit', '', { otherTranslations: ['Uložit'] }), 'inconsistent')).toBe(false);
    expect(fails(unit('Save', 'Uložit', '', { otherTranslations: ['Ulož'] }), 'inconsistent')).toBe(true);
    expect(fails(unit('Save', '', '', { state: 0, otherTranslations: ['Uložit'] }), 'inconsistent')).toBe(true);
    expect(fails(unit('Save', 'Uložit', 'ignore-inconsistent', { otherTranslations: ['Ulož'] }), 'inconsistent')).toBe(false);
    expect(fails(unit('Save', 'Uložit', ''), 'inconsistent')).toBe(false);
  });

  it('lists failing ids in the engine order', () => {
    expect(runChecks(unit('Hello world.\n', 'Hello world.\n'))).toEqual(['same']);
    expect(runChecks(unit('Hello world.', ' Ahoj  světe'))).toEqual(['begin_space', 'double_space', 'end_stop']);
  });
});
