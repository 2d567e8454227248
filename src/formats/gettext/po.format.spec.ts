import { FormatLimitError, FormatParseError } from '../format';
import type { StoreUnit, UnitKey, UnitWrite } from '../store';
import { CS_CONTEXT, expectMsgfmtAccepts, fixture } from './gettext-test-helpers';
import { PO_FORMAT, assertUploadPluralMatches } from './po.format';

const unit = (fields: Partial<StoreUnit>): StoreUnit => ({
  context: '',
  source: [],
  target: [''],
  plural: false,
  note: '',
  location: '',
  flags: '',
  previousSource: '',
  fuzzy: false,
  approved: false,
  readOnly: false,
  position: 1,
  line: 1,
  ...fields,
});

const CS = fixture('cs.po');
const CS_TEXT = CS.toString('utf8');

/** The header lines Weblate's save produces for the cs fixture with CS_CONTEXT (formats.md §3.1 diff). */
function savedHeader(text: string): string {
  return text
    .replace('"PO-Revision-Date: 2024-01-02 11:00+0100\\n"', '"PO-Revision-Date: 2024-05-05 12:00+0000\\n"')
    .replace('"Last-Translator: Jane Doe <jane@example.com>\\n"', '"Last-Translator: Weblate Admin <admin@example.com>\\n"')
    .replace('1 : 2;\\n"\n"X-Custom: kept\\n"', '1 : 2;\\n"\n"X-Generator: Glossa 0.1.0\\n"\n"X-Custom: kept\\n"');
}

function write(content: Buffer, update: UnitWrite[], extra: { add?: UnitWrite[]; remove?: UnitKey[] } = {}): Buffer {
  const out = PO_FORMAT.write(content, { update, ...extra }, CS_CONTEXT);
  expectMsgfmtAccepts(out);
  return out;
}

