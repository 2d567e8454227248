import type { ExportContext, ExportUnit } from '../store';
import { ANDROID_RESOURCE_FORMAT } from './aresource.format';
import { XML_EXPORTERS } from './index';
import { POXLIFF_FORMAT } from './xliff.format';
import { expectWellFormedXml, runToolkit } from './xml-test-support';

const context: ExportContext = {
  languageCode: 'cs',
  languageName: 'Czech',
  sourceLanguageCode: 'en',
  plural: { number: 3, formula: '(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2' },
  projectName: 'Demo',
  componentName: 'App',
  translationUrl: 'http://localhost/translate/demo/app/cs/',
  generator: 'Glossa 0.1.0',
  monolingual: true,
};

function exportUnit(partial: Partial<ExportUnit> & Pick<ExportUnit, 'context' | 'source' | 'target' | 'state'>): ExportUnit {
  return { note: '', location: '', flags: '', checksum: 'c0ffee', ...partial };
}

const units: ExportUnit[] = [
  exportUnit({ context: 'hello', source: ['Hello & <b>'], target: ['Ahoj\u0001 & <b>'], state: 30, note: 'Greeting -- shown', location: 'src/a.c:10, src/b.c', flags: 'c-format, max-length:20' }),
  exportUnit({ context: '', source: ['Fuzzy'], target: ["Nejasné 'x'"], state: 10 }),
  exportUnit({ context: 'files', source: ['%d file', '%d files'], target: ['%d soubor', '%d soubory', '%d souborů'], state: 20 }),
  exportUnit({ context: 'empty', source: ['Empty'], target: [''], state: 0 }),
];

function exporter(id: string) {
  const found = XML_EXPORTERS.find((candidate) => candidate.id === id);
  if (!found) throw new Error(id);
  return found;
}

