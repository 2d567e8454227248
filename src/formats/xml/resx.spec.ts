import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FormatLimitError, FormatParseError } from '../format';
import type { StoreUnit, StoreWriteContext } from '../store';
import { RESX_FORMAT, RESX_NEW_FILE } from './resx-format';
import { expectXmllintValid } from './xml2-validators.testing';

// Facts: shared/reference/formats.md §3.13 (.NET RESX), §2.6 (flags from XML attributes).

const fixture = (name: string): Buffer => readFileSync(join(process.cwd(), 'src/formats/xml/fixtures/resx', name));
const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
const CS = fixture('Strings.cs.resx');
/** The fixture's text without its BOM and with LF line ends, to write expectations readably. */
const CS_LF = CS.subarray(3).toString('utf8').replace(/\r\n/g, '\n');
const TEMPLATE = fixture('Strings.resx');

const czech: StoreWriteContext = { languageCode: 'cs', plural: { number: 3, formula: '(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2' } };

function unit(fields: Partial<StoreUnit> & Pick<StoreUnit, 'context' | 'target' | 'position' | 'line'>): StoreUnit {
  return {
    source: [],
    plural: false,
    note: '',
    location: '',
    flags: '',
    previousSource: '',
    fuzzy: false,
    approved: false,
    readOnly: false,
    ...fields,
  };
}

function replaceOnce(text: string, from: string, to: string): string {
  const at = text.indexOf(from);
  if (at === -1 || text.indexOf(from, at + 1) !== -1) throw new Error(`not exactly once: ${from}`);
  return text.slice(0, at) + to + text.slice(at + from.length);
}

/** The CRLF + BOM file that `lf` (LF text) stands for. */
const asFile = (lf: string): Buffer => Buffer.concat([BOM, Buffer.from(lf.replace(/\n/g, '\r\n'))]);

function write(changes: Parameters<typeof RESX_FORMAT.write>[1], content: Buffer = CS, template: Buffer | null = TEMPLATE): Buffer {
  const out = RESX_FORMAT.write(content, changes, { ...czech, template });
  expectXmllintValid(out);
  return out;
}

describe('resx parse (formats.md §3.13)', () => {
  it('reads every <data> as a monolingual unit: name as context, value as target, comment as note', () => {
    expect(RESX_FORMAT.parse(CS).units).toEqual([
      unit({ context: 'Hello', target: ['Ahoj světe'], note: 'Greeting text', position: 1, line: 27 }),
      unit({ context: 'Bye', target: ['Na shledanou & díky'], position: 2, line: 31 }),
      unit({ context: 'Multi', target: ['První řádek\nDruhý řádek'], position: 3, line: 34 }),
      unit({ context: 'Empty', target: [''], position: 4, line: 38 }),
      unit({ context: 'Markup', target: ['<b>tučně</b> <i>'], position: 5, line: 41 }),
      unit({ context: 'Limited', target: ['Krátké'], flags: 'max-size:10, read-only', position: 6, line: 44 }),
      // translate-toolkit turns file references into units as well [obs].
      unit({ context: 'Icon', target: ['..\\Resources\\icon.png;System.Drawing.Bitmap, System.Drawing'], position: 7, line: 47 }),
    ]);
  });

  it('reports a duplicate name with both lines, or hands it to onDuplicate', () => {
    const text = '<root>\n  <data name="A"><value>1</value></data>\n  <data name="A"><value>2</value></data>\n</root>\n';
    expect(() => RESX_FORMAT.parse(Buffer.from(text))).toThrow(new FormatParseError('line 3: duplicate key "A" (first at line 2)'));
    const dups: string[] = [];
    const parsed = RESX_FORMAT.parse(Buffer.from(text), { onDuplicate: (dup) => dups.push(dup.target[0]) });
    expect(parsed.units.map((one) => one.target)).toEqual([['1']]);
    expect(dups).toEqual(['2']);
  });

  it('fails with a line number on broken XML, a <data> without name, or another root', () => {
    expect(() => RESX_FORMAT.parse(Buffer.from('<root>\n  <data name="A"><value>1</value>\n</root>\n'))).toThrow(/^line 3: /);
    expect(() => RESX_FORMAT.parse(Buffer.from('<root>\n\n  <data><value>1</value></data>\n</root>'))).toThrow(
      new FormatParseError('line 3: <data> without a name attribute'),
    );
    expect(() => RESX_FORMAT.parse(Buffer.from('<resources/>'))).toThrow(new FormatParseError('line 1: root element is <resources>, expected <root>'));
    expect(() => RESX_FORMAT.parse(Buffer.from('<root><data name="a">&nbsp;</data></root>'))).toThrow(FormatParseError);
  });

  it('enforces the limits', () => {
    expect(() => RESX_FORMAT.parse(CS, { limits: { maxUnits: 6 } })).toThrow(expect.objectContaining({ kind: 'units' }) as Error);
    expect(() => RESX_FORMAT.parse(CS, { limits: { maxStringLength: 20 } })).toThrow(FormatLimitError);
    expect(RESX_FORMAT.parse(CS, { limits: { maxUnits: 7, maxStringLength: 70 } }).units).toHaveLength(7);
  });
});

