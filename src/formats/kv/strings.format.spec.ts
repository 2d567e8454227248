import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FormatLimitError, FormatParseError } from '../format';
import type { FileFormat, StoreUnit, StoreWriteContext } from '../store';
import { STRINGS_FORMATS } from './strings.format';

const fixtureText = readFileSync(join(process.cwd(), 'src/formats/kv/fixtures/Localizable.strings'), 'utf8');
const utf16le = (text: string): Buffer => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
const utf16be = (text: string): Buffer => Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(text, 'utf16le').swap16()]);
const strings = STRINGS_FORMATS.find((f) => f.id === 'strings') as FileFormat;
const stringsUtf8 = STRINGS_FORMATS.find((f) => f.id === 'strings-utf8') as FileFormat;
const ctx: StoreWriteContext = { languageCode: 'cs', plural: { number: 3, formula: '(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2' } };

function unit(context: string, value: string, position: number, line: number, note = ''): StoreUnit {
  return {
    context,
    source: [],
    target: [value],
    plural: false,
    note,
    location: '',
    flags: '',
    previousSource: '',
    fuzzy: false,
    approved: false,
    readOnly: false,
    position,
    line,
  };
}

const expectedUnits = [
  unit('main.title', 'Hello "World"', 1, 2, '/* Title of the main window */'),
  unit('multi', 'Line one\nLine two', 2, 5),
  unit('Cancel', 'Cancel', 3, 8, '\n// single line comment'),
  unit('tab\\tkey', 'a\\b é ☃ 😀', 4, 12, '\n/* first */\n// second'),
  unit('bare', 'token', 5, 13),
  unit('empty', '', 6, 14),
];