describe('XML exporters', () => {
  it('xliff: XLIFF 1.1 with gettext plural groups', () => {
    const out = exporter('xliff').export(units, context);
    expectWellFormedXml(out);
    expect(out.toString()).toBe(
      '<?xml version="1.0" encoding="UTF-8"?>\n' +
        '<xliff xmlns="urn:oasis:names:tc:xliff:document:1.1" version="1.1">\n' +
        '  <file original="NoName" source-language="en" datatype="plaintext" target-language="cs">\n' +
        '    <body>\n' +
        '      <trans-unit xml:space="preserve" approved="yes" id="hello" weblate-flags="c-format, max-length:20" maxwidth="20" size-unit="char"><source>Hello &amp; &lt;b&gt;</source>\n' +
        '        <target state="translated">Ahoj &amp; &lt;b&gt;</target>\n' +
        '        <context-group name="po-reference" purpose="location"><context context-type="sourcefile">src/a.c</context><context context-type="linenumber">10</context></context-group>\n' +
        '        <context-group name="po-reference" purpose="location"><context context-type="sourcefile">src/b.c</context></context-group>\n' +
        '        <note from="developer">Greeting -- shown</note>\n' +
        '      </trans-unit>\n' +
        '      <trans-unit xml:space="preserve" approved="no" id="c0ffee"><source>Fuzzy</source>\n' +
        '        <target state="needs-translation">Nejasné \'x\'</target>\n' +
        '      </trans-unit>\n' +
        '      <group restype="x-gettext-plurals" id="files" approved="yes">\n' +
        '        <trans-unit xml:space="preserve" approved="yes" id="files[0]"><source>%d file</source><target state="translated">%d soubor</target></trans-unit>\n' +
        '        <trans-unit xml:space="preserve" approved="yes" id="files[1]"><source>%d files</source><target state="translated">%d soubory</target></trans-unit>\n' +
        '        <trans-unit xml:space="preserve" approved="yes" id="files[2]"><source>%d files</source><target state="translated">%d souborů</target></trans-unit>\n' +
        '      </group>\n' +
        '      <trans-unit xml:space="preserve" id="empty"><source>Empty</source>\n' +
        '      </trans-unit>\n' +
        '    </body>\n  </file>\n</xliff>\n',
    );
    expect(POXLIFF_FORMAT.parse(out).units.map((unit) => [unit.context, unit.source, unit.target, unit.fuzzy, unit.approved, unit.location])).toEqual([
      ['NoName///hello', ['Hello & <b>'], ['Ahoj & <b>'], false, true, 'src/a.c:10, src/b.c'],
      ['NoName///c0ffee', ['Fuzzy'], ["Nejasné 'x'"], true, false, ''],
      ['NoName///files', ['%d file', '%d files', '%d files'], ['%d soubor', '%d soubory', '%d souborů'], false, true, ''],
      ['NoName///empty', ['Empty'], [''], false, false, ''],
    ]);
    const toolkit = runToolkit(out, 'from translate.storage import poxliff\ns = poxliff.PoXliffFile.parsefile(path)\nprint(json.dumps([u.isfuzzy() for u in s.units]))');
    if (toolkit !== null) expect(JSON.parse(toolkit.trim().split('\n').pop() as string)).toEqual([false, true, false, false]);
  });

  it('xliff11: one trans-unit per string', () => {
    const out = exporter('xliff11').export(units, context).toString();
    expectWellFormedXml(Buffer.from(out));
    expect(out).not.toContain('<group');
    expect(out).toContain('<trans-unit xml:space="preserve" approved="yes" id="files"><source>%d file</source>\n        <target state="translated">%d soubor</target>\n      </trans-unit>');
  });

  it('tbx and tmx', () => {
    const tbx = exporter('tbx').export(units.slice(0, 1), context);
    expectWellFormedXml(tbx);
    expect(tbx.toString()).toContain(
      '            <termEntry id="hello">\n                <langSet xml:lang="en"><tig><term>Hello &amp; &lt;b&gt;</term></tig></langSet>\n' +
        '                <langSet xml:lang="cs"><tig><term>Ahoj &amp; &lt;b&gt;</term></tig></langSet>\n                <note from="developer">Greeting -- shown</note>\n            </termEntry>\n',
    );
    const tmx = exporter('tmx').export(units.slice(1, 2), context);
    expectWellFormedXml(tmx);
    expect(tmx.toString()).toBe(
      '<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE tmx SYSTEM "tmx14.dtd">\n<tmx version="1.4">\n' +
        '  <header creationtool="Glossa" creationtoolversion="0.1.0" segtype="sentence" o-tmf="UTF-8" adminlang="en" srclang="en" datatype="PlainText"/>\n' +
        '  <body>\n    <tu>\n      <tuv xml:lang="en">\n        <seg>Fuzzy</seg>\n      </tuv>\n      <tuv xml:lang="cs">\n        <seg>Nejasné \'x\'</seg>\n      </tuv>\n    </tu>\n  </body>\n</tmx>\n',
    );
  });

  it('aresource: monolingual components only, Android escaping, plurals by category', () => {
    const android = exporter('aresource');
    expect(android.accepts('aresource', true)).toBe(true);
    expect(android.accepts('po', false)).toBe(false);
    const out = android.export(units, context);
    expectWellFormedXml(out);
    expect(out.toString()).toBe(
      '<?xml version="1.0" encoding="utf-8"?>\n<resources>\n' +
        '    <!--Greeting - shown-->\n    <string name="hello">Ahoj &amp; &lt;b&gt;</string>\n' +
        '    <string name="c0ffee">Nejasné \\\'x\\\'</string>\n' +
        '    <plurals name="files">\n        <item quantity="one">%d soubor</item>\n        <item quantity="few">%d soubory</item>\n        <item quantity="other">%d souborů</item>\n    </plurals>\n' +
        '    <string name="empty"></string>\n</resources>\n',
    );
    expect(ANDROID_RESOURCE_FORMAT.parse(out, { language: 'cs' }).units.map((unit) => unit.target)).toEqual([
      ['Ahoj & <b>'],
      ["Nejasné 'x'"],
      ['%d soubor', '%d soubory', '%d souborů'],
      [''],
    ]);
  });
});