describe('resx write (patches the original bytes)', () => {
  it('leaves the file byte-identical (BOM, CRLF, no final newline) when nothing or nothing new is written', () => {
    expect(write({ update: [] }).equals(CS)).toBe(true);
    const same = RESX_FORMAT.parse(CS).units.map((one) => ({ context: one.context, source: [], target: one.target, state: 'translated' as const }));
    expect(write({ update: same }).equals(CS)).toBe(true);
  });

  it('changes only the edited value, escaping & < >', () => {
    const out = write({ update: [{ context: 'Hello', source: ['Hello world'], target: ['Ahoj <světe> & "vy"'], state: 'translated' }] });
    expect(out.equals(asFile(replaceOnce(CS_LF, '<value>Ahoj světe</value>', '<value>Ahoj &lt;světe&gt; &amp; "vy"</value>')))).toBe(true);
  });

  it('opens a self-closing <value /> and keeps CRLF inside a multi-line value', () => {
    const out = write({
      update: [
        { context: 'Empty', source: [], target: ['Už ne\nprázdné'], state: 'translated' },
        { context: 'Markup', source: [], target: [''], state: 'empty' },
      ],
    });
    const expected = replaceOnce(
      replaceOnce(CS_LF, '<value />', '<value>Už ne\nprázdné</value>'),
      '<value><![CDATA[<b>tučně</b>]]> &lt;i&gt;</value>',
      '<value></value>',
    );
    expect(out.equals(asFile(expected))).toBe(true);
  });

  it('appends a missing key at the end of <root> as a copy of the template entry', () => {
    const out = write({
      update: [],
      add: [
        { context: 'New', source: ['Brand new'], target: ['Zbrusu nové'], state: 'translated' },
        { context: 'Icon2', source: [], target: ['x.png'], state: 'translated', note: 'An icon' },
      ],
    });
    const expected = replaceOnce(
      CS_LF,
      '  </data>\n</root>',
      `  </data>
  <data name="New" xml:space="preserve">
    <value>Zbrusu nové</value>
  </data>
  <data name="Icon2" xml:space="preserve">
    <value>x.png</value>
    <comment>An icon</comment>
  </data>
</root>`,
    );
    expect(out.toString('utf8')).toBe(asFile(expected).toString('utf8'));
  });

  it('copies the template entry attributes (type) for an added file reference', () => {
    const target = Buffer.from('<?xml version="1.0" encoding="utf-8"?>\n<root>\n  <data name="Hello" xml:space="preserve">\n    <value>Ahoj</value>\n  </data>\n</root>\n');
    const out = write({ update: [{ context: 'Icon', source: [], target: ['..\\cs\\icon.png;System.Drawing.Bitmap, System.Drawing'], state: 'translated' }] }, target);
    expect(out.toString('utf8')).toBe(`<?xml version="1.0" encoding="utf-8"?>
<root>
  <data name="Hello" xml:space="preserve">
    <value>Ahoj</value>
  </data>
  <data name="Icon" type="System.Resources.ResXFileRef, System.Windows.Forms" xml:space="preserve">
    <value>..\\cs\\icon.png;System.Drawing.Bitmap, System.Drawing</value>
  </data>
</root>
`);
  });

  it('removes an entry with its lines', () => {
    const out = write({ update: [], remove: [{ context: 'Bye', source: [] }] });
    expect(out.equals(asFile(replaceOnce(CS_LF, '  <data name="Bye" xml:space="preserve">\n    <value>Na shledanou &amp; díky</value>\n  </data>\n', '')))).toBe(true);
  });

  it('adds into an empty <root/>', () => {
    const out = write({ update: [{ context: 'A', source: [], target: ['a'], state: 'translated' }] }, Buffer.from('<?xml version="1.0" encoding="utf-8"?>\n<root />\n'), null);
    expect(out.toString('utf8')).toBe(`<?xml version="1.0" encoding="utf-8"?>
<root>
  <data name="A" xml:space="preserve">
    <value>a</value>
  </data>
</root>
`);
  });
});

describe('resx create (formats.md §3.13, §2.4)', () => {
  it('writes translate-toolkit\'s skeleton when there is no base', () => {
    const out = RESX_FORMAT.create(null, czech) as Buffer;
    expect(out.toString('utf8')).toBe(RESX_NEW_FILE);
    expect(out.toString('utf8')).toContain('<resheader name="writer">');
    expectXmllintValid(out);
    expect(RESX_FORMAT.parse(out).units).toEqual([]);
  });

  it('empties every value of a base file and keeps everything else', () => {
    const out = RESX_FORMAT.create(TEMPLATE, czech) as Buffer;
    expectXmllintValid(out);
    expect(out.toString('utf8')).toBe(
      TEMPLATE.toString('utf8')
        .replace('<value>Hello world</value>', '<value></value>')
        .replace('<value>Goodbye &amp; thanks</value>', '<value></value>')
        .replace('<value>..\\Resources\\icon.png;System.Drawing.Bitmap, System.Drawing</value>', '<value></value>'),
    );
  });
});

describe('resx at 50,000 entries', () => {
  it('reads every entry and patches only the edited one', () => {
    const parts = ['<?xml version="1.0" encoding="utf-8"?>\n<root>\n'];
    for (let index = 0; index < 50_000; index += 1) {
      parts.push(`  <data name="key${index}" xml:space="preserve">\n    <value>Hodnota ${index}</value>\n  </data>\n`);
    }
    parts.push('</root>\n');
    const big = Buffer.from(parts.join(''));
    expect(RESX_FORMAT.parse(big).units).toHaveLength(50_000);
    const edited = RESX_FORMAT.write(big, { update: [{ context: 'key49999', source: [], target: ['Změna'], state: 'translated' }] }, czech);
    expect(edited.toString('utf8')).toBe(big.toString('utf8').replace('<value>Hodnota 49999</value>', '<value>Změna</value>'));
  });
});