describe('strings formats', () => {
  it('registers Weblate ids', () => {
    expect(STRINGS_FORMATS.map((f) => [f.id, f.name, f.kind, f.extension])).toEqual([
      ['strings', 'iOS strings (UTF-16)', 'both', 'strings'],
      ['strings-utf8', 'iOS strings (UTF-8)', 'both', 'strings'],
    ]);
  });

  it('parses UTF-16 LE, UTF-16 BE and UTF-8 the same way, field by field', () => {
    expect(strings.parse(utf16le(fixtureText)).units).toEqual(expectedUnits);
    expect(strings.parse(utf16be(fixtureText)).units).toEqual(expectedUnits);
    expect(stringsUtf8.parse(Buffer.from(fixtureText)).units).toEqual(expectedUnits);
    expect(stringsUtf8.parse(Buffer.from('\ufeff' + fixtureText)).units).toEqual(expectedUnits);
  });

  it('keeps translate-toolkit quirks Weblate stores: raw keys, blank lines as empty note lines', () => {
    const text = '"a" = "1";\n\n/* x */\n\n/* y */\n"b\\\\s" = "2";\n\n\n/* No comment provided by engineer. */\n"c\\"q" = "3";\n  \n// z\n"d" = "4";';
    expect(stringsUtf8.parse(Buffer.from(text)).units.map((u) => [u.context, u.target[0], u.note])).toEqual([
      ['a', '1', ''],
      ['b\\\\s', '2', '/* y */'],
      ['c"q', '3', '\n'],
      ['d', '4', '\n// z'],
    ]);
    const out = stringsUtf8.write(Buffer.from(''), { update: [{ context: 'c"q\\n', source: [], target: ['x'], state: 'translated' }] }, ctx);
    expect(out.toString()).toBe('"c\\"q\\n" = "x";\n');
    expect(stringsUtf8.parse(out).units[0].context).toBe('c"q\\n');
  });

  it('reports syntax errors with their line', () => {
    expect(() => stringsUtf8.parse(Buffer.from('"a" = "b";\n"c" = "d"\n"e" = "f";'))).toThrow(
      new FormatParseError('line 3: expected ";" after the value of "c"'),
    );
    expect(() => stringsUtf8.parse(Buffer.from('"a" = "b";\n\n"c" = "d'))).toThrow(new FormatParseError('line 3: unterminated value string'));
    expect(() => stringsUtf8.parse(Buffer.from('/* open\n"a" = "b";'))).toThrow(new FormatParseError('line 1: unterminated /* comment'));
    expect(() => stringsUtf8.parse(Buffer.from('"a" "b";'))).toThrow(new FormatParseError('line 1: expected "=" after key "a"'));
    expect(() => stringsUtf8.parse(Buffer.from([0x22, 0xff, 0x22]))).toThrow(FormatParseError);
  });

  it('reports duplicates and enforces limits', () => {
    const content = Buffer.from('"a" = "1";\n"a" = "2";\n');
    expect(() => stringsUtf8.parse(content)).toThrow(new FormatParseError('line 2: duplicate key "a" (first on line 1)'));
    const seen: number[] = [];
    expect(stringsUtf8.parse(content, { onDuplicate: (dup) => seen.push(dup.line) }).units).toHaveLength(1);
    expect(seen).toEqual([2]);
    expect(() => stringsUtf8.parse(Buffer.from('"a"="1";"b"="2";'), { limits: { maxUnits: 1 } })).toThrow(FormatLimitError);
    expect(() => stringsUtf8.parse(Buffer.from('"a"="12345";'), { limits: { maxStringLength: 3 } })).toThrow(FormatLimitError);
  });

  it('round-trips unchanged files byte for byte in every encoding', () => {
    for (const content of [utf16le(fixtureText), utf16be(fixtureText), Buffer.from(fixtureText)]) {
      expect(strings.write(content, { update: [] }, ctx).equals(content)).toBe(true);
      const same = strings.write(content, { update: [{ context: 'multi', source: [], target: ['Line one\nLine two'], state: 'translated' }] }, ctx);
      expect(same.equals(content)).toBe(true);
    }
  });

  it('replaces only the edited value and keeps the UTF-16 byte order and BOM', () => {
    const edited = fixtureText
      .replace('"Cancel"="Cancel";', '"Cancel"="Zrušit \\"x\\"\\n\\\\";')
      .replace('bare = token;', 'bare = "Holý";');
    const changes = {
      update: [
        { context: 'Cancel', source: [], target: ['Zrušit "x"\n\\'], state: 'translated' as const },
        { context: 'bare', source: [], target: ['Holý'], state: 'translated' as const },
      ],
    };
    expect(strings.write(utf16be(fixtureText), changes, ctx).equals(utf16be(edited))).toBe(true);
    expect(strings.write(utf16le(fixtureText), changes, ctx).equals(utf16le(edited))).toBe(true);
    expect(stringsUtf8.write(Buffer.from(fixtureText), changes, ctx).toString()).toBe(edited);
  });

  it('appends new entries Xcode style and removes entries with their comments', () => {
    const out = stringsUtf8.write(
      Buffer.from(fixtureText),
      {
        update: [{ context: 'new "key"', source: [], target: ['Nový'], state: 'translated' }],
        add: [{ context: 'other', source: [], target: ['x'], state: 'translated', note: 'Explains */ it' }],
        remove: [
          { context: 'multi', source: [] },
          { context: 'tab\\tkey', source: [] },
        ],
      },
      ctx,
    );
    expect(out.toString()).toBe(
      '/* Title of the main window */\n"main.title" = "Hello \\"World\\"";\n\n' +
        '// single line comment\n"Cancel"="Cancel";\n\n' +
        'bare = token;\n"empty" = "";\n\n"new \\"key\\"" = "Nový";\n\n/* Explains * / it */\n"other" = "x";\n',
    );
  });

  it('appends with CRLF to a compact file without a final newline', () => {
    const out = stringsUtf8.write(Buffer.from('"a" = "1";\r\n"b" = "2";'), { update: [{ context: 'c', source: [], target: ['3'], state: 'translated' }] }, ctx);
    expect(out.toString()).toBe('"a" = "1";\r\n"b" = "2";\r\n"c" = "3";\r\n');
  });

  it('creates new files: a newline in the variant encoding, or the base with values emptied', () => {
    expect(strings.create(null, ctx)).toEqual(Buffer.from([0xff, 0xfe, 0x0a, 0x00]));
    expect(stringsUtf8.create(null, ctx)).toEqual(Buffer.from('\n'));
    expect(strings.create(utf16le('/* c */\n"a" = "A";\n'), ctx)).toEqual(utf16le('/* c */\n"a" = "";\n'));
  });

  // 5,000 entries show what this checks (every entry read, one value spliced, every other byte kept); how
  // the reader scales with size is `npm run bench -- --only=formats`'s job. The bytes are compared as latin1
  // strings (one character per byte, so equal strings mean equal bytes): Jest's toEqual walks a Buffer byte
  // by byte, which took most of this test's 23 s at 50,000 entries (docs/performance.md "Footprint").
  it('reads 5,000 entries and patches only the edited one', () => {
    let text = '';
    for (let i = 0; i < 5000; i++) text += `/* Comment ${i} */\n"key.${i}" = "Value \\"${i}\\"";\n\n`;
    const content = utf16le(text);
    expect(strings.parse(content).units).toHaveLength(5000);
    const out = strings.write(content, { update: [{ context: 'key.2500', source: [], target: ['x'], state: 'translated' }] }, ctx);
    const expected = utf16le(text.replace('"key.2500" = "Value \\"2500\\"";', '"key.2500" = "x";'));
    expect(out.length).toBe(expected.length);
    expect(out.toString('latin1')).toBe(expected.toString('latin1'));
  });
});
