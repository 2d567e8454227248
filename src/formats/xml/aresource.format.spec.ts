import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FormatLimitError, FormatParseError } from '../format';
import type { StoreUnit, StoreWriteContext } from '../store';
import { ANDROID_RESOURCE_FORMAT as android } from './aresource.format';
import { expectWellFormedXml, runToolkit } from './xml-test-support';

const fixture = readFileSync(join(process.cwd(), 'src/formats/xml/fixtures/android/strings.xml'));
const cs: StoreWriteContext = { languageCode: 'cs', plural: { number: 3, formula: '(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2' } };

function unit(partial: Partial<StoreUnit> & Pick<StoreUnit, 'context' | 'target' | 'position' | 'line'>): StoreUnit {
  return { source: [], plural: false, note: '', location: '', flags: '', previousSource: '', fuzzy: false, approved: false, readOnly: false, ...partial };
}

function write(before: string | Buffer, changes: Parameters<typeof android.write>[1], context = cs): string {
  const out = android.write(Buffer.isBuffer(before) ? before : Buffer.from(before), changes, context);
  expectWellFormedXml(out);
  return out.toString('utf8');
}

describe('aresource parse', () => {
  it('reads every entry field by field', () => {
    expect(android.parse(fixture).units).toEqual([
      unit({ context: 'app_name', target: ['Demo'], note: ' App name shown in launcher ', position: 1, line: 4 }),
      unit({ context: 'brand', target: ['ACME'], readOnly: true, position: 2, line: 5 }),
      unit({ context: 'apos', target: ['Don\'t "quote" me\nplease'], note: ' First line \nSecond line', position: 3, line: 9 }),
      unit({ context: 'written', target: ['Nedělej "uvozovky"\na \'apostrofy\' ? @ne'], position: 4, line: 10 }),
      unit({ context: 'markup', target: ['Hello <b>%1$s</b> &amp; co'], position: 5, line: 12 }),
      unit({
        context: 'placeholder',
        target: [' Hello <xliff:g xmlns:xliff="urn:oasis:names:tc:xliff:document:1.2" id="count" example="5">%d</xliff:g> items'],
        position: 6,
        line: 13,
      }),
      unit({ context: 'spaces', target: ['  padded  '], position: 7, line: 14 }),
      unit({ context: 'multiline', target: ['First second third'], position: 8, line: 15 }),
      unit({ context: 'cdata', target: ['<b>bold</b> quoted  text'], position: 9, line: 17 }),
      unit({ context: 'escapes', target: ['A@x \\ \ttab'], position: 10, line: 18 }),
      unit({ context: 'entities', target: ['a & b < c'], position: 11, line: 19 }),
      unit({ context: 'limited', target: ['Short'], flags: 'c-format, max-length:10', position: 12, line: 20 }),
      unit({ context: 'empty', target: [''], position: 13, line: 21 }),
      unit({ context: 'files', target: ['%d file', '%d files'], plural: true, position: 14, line: 22 }),
    ]);
  });

  it('agrees with translate-toolkit on every target and note', () => {
    const toolkit = runToolkit(
      fixture,
      'from translate.storage import aresource\ns = aresource.AndroidResourceFile.parsefile(path)\n' +
        'print(json.dumps([[u.getid(), list(u.target.strings) if hasattr(u.target, "strings") else [u.target], u.getnotes()] for u in s.units]))',
    );
    if (toolkit === null) return;
    const ours = android.parse(fixture).units.map((u) => [u.context, u.target, u.note]);
    // The Debian toolkit prints debugging lines for plurals: the JSON is the last line.
    expect(ours).toEqual(JSON.parse(toolkit.trim().split('\n').pop() as string));
  });

  it('maps plural items onto the language categories by quantity', () => {
    const file = '<resources><plurals name="p"><item quantity="other">o</item><item quantity="few">f</item><item quantity="one">1</item></plurals></resources>';
    expect(android.parse(Buffer.from(file), { language: 'cs' }).units[0].target).toEqual(['1', 'f', 'o']);
    expect(android.parse(Buffer.from(file), { language: 'ru' }).units[0].target).toEqual(['1', 'f', '']);
    expect(android.parse(Buffer.from(file), { language: 'ja' }).units[0].target).toEqual(['o']);
  });

  it('reads UTF-16 and BOM files', () => {
    const text = '<?xml version="1.0" encoding="utf-16"?>\n<resources><string name="a">é</string></resources>';
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    expect(android.parse(utf16).units[0].target).toEqual(['é']);
  });

  it('reports duplicates, or hands them to onDuplicate', () => {
    const file = Buffer.from('<resources>\n<string name="a">1</string>\n<string name="a">2</string>\n<string name="b">3</string>\n</resources>');
    expect(() => android.parse(file)).toThrow(new FormatParseError('line 3: duplicate string "a" (first on line 2)'));
    const duplicates: string[] = [];
    const units = android.parse(file, { onDuplicate: (dup, kept) => duplicates.push(`${dup.target[0]}>${kept.target[0]}`) }).units;
    expect(units.map((u) => [u.context, u.position])).toEqual([['a', 1], ['b', 3]]);
    expect(duplicates).toEqual(['2>1']);
  });

  it('enforces limits', () => {
    expect(() => android.parse(fixture, { limits: { maxUnits: 3 } })).toThrow(FormatLimitError);
    expect(() => android.parse(fixture, { limits: { maxStringLength: 20 } })).toThrow(
      new FormatLimitError('string-length', 'line 9: a string is longer than 20 characters'),
    );
  });

  it.each([
    ['<resources>\n<string name="a">x</strin>\n</resources>', 'line 2: end tag </strin> does not match <string> of line 2'],
    ['<resources>\n<string>x</string></resources>', 'line 2: <string> without a name attribute'],
    ['<?xml version="1.0"?>\n<root/>', 'line 2: root element is <root>, not <resources>'],
    ['<!DOCTYPE r [<!ENTITY x "y">]><resources/>', 'line 1: entity declarations are not allowed (DOCTYPE with <!ENTITY>)'],
  ])('rejects bad files with a line number: %j', (file, message) => {
    expect(() => android.parse(Buffer.from(file))).toThrow(new FormatParseError(message));
  });
});

