import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FormatLimitError, FormatParseError } from '../format';
import type { StoreChanges, StoreUnit, StoreWriteContext } from '../store';
import { POXLIFF_FORMAT as poxliff, XLIFF_FORMAT as xliff } from './xliff.format';
import { expectWellFormedXml, runToolkit } from './xml-test-support';

const dir = join(process.cwd(), 'src/formats/xml/fixtures/xliff');
const app = readFileSync(join(dir, 'app.xlf'));
const appText = app.toString();
const plurals = readFileSync(join(dir, 'plurals.xlf'));
const pluralsText = plurals.toString();
const cs: StoreWriteContext = { languageCode: 'cs', plural: { number: 3, formula: '(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2' } };

function unit(partial: Partial<StoreUnit> & Pick<StoreUnit, 'context' | 'source' | 'target' | 'position' | 'line'>): StoreUnit {
  return { plural: false, note: '', location: '', flags: '', previousSource: '', fuzzy: false, approved: false, readOnly: false, ...partial };
}

function writeXliff(before: Buffer | string, changes: StoreChanges, context = cs, format = xliff): string {
  const out = format.write(Buffer.isBuffer(before) ? before : Buffer.from(before), changes, context);
  expectWellFormedXml(out);
  return out.toString();
}

describe('xliff parse', () => {
  it('reads units field by field', () => {
    expect(xliff.parse(app)).toEqual({
      language: 'cs',
      units: [
        unit({ context: 'greeting.hello', source: ['Hello'], target: ['Ahoj'], note: 'Greeting on start\nSecond note', approved: true, position: 1, line: 5 }),
        unit({ context: 'app.properties///bye', source: ['Goodbye'], target: ['Nashle'], flags: 'max-length:20', position: 2, line: 12 }),
        unit({ context: 'app.properties///new1', source: ['New &amp; shiny'], target: ['Nové'], fuzzy: true, position: 3, line: 16 }),
        unit({ context: 'app.properties///ro', source: ['Brand'], target: ['Brand'], flags: 'c-format, read-only', readOnly: true, position: 4, line: 20 }),
        unit({
          context: 'app.properties///rich',
          source: ['Click <g id="1">here</g> &amp; <x id="2"/> now'],
          target: ['Klikni <g id="1">sem</g>'],
          position: 5,
          line: 25,
        }),
        unit({ context: 'app.properties///spaces', source: ['  two  spaces\n kept '], target: [''], position: 6, line: 29 }),
        unit({ context: 'app.properties///collapsed', source: ['many spaces'], target: [''], position: 7, line: 32 }),
        unit({ context: 'app.properties///cdata', source: ['a &lt; b'], target: [''], position: 8, line: 37 }),
        unit({ context: 'noorig', source: ['No original'], target: [''], position: 9, line: 43 }),
      ],
    });
  });

  it('reads plain text with poxliff', () => {
    expect(poxliff.parse(app).units.map((u) => u.source[0])).toEqual([
      'Hello', 'Goodbye', 'New & shiny', 'Brand', 'Click here & now', '  two  spaces\n kept ', 'many spaces', 'a < b', 'No original',
    ]);
  });

  it('reads po2xliff files: header skipped, plural groups, locations, notes', () => {
    expect(poxliff.parse(plurals).units).toEqual([
      unit({ context: 'messages.po///3', source: ['Hello %s'], target: ['Ahoj %s'], note: 'Dev comment', location: 'src/main.c:10, src/main.c:22', approved: true, position: 1, line: 14 }),
      unit({ context: 'messages.po///4', source: ['File'], target: ['Soubor'], note: 'Translator note', approved: true, position: 2, line: 21 }),
      unit({ context: 'messages.po///5', source: ['Fuzzy & <b>'], target: ['Nejasné'], fuzzy: true, position: 3, line: 26 }),
      unit({
        context: 'messages.po///messages.po///6',
        source: ['%d file', '%d files', '%d files'],
        target: ['%d soubor', '%d soubory', '%d souborů'],
        plural: true,
        location: 'src/files.c:40',
        approved: true,
        position: 4,
        line: 29,
      }),
      unit({ context: 'messages.po///7', source: ['Untranslated'], target: [''], position: 5, line: 35 }),
    ]);
  });

  it('agrees with translate-toolkit on plain sources and targets', () => {
    const toolkit = runToolkit(
      plurals,
      'from translate.storage import poxliff\ns = poxliff.PoXliffFile.parsefile(path)\n' +
        'out = []\nfor u in s.units:\n  if u.isheader(): continue\n  t = u.target\n  out.append(list(t.strings) if hasattr(t, "strings") else [t or ""])\nprint(json.dumps(out))',
    );
    if (toolkit === null) return;
    expect(poxliff.parse(plurals).units.map((u) => u.target)).toEqual(JSON.parse(toolkit.trim().split('\n').pop() as string));
  });

  it('reports duplicates and limits', () => {
    const file = Buffer.from('<xliff><file><body>\n<trans-unit id="a"><source>x</source></trans-unit>\n<trans-unit id="a"><source>x</source></trans-unit>\n</body></file></xliff>');
    expect(() => xliff.parse(file)).toThrow(new FormatParseError('line 3: duplicate unit "a" (first on line 2)'));
    expect(xliff.parse(file, { onDuplicate: () => undefined }).units).toHaveLength(1);
    expect(() => xliff.parse(app, { limits: { maxUnits: 2 } })).toThrow(FormatLimitError);
    expect(() => xliff.parse(app, { limits: { maxStringLength: 12 } })).toThrow(new FormatLimitError('string-length', 'line 5: a string is longer than 14 characters'.replace('14', '12')));
  });

  it.each([
    ['<xliff><file><body><trans-unit id="a"><source>x</source></trans-unit></body></file>', 'line 1: element <xliff> is not closed'],
    ['<?xml version="1.0"?>\n<resources/>', 'line 2: root element is <resources>, not <xliff>'],
    ['<!DOCTYPE x [<!ENTITY a "b">]><xliff/>', 'line 1: entity declarations are not allowed (DOCTYPE with <!ENTITY>)'],
  ])('rejects %j', (file, message) => {
    expect(() => xliff.parse(Buffer.from(file))).toThrow(new FormatParseError(message));
  });
});

