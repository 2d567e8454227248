import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FormatLimitError, FormatParseError } from '../format';
import type { StoreUnit, StoreWriteContext, UnitWrite } from '../store';
import { TS_FORMAT, type TsStoreUnit } from './ts-format';
import { expectXmllintValid } from './xml2-validators.testing';

// Facts: shared/reference/formats.md §3.16 (Qt Linguist), §2.2 (states), §2.6 (flags from XML attributes).

// Fixtures are named *.ts.xml: a .ts file inside src/ would be compiled and linted as TypeScript.
const fixture = (name: string): Buffer => readFileSync(join(process.cwd(), 'src/formats/xml/fixtures/ts', name));
const CS = fixture('app.cs.ts.xml');
const CS_TEXT = CS.toString('utf8');

const czech: StoreWriteContext = {
  languageCode: 'cs_CZ',
  plural: { number: 3, formula: '(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2' },
};

function unit(fields: Partial<TsStoreUnit> & Pick<StoreUnit, 'context' | 'source' | 'position' | 'line'>): TsStoreUnit {
  return {
    target: [''],
    plural: false,
    note: '',
    location: '',
    flags: '',
    previousSource: '',
    fuzzy: false,
    approved: false,
    readOnly: false,
    monolingualContext: fields.context + fields.source[0],
    ...fields,
  };
}


const update = (context: string, source: string[], target: string[], state: UnitWrite['state']): UnitWrite => ({
  context,
  source,
  target,
  state,
});

describe('ts parse (formats.md §3.16)', () => {
  it('reads every live message field by field, skipping obsolete and vanished ones', () => {
    const parsed = TS_FORMAT.parse(CS);
    expect(parsed.language).toBe('cs_CZ');
    expect(parsed.units).toEqual([
      unit({
        context: 'MainWindow\nmenu item',
        source: ['Open file'],
        target: ['Otevřít soubor'],
        note: 'Shown in File menu\nKeep it short',
        location: '../src/mainwindow.cpp:42',
        position: 1,
        line: 6,
      }),
      unit({
        context: 'MainWindow',
        source: ['Save'],
        target: ['Uložit'],
        fuzzy: true,
        location: '../src/mainwindow.cpp:50, ../src/toolbar.cpp:7',
        position: 2,
        line: 14,
      }),
      unit({ context: 'MainWindow', source: ['Quit'], target: [''], position: 3, line: 20 }),
      unit({
        context: 'MainWindow',
        source: ['%n file', '%n files'],
        target: ['%n soubor', '%n soubory', '%n souborů'],
        plural: true,
        monolingualContext: 'MainWindow%n file(s)',
        position: 4,
        line: 24,
      }),
      // No type and an empty translation: Weblate shows the source as the translation (TSUnit.target).
      unit({ context: 'MainWindow', source: ['Same as source'], target: ['Same as source'], position: 5, line: 32 }),
      unit({
        context: 'Dialog',
        source: ['<b>Bold</b> & "quoted" \'x\''],
        target: ['<b>Tučně</b> & "v uvozovkách" \'x\''],
        // A relative location ("+3") makes Weblate drop the locations.
        location: '',
        position: 6,
        line: 47,
      }),
      unit({
        context: 'Dialog',
        source: ['Line one\nLine two'],
        target: ['Řádek <jedna>\nŘádek dva'],
        fuzzy: true,
        position: 7,
        line: 52,
      }),
      unit({
        context: 'Dialog\ndialog.open',
        source: ['Open file'],
        target: ['Otevřít'],
        flags: 'max-length:20',
        position: 8,
        line: 58,
      }),
    ]);
  });

  it('reads weblate-flags, font and maxwidth without a unit as Weblate flags, sorted', () => {
    const text = `<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de">
<context>
    <name>C</name>
    <message weblate-flags="read-only, placeholders:%1" maxwidth="100" font="Ubuntu Mono;12;bold">
        <source>A</source>
        <translation>B</translation>
    </message>
</context>
</TS>
`;
    const [parsed] = TS_FORMAT.parse(Buffer.from(text)).units;
    expect(parsed.flags).toBe('font-family:Ubuntu_Mono, font-size:12, font-weight:bold, max-size:100, placeholders:%1, read-only');
  });

  it('skips a blank message (no source, no translation) as translate-toolkit does', () => {
    const text = '<TS><context><name>C</name><message><source></source><translation></translation></message></context></TS>';
    expect(TS_FORMAT.parse(Buffer.from(text)).units).toEqual([]);
  });

  it('reports duplicates (same context and source) with both lines, or hands them to onDuplicate', () => {
    const text = `<TS>
<context>
    <name>C</name>
    <message>
        <source>A</source>
        <translation>1</translation>
    </message>
    <message>
        <source>A</source>
        <translation>2</translation>
    </message>
</context>
</TS>
`;
    expect(() => TS_FORMAT.parse(Buffer.from(text))).toThrow(new FormatParseError('line 8: duplicate string "A" in context "C" (first at line 4)'));
    const seen: Array<[number, number]> = [];
    const parsed = TS_FORMAT.parse(Buffer.from(text), { onDuplicate: (dup, kept) => seen.push([dup.line, kept.line]) });
    expect(parsed.units.map((one) => one.target)).toEqual([['1']]);
    expect(seen).toEqual([[8, 4]]);
  });

  it('fails on broken XML with the line, and on a file that is not a TS file', () => {
    expect(() => TS_FORMAT.parse(Buffer.from('<TS>\n<context>\n<name>C</name>\n</TS>\n'))).toThrow(FormatParseError);
    expect(() => TS_FORMAT.parse(Buffer.from('<TS>\n<context>\n<name>C</name>\n</TS>\n'))).toThrow(/^line 4: /);
    expect(() => TS_FORMAT.parse(Buffer.from('<resources/>'))).toThrow(new FormatParseError('line 1: root element is <resources>, expected <TS>'));
    expect(() => TS_FORMAT.parse(Buffer.from([0x3c, 0x54, 0x53, 0x3e, 0xff, 0x3c, 0x2f, 0x54, 0x53, 0x3e]))).toThrow(FormatParseError);
  });

  it('enforces the unit and string-length limits', () => {
    expect(() => TS_FORMAT.parse(CS, { limits: { maxUnits: 3 } })).toThrow(FormatLimitError);
    try {
      TS_FORMAT.parse(CS, { limits: { maxUnits: 3 } });
    } catch (error) {
      expect((error as FormatLimitError).kind).toBe('units');
    }
    expect(() => TS_FORMAT.parse(CS, { limits: { maxStringLength: 12 } })).toThrow(
      expect.objectContaining({ kind: 'string-length' }) as Error,
    );
    expect(TS_FORMAT.parse(CS, { limits: { maxUnits: 10, maxStringLength: 100 } }).units).toHaveLength(8);
  });

  it('reads UTF-16 with a BOM', () => {
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(CS_TEXT.replace('utf-8', 'utf-16'), 'utf16le')]);
    expect(TS_FORMAT.parse(utf16).units).toEqual(TS_FORMAT.parse(CS).units);
  });
});