describe('aresource write', () => {
  it('keeps an unchanged file byte-identical', () => {
    expect(android.write(fixture, { update: [] }, cs).equals(fixture)).toBe(true);
  });

  it('changes only the edited string', () => {
    const out = write(fixture, { update: [{ context: 'app_name', source: [], target: ["Ukázka 'app'?\nnext"], state: 'translated' }] });
    expect(out).toBe(
      fixture.toString().replace('<string name="app_name">Demo</string>', '<string name="app_name">Ukázka \\\'app\\\'\\?\n\\nnext</string>'),
    );
    expect(android.parse(Buffer.from(out)).units[0].target).toEqual(["Ukázka 'app'?\nnext"]);
  });

  it.each([
    ['@ref and  double', '"\\@ref and  double"'],
    ['x <b>bold</b> & y', 'x &lt;b&gt;bold&lt;/b&gt; &amp; y'],
    ['Hi <b>it\'s</b> &amp; <xliff:g xmlns:xliff="urn:oasis:names:tc:xliff:document:1.2" id="n">%d</xliff:g>', 'Hi <b>it\\\'s</b> &amp; <xliff:g id="n">%d</xliff:g>'],
    ['a &amp; b', 'a &amp; b'],
    ['', ''],
  ])('escapes %j as %j', (target, written) => {
    const out = write(fixture, { update: [{ context: 'markup', source: [], target: [target], state: 'translated' }] });
    expect(out).toBe(fixture.toString().replace('<string name="markup">Hello <b>%1$s</b> &amp; co</string>', `<string name="markup">${written}</string>`));
  });

  it('rebuilds plurals with the language categories and fills a self-closing string', () => {
    const out = write(fixture, {
      update: [
        { context: 'files', source: [], target: ['%d soubor', '%d soubory', '%d souborů'], state: 'translated' },
        { context: 'empty', source: [], target: ['Plno'], state: 'readonly' },
      ],
    });
    expect(out).toBe(
      fixture
        .toString()
        .replace('<string name="empty"/>', '<string name="empty" translatable="false">Plno</string>')
        .replace(
          '        <item quantity="one">%d file</item>\n        <item quantity="other">%d files</item>',
          '        <item quantity="one">%d soubor</item>\n        <item quantity="few">%d soubory</item>\n        <item quantity="other">%d souborů</item>',
        ),
    );
  });

  it('adds an other item copying many for languages without other', () => {
    const file = '<resources>\n  <plurals name="p">\n    <item quantity="one">x</item>\n  </plurals>\n</resources>\n';
    const out = write(file, { update: [{ context: 'p', source: [], target: ['1', '2', '5'], state: 'translated' }] }, { ...cs, languageCode: 'ru' });
    expect(out).toBe(
      '<resources>\n  <plurals name="p">\n    <item quantity="one">1</item>\n    <item quantity="few">2</item>\n    <item quantity="many">5</item>\n    <item quantity="other">5</item>\n  </plurals>\n</resources>\n',
    );
  });

  it('appends missing keys at the end of <resources>, copying the template entry', () => {
    const translation = '<?xml version="1.0" encoding="utf-8"?>\r\n<resources>\r\n  <string name="a">A</string>\r\n  <!-- end -->\r\n</resources>';
    const out = write(
      translation,
      {
        update: [{ context: 'limited', source: [], target: ['Krátké'], state: 'translated' }],
        add: [{ context: 'files', source: [], target: ['1', '2', '5'], state: 'translated' }, { context: 'new', source: [], target: ['N'], state: 'translated' }],
      },
      { ...cs, template: fixture },
    );
    expect(out).toBe(
      '<?xml version="1.0" encoding="utf-8"?>\r\n<resources>\r\n  <string name="a">A</string>\r\n  <!-- end -->\r\n' +
        '  <string name="limited" weblate-flags="c-format" maxwidth="10" size-unit="char" tools:ignore="MissingTranslation">Krátké</string>\r\n' +
        '  <plurals name="files">\r\n    <item quantity="one">1</item>\r\n    <item quantity="few">2</item>\r\n    <item quantity="other">5</item>\r\n  </plurals>\r\n' +
        '  <string name="new">N</string>\r\n</resources>',
    );
  });

  it('adds to an empty new file', () => {
    const created = android.create(null, cs) as Buffer;
    expect(created.toString()).toBe('<?xml version="1.0" encoding="utf-8"?>\n<resources></resources>');
    expect(write(created, { update: [{ context: 'a', source: [], target: ['A'], state: 'translated' }] })).toBe(
      '<?xml version="1.0" encoding="utf-8"?>\n<resources>\n    <string name="a">A</string>\n</resources>',
    );
    expect(write('<resources/>', { update: [{ context: 'a', source: [], target: ['A'], state: 'translated' }] })).toBe(
      '<resources>\n    <string name="a">A</string>\n</resources>',
    );
  });

  it('removes an entry with its line', () => {
    const out = write(fixture, { update: [], remove: [{ context: 'brand', source: [] }, { context: 'files', source: [] }] });
    expect(out).toBe(
      fixture
        .toString()
        .replace('\n    <string name="brand" translatable="false">ACME</string>', '')
        .replace('\n    <plurals name="files">\n        <item quantity="one">%d file</item>\n        <item quantity="other">%d files</item>\n    </plurals>', ''),
    );
  });

  it('creates a translation from a base with every text emptied', () => {
    const created = android.create(Buffer.from('<resources>\n    <string name="a">A</string>\n    <plurals name="p"><item quantity="one">x</item></plurals>\n</resources>\n'), cs) as Buffer;
    expectWellFormedXml(created);
    expect(created.toString()).toBe(
      '<resources>\n    <string name="a"></string>\n    <plurals name="p">\n        <item quantity="one"></item>\n        <item quantity="few"></item>\n        <item quantity="other"></item>\n    </plurals>\n</resources>\n',
    );
  });

  it('keeps UTF-16 with BOM when writing', () => {
    const text = '<?xml version="1.0" encoding="utf-16"?>\n<resources><string name="a">é</string></resources>';
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    const out = android.write(utf16, { update: [{ context: 'a', source: [], target: ['ř'], state: 'translated' }] }, cs);
    expect(out.equals(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text.replace('é', 'ř'), 'utf16le')]))).toBe(true);
  });

  it('reads 50,000 strings and patches only the edited one', () => {
    const body = Array.from({ length: 50_000 }, (_, i) => `    <string name="k${i}">Value \\'${i}\\' &amp; more</string>\n`).join('');
    const big = Buffer.from(`<?xml version="1.0" encoding="utf-8"?>\n<resources>\n${body}</resources>\n`);
    expect(android.parse(big).units).toHaveLength(50_000);
    const out = android.write(big, { update: [{ context: 'k25000', source: [], target: ['x'], state: 'translated' }] }, cs);
    expect(out.toString('utf8')).toBe(big.toString('utf8').replace(`<string name="k25000">Value \\'25000\\' &amp; more</string>`, '<string name="k25000">x</string>'));
  });
});
