import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FormatLimitError, FormatParseError } from '../format';
import type { FileFormat, StoreUnit, StoreWriteContext } from '../store';
import { CSV_FORMATS } from './csv.format';

const bilingual = readFileSync(join(process.cwd(), 'src/formats/kv/fixtures/bilingual.csv'));
const csv = CSV_FORMATS.find((f) => f.id === 'csv') as FileFormat;
const simple = CSV_FORMATS.find((f) => f.id === 'csv-simple') as FileFormat;
const ctx: StoreWriteContext = { languageCode: 'cs', plural: { number: 3, formula: '(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2' } };

function unit(fields: Partial<StoreUnit> & Pick<StoreUnit, 'source' | 'target' | 'position' | 'line'>): StoreUnit {
  return {
    context: '',
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

describe('csv formats', () => {
  it('registers Weblate ids', () => {
    expect(CSV_FORMATS.map((f) => [f.id, f.name, f.kind, f.extension])).toEqual([
      ['csv', 'CSV file', 'both', 'csv'],
      ['csv-simple', 'Simple CSV file', 'both', 'csv'],
    ]);
  });

  it('parses a bilingual file with a header, field by field', () => {
    expect(csv.parse(bilingual).units).toEqual([
      unit({ source: ['Hello'], target: ['Ahoj'], note: 'Greeting', location: 'main.c:1', position: 1, line: 2, templateContext: 'Hello' }),
      unit({ context: 'menu', source: ['Open'], target: ['Otevřít'], note: 'Check it\nMenu item', fuzzy: true, position: 2, line: 3 }),
      unit({ source: ['Two\r\nlines'], target: ['Dva "řádky"\r\nzde'], location: 'src/a.c:2', position: 3, line: 4, templateContext: 'Two\r\nlines' }),
      unit({ source: ['=1+1'], target: ['=2'], position: 4, line: 8, templateContext: '=1+1' }),
      unit({ source: ['Empty'], target: [''], position: 5, line: 9, templateContext: 'Empty' }),
    ]);
  });

  it('reads fuzzy only when the file has that column, and header aliases', () => {
    const { units } = csv.parse(Buffer.from('Original;Translation;Key;State\nHi;Ahoj;greet;x\n'));
    expect(units.map((u) => [u.context, u.source, u.target, u.fuzzy, u.templateContext])).toEqual([['', ['Hi'], ['Ahoj'], true, 'greet']]);
    expect(csv.parse(Buffer.from('source,target\nHi,Ahoj\n')).units.map((u) => u.fuzzy)).toEqual([false]);
  });

  it('reads headerless files as location,source,target or, with two columns, source,target', () => {
    expect(csv.parse(Buffer.from('a.c:1,Hi,Ahoj\n')).units.map((u) => [u.location, u.source[0], u.target[0]])).toEqual([['a.c:1', 'Hi', 'Ahoj']]);
    expect(csv.parse(Buffer.from('Hi,Ahoj\nBye,Nashle\n')).units.map((u) => [u.source[0], u.target[0]])).toEqual([
      ['Hi', 'Ahoj'],
      ['Bye', 'Nashle'],
    ]);
    expect(csv.parse(Buffer.from('context,target\nk,v\n')).units.map((u) => [u.context, u.source, u.target])).toEqual([['k', [''], ['v']]]);
  });

  it('csv-simple reads two columns, skipping a source,target header row', () => {
    const { units } = simple.parse(Buffer.from('source,target\r\nkey.one,"One, two"\r\nkey.two,\r\n'));
    expect(units).toEqual([
      unit({ source: ['key.one'], target: ['One, two'], position: 1, line: 2, templateContext: 'key.one' }),
      unit({ source: ['key.two'], target: [''], position: 2, line: 3, templateContext: 'key.two' }),
    ]);
  });

  it('reads UTF-16 with BOM and falls back to ISO-8859-1 for non-UTF-8 bytes', () => {
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('source,target\nHi,Čau\n', 'utf16le')]);
    expect(csv.parse(utf16).units[0].target).toEqual(['Čau']);
    expect(csv.parse(Buffer.from([0x48, 0x69, 0x2c, 0xe9, 0x0a])).units[0].target).toEqual(['é']);
  });

  it('reports unclosed quotes, duplicates and limits with line numbers', () => {
    expect(() => csv.parse(Buffer.from('source,target\nHi,Ahoj\nBye,"Na\nshle\n'))).toThrow(new FormatParseError('line 3: quoted field is not closed'));
    const dup = Buffer.from('source,target,context\nHi,A,\nHi,B,x\nHi,C,\n');
    expect(() => csv.parse(dup)).toThrow(new FormatParseError('line 4: duplicate string with source "Hi" (first on line 2)'));
    const seen: number[] = [];
    expect(csv.parse(dup, { onDuplicate: (d) => seen.push(d.line) }).units).toHaveLength(2);
    expect(seen).toEqual([4]);
    expect(() => csv.parse(Buffer.from('a,b\nc,d\n'), { limits: { maxUnits: 1 } })).toThrow(FormatLimitError);
    expect(() => csv.parse(Buffer.from('a,bcdef\n'), { limits: { maxStringLength: 4 } })).toThrow(FormatLimitError);
  });

  it('writes an unchanged file byte for byte', () => {
    expect(csv.write(bilingual, { update: [] }, ctx).equals(bilingual)).toBe(true);
    const same = csv.write(bilingual, { update: [{ context: 'menu', source: ['Open'], target: ['Otevřít'], state: 'fuzzy' }] }, ctx);
    expect(same.equals(bilingual)).toBe(true);
  });

  it('patches only the changed cells, quoting as the cell was', () => {
    const out = csv.write(
      bilingual,
      {
        update: [
          { context: 'menu', source: ['Open'], target: ['Otevřít, "hned"'], state: 'translated' },
          { context: '', source: ['Two\r\nlines'], target: ['Jeden'], state: 'fuzzy' },
          { context: '', source: ['Empty'], target: ['Prázdné'], state: 'translated' },
        ],
      },
      ctx,
    );
    const expected = bilingual
      .toString()
      .replace(',Open,Otevřít,,True,', ',Open,"Otevřít, ""hned""",,False,')
      .replace('"Dva ""řádky""\r\nzde",,"False"', '"Jeden",,"True"')
      .replace(',Empty,,', ',Empty,Prázdné,');
    expect(out.toString()).toBe(expected);
  });

  it('matches monolingual keys, appends rows in the file layout and removes rows', () => {
    const content = Buffer.from('source,target\nkey.one,One\nkey.two,Two');
    const out = simple.write(
      content,
      {
        update: [{ context: 'key.two', source: ['Two (en)'], target: ['Dvě'], state: 'translated' }],
        add: [{ context: 'key.three', source: ['Three'], target: ['Tři, "3"'], state: 'translated' }],
        remove: [{ context: 'key.one', source: [] }],
      },
      ctx,
    );
    expect(out.toString()).toBe('source,target\nkey.two,Dvě\nkey.three,"Tři, ""3"""\n');
  });

  it('adds a bilingual row with every header column, quoted like the file', () => {
    const content = Buffer.from('"source","target","context","fuzzy","developer_comments"\r\n"Hi","Ahoj","","False",""\r\n');
    const out = csv.write(content, { update: [], add: [{ context: 'menu', source: ['Open'], target: ['Otevřít'], state: 'fuzzy', note: 'A note' }] }, ctx);
    expect(out.toString()).toBe(content.toString() + '"Open","Otevřít","menu","True","A note"\r\n');
  });

  it('pads short rows', () => {
    const out = csv.write(Buffer.from('source,target,fuzzy\nHi\n'), { update: [{ context: '', source: ['Hi'], target: ['Ahoj'], state: 'fuzzy' }] }, ctx);
    expect(out.toString()).toBe('source,target,fuzzy\nHi,Ahoj,True\n');
  });

  it('creates a file only from a base, with targets emptied', () => {
    expect(csv.create(null, ctx)).toBeNull();
    expect(simple.create(Buffer.from('key.one,One\r\n"key.two","Two"\r\n'), ctx)!.toString()).toBe('key.one,\r\n"key.two",""\r\n');
  });

  it('reads 50,000 rows and patches only the edited one', () => {
    let text = 'location,source,target,context,developer_comments\r\n';
    for (let i = 0; i < 50000; i++) text += `"src/file${i}.c:1","Source text ${i}","Cílový text ""${i}""","ctx${i}","Note ${i}"\r\n`;
    const content = Buffer.from(text);
    expect(csv.parse(content).units).toHaveLength(50000);
    const out = csv.write(content, { update: [{ context: 'ctx25000', source: ['Source text 25000'], target: ['x'], state: 'translated' }] }, ctx);
    expect(out.toString()).toBe(text.replace('"Source text 25000","Cílový text ""25000"""', '"Source text 25000","x"'));
  });
});