describe('po parse', () => {
  it('reads units field by field as Weblate sees them (formats.md §3.1 example)', () => {
    const parsed = PO_FORMAT.parse(CS);
    expect(parsed.plural).toEqual({ number: 3, formula: '(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2' });
    expect(parsed.language).toBe('cs');
    expect(parsed.units).toEqual([
      unit({
        source: ['Hello, %s!'],
        target: ['Ahoj, %s!'],
        note: 'Shown on the main window',
        location: 'src/main.c:10, src/main.c:22',
        flags: 'c-format',
        position: 1,
        line: 19,
      }),
      unit({ context: 'menu', source: ['Open'], note: 'Translator note here', location: 'src/menu.c:5', position: 2, line: 25 }),
      unit({
        source: ['%d file deleted', '%d files deleted'],
        target: ['%d soubor odstraněn', '%d soubory odstraněny', '%d souborů odstraněno'],
        plural: true,
        location: 'src/files.c:40',
        flags: 'c-format',
        previousSource: '%d file removed\x1e\x1e',
        fuzzy: true,
        position: 3,
        line: 31,
      }),
      unit({
        source: [
          'A long text that the extractor wrapped over several lines because it is longer than the width, with "quotes", a tab\there and a backslash \\ too.',
        ],
        target: [
          'Dlouhý text, který extraktor zalomil na několik řádků, protože je delší než šířka, s "uvozovkami", tabulátorem\tzde a zpětným lomítkem \\ také.',
        ],
        position: 4,
        line: 40,
      }),
      unit({ source: ['Line one\nLine two\n'], target: ['Řádek jedna\nŘádek dva\n'], position: 5, line: 47 }),
      unit({
        source: ['This untouched entry has one over-long line that no tool wrapped when it was written, and stays so'],
        target: ['Tento nedotčený záznam má jeden příliš dlouhý řádek, který žádný nástroj nezalomil, a zůstane tak'],
        position: 6,
        line: 50,
      }),
    ]);
  });

  it('resolves escapes as translate-toolkit does (unknown escapes keep the character)', () => {
    const po = Buffer.from('msgid "a\\\\n\\a\\"b\\r"\nmsgstr "x\\ty"\n');
    expect(PO_FORMAT.parse(po).units[0]).toMatchObject({ source: ['a\\na"b\r'], target: ['x\ty'] });
  });

  it('joins several comment lines, keeps empty translator comment lines and URL-unquotes locations', () => {
    const po = Buffer.from('# first\n#\n# third\n#. dev\n#: a%20b.c:1 c+d.c:2\n#: e.c:3\nmsgid "x"\nmsgstr ""\n');
    expect(PO_FORMAT.parse(po).units[0]).toMatchObject({
      note: 'first\n\nthird\ndev',
      location: 'a b.c:1, c d.c:2, e.c:3',
    });
  });

  it('skips the header, blank entries and obsolete entries; a fuzzy mark on an empty string is not fuzzy', () => {
    const po = Buffer.from(
      'msgid ""\nmsgstr "Language: fr\\n"\n\n#, fuzzy\n#| msgid "Old"\nmsgid "New"\nmsgstr ""\n\n#~ msgid "Gone"\n#~ msgstr "Parti"\n',
    );
    const parsed = PO_FORMAT.parse(po);
    expect(parsed.language).toBe('fr');
    expect(parsed.plural).toBeUndefined();
    expect(parsed.units).toEqual([unit({ source: ['New'], line: 4 })]);
  });

  it('reads a CRLF file', () => {
    expect(PO_FORMAT.parse(fixture('crlf.po')).units).toEqual([
      unit({ source: ['Yes'], target: ['Ja'], location: 'a.c:1', position: 1, line: 7 }),
      unit({ source: ['No'], position: 2, line: 11 }),
    ]);
  });

  it('decodes the charset the header names', () => {
    const parsed = PO_FORMAT.parse(fixture('latin2.po'));
    expect(parsed.units.map((u) => u.target[0])).toEqual(['Zamknij okno źle', '']);
  });

  it('reports duplicates with both lines, or hands them to onDuplicate', () => {
    const po = Buffer.from('msgid "a"\nmsgstr "1"\n\nmsgctxt "c"\nmsgid "a"\nmsgstr "2"\n\nmsgid "a"\nmsgstr "3"\n');
    expect(() => PO_FORMAT.parse(po)).toThrow(new FormatParseError('line 8: duplicate of the entry on line 1'));
    const duplicates: [number, number][] = [];
    const parsed = PO_FORMAT.parse(po, { onDuplicate: (dup, kept) => duplicates.push([dup.line, kept.line]) });
    expect(parsed.units.map((u) => [u.context, u.target[0], u.position])).toEqual([
      ['', '1', 1],
      ['c', '2', 2],
    ]);
    expect(duplicates).toEqual([[8, 1]]);
  });

  it.each([
    ['msgid "a\nmsgstr ""\n', 'line 1: unterminated string'],
    ['msgid "a"\nmsgstr "b" x\n', 'line 2: text after the closing quote'],
    ['msgstr "b"\n', 'line 1: msgstr without msgid'],
    ['msgid "a"\n\nmsgid "b"\nmsgstr ""\n', 'line 1: msgid without msgstr'],
    ['msgid "a"\nmsgid_plural "as"\nmsgstr "x"\n', 'line 3: plural entry needs msgstr[N]'],
    ['msgid "a"\nmsgid_plural "as"\nmsgstr[1] "x"\n', 'line 3: expected msgstr[0]'],
    ['msgid "a"\nmsgstr ""\nhello\n', 'line 3: unexpected text "hello"'],
    ['msgid "a"\nmsgstr "b\u0001"\n', 'line 2: control character in string'],
    ['msgid ""\nmsgstr "Content-Type: text/plain; charset=NOPE-1\\n"\n', 'line 1: unsupported charset "nope-1"'],
  ])('rejects %j with a line number', (text, message) => {
    expect(() => PO_FORMAT.parse(Buffer.from(text))).toThrow(new FormatParseError(message));
  });

  it('rejects bytes that are not UTF-8 with their line', () => {
    const bad = Buffer.concat([Buffer.from('msgid "a"\nmsgstr "'), Buffer.from([0xff]), Buffer.from('"\n')]);
    expect(() => PO_FORMAT.parse(bad)).toThrow(new FormatParseError('line 2: file is not valid utf-8'));
  });

  it('honours the unit and string-length limits', () => {
    const po = Buffer.from('msgid ""\nmsgstr "Language: cs\\n"\n\nmsgid "a"\nmsgstr ""\n\nmsgid "b"\nmsgstr "1234"\n');
    expect(PO_FORMAT.parse(po, { limits: { maxUnits: 2, maxStringLength: 20 } }).units).toHaveLength(2);
    expect(() => PO_FORMAT.parse(po, { limits: { maxUnits: 1 } })).toThrow(new FormatLimitError('units', 'line 7: more than 1 units'));
    const error = (() => {
      try {
        PO_FORMAT.parse(po, { limits: { maxStringLength: 3 } });
      } catch (caught) {
        return caught as FormatLimitError;
      }
      return null;
    })();
    expect(error).toBeInstanceOf(FormatLimitError);
    expect(error?.kind).toBe('string-length');
    expect(error?.message).toBe('line 2: string longer than 3 characters');
  });
});