describe('xliff write', () => {
  it('keeps an unchanged file byte-identical', () => {
    expect(xliff.write(app, { update: [] }, cs).equals(app)).toBe(true);
    expect(poxliff.write(plurals, { update: [] }, cs).equals(plurals)).toBe(true);
  });

  it('writes targets and states in place', () => {
    const out = writeXliff(app, {
      update: [
        { context: 'greeting.hello', source: ['Hello'], target: ['Nazdar'], state: 'translated' },
        { context: 'app.properties///new1', source: ['New &amp; shiny'], target: ['Nové & <b>lesklé</b>'], state: 'translated' },
        { context: 'app.properties///rich', source: ['Click <g id="1">here</g> &amp; <x id="2"/> now'], target: ['Klikni <g id="1">tady</g> &amp; <x id="2"/>'], state: 'approved' },
        { context: 'app.properties///collapsed', source: ['many spaces'], target: ['Mnoho'], state: 'translated' },
        { context: 'app.properties///cdata', source: ['a &lt; b'], target: ['a &lt; b'], state: 'fuzzy' },
        { context: 'app.properties///bye', source: ['Goodbye'], target: [''], state: 'empty' },
      ],
    });
    expect(out).toBe(
      appText
        .replace('<trans-unit id="hello" resname="greeting.hello" approved="yes">', '<trans-unit id="hello" resname="greeting.hello" approved="no">')
        .replace('<target state="final">Ahoj</target>', '<target state="translated">Nazdar</target>')
        .replace('<target state="needs-translation">Nové</target>', '<target state="translated">Nové &amp; &lt;b&gt;lesklé&lt;/b&gt;</target>')
        .replace('<trans-unit id="rich">', '<trans-unit id="rich" approved="yes">')
        .replace('<target state="translated">Klikni <g id="1">sem</g></target>', '<target state="final">Klikni <g id="1">tady</g> &amp; <x id="2"/></target>')
        .replace('<target/>', '<target state="translated">Mnoho</target>')
        .replace('<source><![CDATA[a < b]]></source>', '<source><![CDATA[a < b]]></source><target state="needs-translation">a &lt; b</target>')
        .replace('\n        <target state="needs-review-translation">Nashle</target>', ''),
    );
    expect(xliff.parse(Buffer.from(out)).units.map((u) => [u.target[0], u.fuzzy, u.approved])).toEqual([
      ['Nazdar', false, false],
      ['', false, false],
      ['Nové &amp; &lt;b&gt;lesklé&lt;/b&gt;', false, false],
      ['Brand', false, false],
      ['Klikni <g id="1">tady</g> &amp; <x id="2"/>', false, true],
      ['', false, false],
      ['Mnoho', false, false],
      ['a &lt; b', true, false],
      ['', false, false],
    ]);
  });

  it('tells units sharing a context apart by source', () => {
    const file = '<xliff version="1.2"><file><body>\n<trans-unit id="1" resname="k"><source>One</source></trans-unit>\n<trans-unit id="2" resname="k"><source>Two</source></trans-unit>\n</body></file></xliff>';
    expect(writeXliff(file, { update: [{ context: 'k', source: ['Two'], target: ['Dva'], state: 'translated' }] })).toBe(
      file.replace('<source>Two</source>', '<source>Two</source><target state="translated">Dva</target>'),
    );
  });

  it('inserts a missing target on its own line after the source', () => {
    const file = '<xliff version="1.2">\n<file original="f"><body>\n  <trans-unit id="a">\n    <source>A</source>\n  </trans-unit>\n</body></file>\n</xliff>\n';
    expect(writeXliff(file, { update: [{ context: 'f///a', source: ['A'], target: ['Á'], state: 'translated' }] })).toBe(
      file.replace('<source>A</source>\n', '<source>A</source>\n    <target state="translated">Á</target>\n'),
    );
  });

  it('appends new units to the last body, from the template when there is one', () => {
    const file = '<?xml version="1.0"?>\r\n<xliff version="1.2">\r\n  <file original="f">\r\n    <body>\r\n      <trans-unit id="a"><source>A</source></trans-unit>\r\n    </body>\r\n  </file>\r\n</xliff>';
    const template = Buffer.from('<xliff version="1.2"><file original="f"><body><trans-unit id="t" maxwidth="5" size-unit="char"><source>T</source><note>n</note></trans-unit></body></file></xliff>');
    const out = writeXliff(
      file,
      {
        update: [],
        add: [
          { context: 'f///t', source: ['T'], target: ['Té'], state: 'translated' },
          { context: 'f///n', source: ['New <b>x</b>'], target: ['Nový <b>x</b>'], state: 'fuzzy' },
        ],
      },
      { ...cs, template },
    );
    expect(out).toBe(
      file.replace(
        '<trans-unit id="a"><source>A</source></trans-unit>',
        '<trans-unit id="a"><source>A</source></trans-unit>\r\n' +
          '      <trans-unit id="t" maxwidth="5" size-unit="char"><source>T</source><target state="translated">Té</target><note>n</note></trans-unit>\r\n' +
          '      <trans-unit id="n" xml:space="preserve"><source>New <b>x</b></source><target state="needs-translation">Nový <b>x</b></target></trans-unit>',
      ),
    );
  });

  it('removes a unit with its lines', () => {
    const out = writeXliff(app, { update: [], remove: [{ context: 'app.properties///bye', source: ['Goodbye'] }] });
    expect(out).toBe(
      appText.replace(
        '\n      <trans-unit id="bye" maxwidth="20" size-unit="char">\n        <source>Goodbye</source>\n        <target state="needs-review-translation">Nashle</target>\n      </trans-unit>',
        '',
      ),
    );
  });

  it('creates a translation from a base: targets removed, language set', () => {
    const created = xliff.create(app, { ...cs, languageCode: 'de' }) as Buffer;
    expectWellFormedXml(created);
    expect(created.toString()).toBe(
      appText
        .replace('target-language="cs"', 'target-language="de"')
        .replace('<file source-language="en" datatype="plaintext">', '<file source-language="en" datatype="plaintext" target-language="de">')
        .replace(/\n *<target[^>]*>[^<]*(<g id="1">sem<\/g>)?<\/target>/g, '')
        .replace('\n        <target/>', ''),
    );
    expect(xliff.create(null, cs)).toBeNull();
  });

  it('keeps UTF-16 and the BOM', () => {
    const text = '<?xml version="1.0" encoding="UTF-16"?>\n<xliff version="1.2"><file><body><trans-unit id="a"><source>A</source><target>B</target></trans-unit></body></file></xliff>';
    const bytes = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    const out = xliff.write(bytes, { update: [{ context: 'a', source: ['A'], target: ['Č'], state: 'translated' }] }, cs);
    expect(out.equals(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text.replace('<target>B', '<target state="translated">Č'), 'utf16le')]))).toBe(true);
  });
});

