import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FormatParseError } from '../format';
import type { StoreUnit, StoreWriteContext, UnitWrite } from '../store';
import { TS_FORMAT, type TsStoreUnit } from './ts-format';
import { expectXmllintValid } from './xml2-validators.testing';

// Writing Qt Linguist files (formats.md §3.16 "States" and "Write-back"); parsing is in ts.spec.ts.

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

/** Replaces one exact, unique piece of `text`: the expected output is the original with one hunk changed. */
function replaceOnce(text: string, from: string, to: string): string {
  const at = text.indexOf(from);
  if (at === -1 || text.indexOf(from, at + 1) !== -1) throw new Error(`not exactly once: ${from}`);
  return text.slice(0, at) + to + text.slice(at + from.length);
}

const write = (changes: Parameters<typeof TS_FORMAT.write>[1], content: Buffer = CS): string => {
  const out = TS_FORMAT.write(content, changes, czech);
  expectXmllintValid(out);
  return out.toString('utf8');
};

const update = (context: string, source: string[], target: string[], state: UnitWrite['state']): UnitWrite => ({
  context,
  source,
  target,
  state,
});

describe('ts write (patches the original bytes)', () => {
  it('leaves an unchanged file byte-identical, also when updates repeat what the file says', () => {
    expect(TS_FORMAT.write(CS, { update: [] }, czech).equals(CS)).toBe(true);
    const same = TS_FORMAT.parse(CS).units.map((one) =>
      update(one.context, one.source, one.target, one.fuzzy ? 'fuzzy' : one.target[0] === '' ? 'empty' : 'translated'),
    );
    expect(TS_FORMAT.write(CS, { update: same }, czech).equals(CS)).toBe(true);
  });

  it('translates an unfinished empty message: text set, type removed, nothing else touched', () => {
    expect(write({ update: [update('MainWindow', ['Quit'], ['Ukončit'], 'translated')] })).toBe(
      replaceOnce(CS_TEXT, '<translation type="unfinished"></translation>', '<translation>Ukončit</translation>'),
    );
  });

  it('approving a fuzzy message drops type="unfinished"; marking one fuzzy adds it', () => {
    expect(write({ update: [update('MainWindow', ['Save'], ['Uložit'], 'translated')] })).toBe(
      replaceOnce(CS_TEXT, '<translation type="unfinished">Uložit</translation>', '<translation>Uložit</translation>'),
    );
    expect(write({ update: [update('MainWindow\nmenu item', ['Open file'], ['Otevřít soubor'], 'fuzzy')] })).toBe(
      replaceOnce(CS_TEXT, '<translation>Otevřít soubor</translation>', '<translation type="unfinished">Otevřít soubor</translation>'),
    );
  });

  it('an emptied translation gets type="unfinished" (§3.16 "On save")', () => {
    expect(write({ update: [update('Dialog\ndialog.open', ['Open file'], [''], 'empty')] })).toBe(
      replaceOnce(CS_TEXT, '<translation>Otevřít</translation>', '<translation type="unfinished"></translation>'),
    );
  });

  it('escapes text the way Qt does (&, <, >, quotes and apostrophes) and keeps new lines', () => {
    expect(write({ update: [update('Dialog', ['Line one\nLine two'], ['Řádek "1" & <2>\nŘádek \'3\''], 'translated')] })).toBe(
      replaceOnce(
        CS_TEXT,
        '<translation type="unfinished"><![CDATA[Řádek <jedna>]]>\nŘádek dva</translation>',
        '<translation>Řádek &quot;1&quot; &amp; &lt;2&gt;\nŘádek &apos;3&apos;</translation>',
      ),
    );
  });

  it('rewrites numerus forms in place, padded to the plural count', () => {
    expect(write({ update: [update('MainWindow', ['%n file', '%n files'], ['%n dokument', '%n dokumenty'], 'translated')] })).toBe(
      replaceOnce(
        CS_TEXT,
        `            <numerusform>%n soubor</numerusform>
            <numerusform>%n soubory</numerusform>
            <numerusform>%n souborů</numerusform>`,
        `            <numerusform>%n dokument</numerusform>
            <numerusform>%n dokumenty</numerusform>
            <numerusform></numerusform>`,
      ),
    );
  });

  it('writes numerus forms into an empty unfinished plural translation in Qt layout', () => {
    const base = `<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="cs">
<context>
    <name>C</name>
    <message numerus="yes">
        <source>%n day(s)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
</TS>
`;
    const out = write({ update: [update('C', ['%n day', '%n days'], ['%n den', '%n dny', '%n dní'], 'translated')] }, Buffer.from(base));
    expect(out).toBe(
      replaceOnce(
        base,
        '<translation type="unfinished"></translation>',
        `<translation>
            <numerusform>%n den</numerusform>
            <numerusform>%n dny</numerusform>
            <numerusform>%n dní</numerusform>
        </translation>`,
      ),
    );
  });

  it('finds a message by its monolingual id (context name + source) too', () => {
    expect(write({ update: [update('MainWindow\nmenu itemOpen file', [], ['Otevři'], 'translated')] })).toBe(
      replaceOnce(CS_TEXT, '<translation>Otevřít soubor</translation>', '<translation>Otevři</translation>'),
    );
  });

  it('appends a new message at the end of its context, and a new context at the end of the file', () => {
    const out = write({
      update: [],
      add: [
        { context: 'Dialog', source: ['Close'], target: ['Zavřít'], state: 'translated', location: 'dialog.cpp:80' },
        { context: 'Settings\ntitle', source: ['Settings'], target: [''], state: 'empty', note: 'Window title' },
      ],
    });
    const withMessage = replaceOnce(
      CS_TEXT,
      `        <translation>Otevřít</translation>
    </message>
</context>`,
      `        <translation>Otevřít</translation>
    </message>
    <message>
        <location filename="dialog.cpp" line="80"/>
        <source>Close</source>
        <translation>Zavřít</translation>
    </message>
</context>`,
    );
    expect(out).toBe(
      replaceOnce(
        withMessage,
        '</context>\n</TS>\n',
        `</context>
<context>
    <name>Settings</name>
    <message>
        <source>Settings</source>
        <comment>title</comment>
        <extracomment>Window title</extracomment>
        <translation type="unfinished"></translation>
    </message>
</context>
</TS>
`,
      ),
    );
    expect(TS_FORMAT.parse(Buffer.from(out)).units.map((one) => [one.context, one.source, one.target])).toContainEqual([
      'Settings\ntitle',
      ['Settings'],
      [''],
    ]);
  });

  it('an update for a message the file lacks is appended like an add', () => {
    const out = write({ update: [update('MainWindow', ['New'], ['Nový'], 'fuzzy')] });
    expect(out).toBe(
      replaceOnce(
        CS_TEXT,
        `        <translation type="vanished">Pryč</translation>
    </message>
</context>`,
        `        <translation type="vanished">Pryč</translation>
    </message>
    <message>
        <source>New</source>
        <translation type="unfinished">Nový</translation>
    </message>
</context>`,
      ),
    );
  });

  it('removes a message with its line', () => {
    expect(write({ update: [], remove: [{ context: 'MainWindow', source: ['Quit'] }] })).toBe(
      replaceOnce(
        CS_TEXT,
        `    <message>
        <source>Quit</source>
        <translation type="unfinished"></translation>
    </message>
`,
        '',
      ),
    );
  });

  it('keeps CRLF line endings and a UTF-8 BOM', () => {
    const crlf = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(CS_TEXT.replace(/\n/g, '\r\n'))]);
    const out = TS_FORMAT.write(crlf, { update: [update('MainWindow', ['Quit'], ['Konec\nprogramu'], 'translated')] }, czech);
    const expected = Buffer.concat([
      Buffer.from([0xef, 0xbb, 0xbf]),
      Buffer.from(
        replaceOnce(CS_TEXT, '<translation type="unfinished"></translation>', '<translation>Konec\nprogramu</translation>').replace(
          /\n/g,
          '\r\n',
        ),
      ),
    ]);
    expectXmllintValid(out);
    expect(out.equals(expected)).toBe(true);
  });

  it('keeps UTF-16', () => {
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(CS_TEXT.replace('utf-8', 'utf-16'), 'utf16le')]);
    const out = TS_FORMAT.write(utf16, { update: [update('MainWindow', ['Quit'], ['Konec'], 'translated')] }, czech);
    const expected = replaceOnce(CS_TEXT.replace('utf-8', 'utf-16'), '<translation type="unfinished"></translation>', '<translation>Konec</translation>');
    expectXmllintValid(out);
    expect(out.equals(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(expected, 'utf16le')]))).toBe(true);
  });
});