describe('po write', () => {
  it('returns the same bytes when nothing changes', () => {
    expect(PO_FORMAT.write(CS, { update: [] }, CS_CONTEXT).equals(CS)).toBe(true);
    expectMsgfmtAccepts(CS);
  });

  it('changes only the edited msgstr and the header fields Weblate updates', () => {
    const out = write(CS, [{ context: 'menu', source: ['Open'], target: ['Otevřít'], state: 'translated' }]);
    expect(out.toString('utf8')).toBe(
      savedHeader(CS_TEXT).replace('msgid "Open"\nmsgstr ""\n', 'msgid "Open"\nmsgstr "Otevřít"\n'),
    );
  });

  it('keeps the entry untouched when target and state are unchanged', () => {
    const out = write(CS, [{ context: '', source: ['Hello, %s!'], target: ['Ahoj, %s!'], state: 'translated' }]);
    expect(out.toString('utf8')).toBe(savedHeader(CS_TEXT));
  });

  it('clears fuzzy (sorted #, line rewritten) and drops #| lines when the unit is translated', () => {
    const forms = ['%d soubor odstraněn', '%d soubory odstraněny', '%d souborů odstraněno'];
    const out = write(CS, [{ context: '', source: ['%d file deleted', '%d files deleted'], target: forms, state: 'translated' }]);
    expect(out.toString('utf8')).toBe(
      savedHeader(CS_TEXT).replace('#, fuzzy, c-format\n#| msgid "%d file removed"\n', '#, c-format\n'),
    );
  });

  it('marks fuzzy: merged into the sorted #, line, or a new #, line before the keywords', () => {
    const out = write(CS, [
      { context: '', source: ['Hello, %s!'], target: ['Nazdar, %s!'], state: 'fuzzy' },
      { context: 'menu', source: ['Open'], target: ['Otevřít'], state: 'fuzzy' },
    ]);
    expect(out.toString('utf8')).toBe(
      savedHeader(CS_TEXT)
        .replace('#, c-format\nmsgid "Hello, %s!"\nmsgstr "Ahoj, %s!"', '#, c-format, fuzzy\nmsgid "Hello, %s!"\nmsgstr "Nazdar, %s!"')
        .replace('#: src/menu.c:5\nmsgctxt "menu"\nmsgid "Open"\nmsgstr ""', '#: src/menu.c:5\n#, fuzzy\nmsgctxt "menu"\nmsgid "Open"\nmsgstr "Otevřít"'),
    );
  });

  it('wraps a rewritten long or multi-line msgstr as translate-toolkit does (77 columns, breaks after \\n)', () => {
    const long = 'Tento text je dost dlouhý na to, aby se musel zalomit, protože přesahuje sedmdesát sedm sloupců.';
    const out = write(CS, [
      { context: 'menu', source: ['Open'], target: [long], state: 'translated' },
      { context: '', source: ['Line one\nLine two\n'], target: ['Jedna\nDva\n'], state: 'translated' },
    ]);
    expect(out.toString('utf8')).toBe(
      savedHeader(CS_TEXT)
        .replace(
          'msgid "Open"\nmsgstr ""\n',
          'msgid "Open"\nmsgstr ""\n"Tento text je dost dlouhý na to, aby se musel zalomit, protože přesahuje "\n"sedmdesát sedm sloupců."\n',
        )
        .replace('msgstr "Řádek jedna\\nŘádek dva\\n"', 'msgstr ""\n"Jedna\\n"\n"Dva\\n"'),
    );
  });

  it('pads a plural target to the language plural count', () => {
    const po = Buffer.from(
      'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n"Plural-Forms: nplurals=2; plural=(n != 1);\\n"\n\nmsgid "%d file"\nmsgid_plural "%d files"\nmsgstr[0] ""\nmsgstr[1] ""\n',
    );
    const out = write(po, [{ context: '', source: ['%d file', '%d files'], target: ['%d soubor'], state: 'translated' }]);
    expect(out.toString('utf8')).toContain('msgstr[0] "%d soubor"\nmsgstr[1] ""\nmsgstr[2] ""\n');
  });

  it('appends added units at the end (after obsolete entries) and removes units with their blank line', () => {
    const out = write(
      CS,
      [],
      {
        add: [
          { context: 'toolbar', source: ['Save'], target: ['Uložit'], state: 'translated', note: 'Button', location: 'src/a.c:1, src/b.c:2', flags: 'max-length:20' },
          { context: '', source: ['%d item', '%d items'], target: ['%d položka', '%d položky', '%d položek'], state: 'fuzzy' },
        ],
        remove: [{ context: 'menu', source: ['Open'] }],
      },
    );
    expect(out.toString('utf8')).toBe(
      savedHeader(CS_TEXT).replace('# Translator note here\n#: src/menu.c:5\nmsgctxt "menu"\nmsgid "Open"\nmsgstr ""\n\n', '') +
        '\n#. Button\n#: src/a.c:1\n#: src/b.c:2\n#, max-length:20\nmsgctxt "toolbar"\nmsgid "Save"\nmsgstr "Uložit"\n' +
        '\n#, fuzzy\nmsgid "%d item"\nmsgid_plural "%d items"\nmsgstr[0] "%d položka"\nmsgstr[1] "%d položky"\nmsgstr[2] "%d položek"\n',
    );
  });

  it('removes the last entry together with the blank line before it', () => {
    const po = Buffer.from('msgid "a"\nmsgstr "1"\n\nmsgid "b"\nmsgstr "2"\n');
    const out = PO_FORMAT.write(po, { update: [], remove: [{ context: '', source: ['b'] }] }, CS_CONTEXT);
    expect(out.toString()).toBe(
      'msgid ""\nmsgstr ""\n"PO-Revision-Date: 2024-05-05 12:00+0000\\n"\n"Last-Translator: Weblate Admin <admin@example.com>\\n"\n' +
        '"Language: cs\\n"\n"MIME-Version: 1.0\\n"\n"Content-Type: text/plain; charset=UTF-8\\n"\n"Content-Transfer-Encoding: 8bit\\n"\n' +
        '"Plural-Forms: nplurals=3; plural=(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2;\\n"\n"X-Generator: Glossa 0.1.0\\n"\n\nmsgid "a"\nmsgstr "1"\n',
    );
    expectMsgfmtAccepts(out);
  });

  it('treats an update for a missing unit as an add and refuses to add an existing one', () => {
    const out = write(CS, [{ context: 'x', source: ['New'], target: ['Nový'], state: 'translated' }]);
    expect(out.toString()).toMatch(/#~ msgstr "Odstraněný řetězec"\n\nmsgctxt "x"\nmsgid "New"\nmsgstr "Nový"\n$/);
    expect(() =>
      PO_FORMAT.write(CS, { update: [], add: [{ context: 'menu', source: ['Open'], target: [''], state: 'empty' }] }, CS_CONTEXT),
    ).toThrow('already in the file');
  });

  it('keeps CRLF line ends, also on rewritten lines', () => {
    const crlf = fixture('crlf.po');
    const out = write(crlf, [{ context: '', source: ['No'], target: ['Nein'], state: 'translated' }]);
    const deContext = { ...CS_CONTEXT, languageCode: 'de', plural: { number: 2, formula: '(n != 1)' } };
    const deOut = PO_FORMAT.write(crlf, { update: [{ context: '', source: ['No'], target: ['Nein'], state: 'translated' }] }, deContext);
    expect(deOut.toString()).toBe(
      'msgid ""\r\nmsgstr ""\r\n"PO-Revision-Date: 2024-05-05 12:00+0000\\n"\r\n"Last-Translator: Weblate Admin <admin@example.com>\\n"\r\n' +
        '"Language: de\\n"\r\n"Content-Type: text/plain; charset=UTF-8\\n"\r\n"Plural-Forms: nplurals=2; plural=(n != 1);\\n"\r\n' +
        '"X-Generator: Glossa 0.1.0\\n"\r\n\r\n#: a.c:1\r\nmsgid "Yes"\r\nmsgstr "Ja"\r\n\r\nmsgid "No"\r\nmsgstr "Nein"\r\n',
    );
    expect(out.toString()).not.toMatch(/[^\r]\n/);
    expectMsgfmtAccepts(deOut);
  });

  it('writes back in the file charset and keeps a UTF-8 BOM', () => {
    const latin2 = fixture('latin2.po');
    const plContext = { ...CS_CONTEXT, languageCode: 'pl', plural: { number: 3, formula: '(n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2)' } };
    const out = PO_FORMAT.write(latin2, { update: [{ context: '', source: ['Open'], target: ['Otwórz żółw'], state: 'translated' }] }, plContext);
    expect(out.includes(Buffer.from('msgstr "Otwórz żółw"', 'latin1'))).toBe(false);
    expect(PO_FORMAT.parse(out).units[1].target).toEqual(['Otwórz żółw']);
    expect(out.subarray(out.length - 40).toString('latin1')).toContain('msgid "Open"');
    expectMsgfmtAccepts(out);
    const withBom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), CS]);
    const bomOut = PO_FORMAT.write(withBom, { update: [{ context: 'menu', source: ['Open'], target: ['O'], state: 'translated' }] }, CS_CONTEXT);
    expect([...bomOut.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  });

  it('adds a header to a file without one and repairs charset=CHARSET', () => {
    const bare = Buffer.from('msgid "a"\nmsgstr ""\n');
    const out = write(bare, [{ context: '', source: ['a'], target: ['b'], state: 'translated' }]);
    expect(out.toString()).toBe(
      'msgid ""\nmsgstr ""\n"PO-Revision-Date: 2024-05-05 12:00+0000\\n"\n"Last-Translator: Weblate Admin <admin@example.com>\\n"\n' +
        '"Language: cs\\n"\n"MIME-Version: 1.0\\n"\n"Content-Type: text/plain; charset=UTF-8\\n"\n"Content-Transfer-Encoding: 8bit\\n"\n' +
        '"Plural-Forms: nplurals=3; plural=(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2;\\n"\n"X-Generator: Glossa 0.1.0\\n"\n\nmsgid "a"\nmsgstr "b"\n',
    );
    const template = Buffer.from('msgid ""\nmsgstr "Content-Type: text/plain; charset=CHARSET\\n"\n\nmsgid "a"\nmsgstr ""\n');
    expect(write(template, [{ context: '', source: ['a'], target: ['b'], state: 'translated' }]).toString()).toContain(
      '"Content-Type: text/plain; charset=UTF-8\\n"',
    );
  });
});

describe('assertUploadPluralMatches', () => {
  it('refuses an upload whose Plural-Forms differ from the language (formats.md §3.1)', () => {
    const plural = { number: 3, formula: '(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2' };
    expect(() => assertUploadPluralMatches(PO_FORMAT.parse(CS), plural)).not.toThrow();
    expect(() => assertUploadPluralMatches(PO_FORMAT.parse(CS), { number: 3, formula: '(n==1)?0:(n>=2&&n<=4)?1:2' })).not.toThrow();
    expect(() => assertUploadPluralMatches(PO_FORMAT.parse(CS), { number: 2, formula: '(n != 1)' })).toThrow(
      'Plural forms do not match the language.',
    );
    expect(() => assertUploadPluralMatches({ units: [] }, { number: 2, formula: 'n != 1' })).not.toThrow();
  });
});