describe('ts create (formats.md §2.4)', () => {
  it('has no fixed new-file content', () => {
    expect(TS_FORMAT.create(null, czech)).toBeNull();
  });

  it('untranslates the base: language set, translations emptied and unfinished, obsolete kept', () => {
    const base = fixture('app.en.ts.xml');
    const out = TS_FORMAT.create(base, { languageCode: 'de', plural: { number: 2, formula: '(n != 1)' } });
    expect(out).not.toBeNull();
    expectXmllintValid(out as Buffer);
    expect((out as Buffer).toString('utf8')).toBe(`<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de" sourcelanguage="en">
<context>
    <name>MainWindow</name>
    <message>
        <location filename="../src/mainwindow.cpp" line="42"/>
        <source>Open file</source>
        <comment>menu item</comment>
        <extracomment>Shown in File menu</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n file(s)</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>Old</source>
        <translation type="vanished">Old</translation>
    </message>
</context>
</TS>
`);
  });

  it('adds the language attribute when the base has none', () => {
    const out = TS_FORMAT.create(Buffer.from('<!DOCTYPE TS>\n<TS version="2.1">\n</TS>\n'), czech);
    expect((out as Buffer).toString('utf8')).toBe('<!DOCTYPE TS>\n<TS version="2.1" language="cs_CZ">\n</TS>\n');
  });
});

describe('ts at 50,000 messages', () => {
  it('reads every message and patches only the edited one', () => {
    const parts = ['<?xml version="1.0" encoding="utf-8"?>\n<!DOCTYPE TS>\n<TS version="2.1" language="cs">\n<context>\n    <name>Big</name>\n'];
    for (let index = 0; index < 50_000; index += 1) {
      parts.push(`    <message>\n        <source>Source ${index}</source>\n        <translation>Cíl ${index}</translation>\n    </message>\n`);
    }
    parts.push('</context>\n</TS>\n');
    const big = Buffer.from(parts.join(''));
    expect(TS_FORMAT.parse(big).units).toHaveLength(50_000);
    const edited = TS_FORMAT.write(big, { update: [update('Big', ['Source 25000'], ['Změna'], 'translated')] }, czech);
    expect(edited.toString('utf8')).toBe(big.toString('utf8').replace('<translation>Cíl 25000</translation>', '<translation>Změna</translation>'));
  });
});