describe('ts edge cases', () => {
  it('reads a message outside any context (empty context) and opens a self-closing <translation/>', () => {
    const text = '<?xml version="1.0" encoding="utf-8"?>\n<TS version="2.1">\n<message>\n    <source>Loose</source>\n    <translation type="unfinished"/>\n</message>\n</TS>\n';
    expect(TS_FORMAT.parse(Buffer.from(text)).units).toEqual([unit({ context: '', source: ['Loose'], target: [''], position: 1, line: 3 })]);
    const out = TS_FORMAT.write(Buffer.from(text), { update: [update('', ['Loose'], ['Volné'], 'translated')] }, czech);
    expectXmllintValid(out);
    expect(out.toString('utf8')).toBe(replaceOnce(text, '<translation type="unfinished"/>', '<translation>Volné</translation>'));
  });

  it('refuses hostile input: entity declarations and unbounded nesting', () => {
    expect(() => TS_FORMAT.parse(Buffer.from('<!DOCTYPE TS [<!ENTITY a "aaaa">]>\n<TS>&a;</TS>'))).toThrow(FormatParseError);
    const deep = `<TS><context><name>C</name><message><source>${'<b>'.repeat(5000)}${'</b>'.repeat(5000)}</source></message></context></TS>`;
    expect(() => TS_FORMAT.parse(Buffer.from(deep))).toThrow(/^line 1: elements nested deeper than/);
  });
});