describe('poxliff write', () => {
  const group = 'messages.po///messages.po///6';
  it('writes plural forms and states into the group', () => {
    const out = writeXliff(plurals, { update: [{ context: group, source: ['%d file', '%d files', '%d files'], target: ['%d složka', '%d složky', '%d složek'], state: 'fuzzy' }] }, cs, poxliff);
    expect(out).toBe(
      pluralsText
        .replace('<group restype="x-gettext-plurals" id="messages.po__%04__6" approved="yes">', '<group restype="x-gettext-plurals" id="messages.po__%04__6" approved="no">')
        .replace(/approved="yes" id="messages.po__%04__6\[0\]"><source>%d file<\/source><target state="translated">%d soubor</, 'approved="no" id="messages.po__%04__6[0]"><source>%d file</source><target state="needs-translation">%d složka<')
        .replace('id="messages.po__%04__6[1]" approved="yes"><source>%d files</source><target state="translated">%d soubory<', 'id="messages.po__%04__6[1]" approved="no"><source>%d files</source><target state="needs-translation">%d složky<')
        .replace('id="messages.po__%04__6[2]" approved="yes"><source>%d files</source><target state="translated">%d souborů<', 'id="messages.po__%04__6[2]" approved="no"><source>%d files</source><target state="needs-translation">%d složek<'),
    );
    const toolkit = runToolkit(Buffer.from(out), 'from translate.storage import poxliff\ns = poxliff.PoXliffFile.parsefile(path)\nu = [u for u in s.units if u.hasplural()][0]\nprint(json.dumps([list(u.target.strings), u.isfuzzy()]))');
    if (toolkit !== null) expect(JSON.parse(toolkit.trim().split('\n').pop() as string)).toEqual([['%d složka', '%d složky', '%d složek'], true]);
  });

  it('adds and drops plural trans-units to match the plural', () => {
    const out = writeXliff(plurals, { update: [{ context: group, source: [], target: ['a', 'b', 'c', 'd'], state: 'translated' }] }, { ...cs, plural: { number: 4, formula: 'n' } }, poxliff);
    expect(out).toContain(
      '<target state="translated">c</target></trans-unit>\n        <trans-unit xml:space="preserve" id="messages.po__%04__6[3]"><source>%d files</source><target state="translated">d</target></trans-unit>\n      </group>',
    );
    const fewer = writeXliff(plurals, { update: [{ context: group, source: [], target: ['x'], state: 'translated' }] }, { ...cs, plural: { number: 1, formula: '0' } }, poxliff);
    expect(fewer).not.toContain('[1]');
    expect(poxliff.parse(Buffer.from(fewer)).units[3].target).toEqual(['x']);
  });

  it('writes plain text escaped', () => {
    const out = writeXliff(plurals, { update: [{ context: 'messages.po///7', source: ['Untranslated'], target: ['<b> & </b>'], state: 'translated' }] }, cs, poxliff);
    // gettext profile: a translated unit is approved="yes" (what po2xliff writes and translate-toolkit expects).
    expect(out).toBe(
      pluralsText
        .replace('<trans-unit xml:space="preserve" id="7">', '<trans-unit xml:space="preserve" id="7" approved="yes">')
        .replace('<target></target>', '<target state="translated">&lt;b&gt; &amp; &lt;/b&gt;</target>'),
    );
  });

  it('reads 50,000 units and patches only the edited one', () => {
    const body = Array.from({ length: 50_000 }, (_, i) => `      <trans-unit id="u${i}"><source>Source ${i}</source><target state="translated">Target ${i}</target></trans-unit>\n`).join('');
    const big = Buffer.from(`<?xml version="1.0" encoding="UTF-8"?>\n<xliff version="1.2"><file original="f"><body>\n${body}</body></file></xliff>\n`);
    expect(xliff.parse(big).units).toHaveLength(50_000);
    const edited = xliff.write(big, { update: [{ context: 'f///u49999', source: ['Source 49999'], target: ['x'], state: 'translated' }] }, cs);
    expect(edited.toString('utf8')).toBe(big.toString('utf8').replace('<target state="translated">Target 49999</target>', '<target state="translated">x</target>'));
  });
});
