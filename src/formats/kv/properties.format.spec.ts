import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FormatLimitError, FormatParseError } from '../format';
import type { FileFormat, StoreUnit, StoreWriteContext } from '../store';
import { PROPERTIES_FORMATS } from './properties.format';

const fixture = (name: string): Buffer => readFileSync(join(process.cwd(), 'src/formats/kv/fixtures', name));
const format = (id: string): FileFormat => PROPERTIES_FORMATS.find((f) => f.id === id)!;
const iso = format('properties');
const utf8 = format('properties-utf8');
const utf16 = format('properties-utf16');
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

describe('properties formats', () => {
  it('registers Weblate ids', () => {
    expect(PROPERTIES_FORMATS.map((f) => [f.id, f.name, f.kind, f.extension])).toEqual([
      ['properties', 'Java Properties (ISO 8859-1)', 'both', 'properties'],
      ['properties-utf8', 'Java Properties (UTF-8)', 'both', 'properties'],
      ['properties-utf16', 'Java Properties (UTF-16)', 'both', 'properties'],
    ]);
  });

  it('parses keys, separators, comments, continuations and escapes field by field', () => {
    const { units } = iso.parse(fixture('messages.properties'));
    expect(units).toEqual([
      unit('title', 'Hello World', 1, 3, '# Main title\n! bang comment'),
      unit('key\\ with\\ spaces', 'value with spaces  ', 2, 4),
      unit('multi', 'first line continued', 3, 8),
      unit('unicode', 'Zkouška', 4, 10),
      unit('colon', 'value', 5, 11),
      unit('spaced', 'value here', 6, 12),
      unit('indented', 'x', 7, 13),
      unit('emoji', '😀', 8, 14),
      unit('tabs', 'a\tb\nc', 9, 15),
      unit('empty', '', 10, 16),
      unit('esc\\=aped\\:key', 'v', 11, 17),
    ]);
  });

  it('keeps the translate-toolkit note quirk Weblate stores: blank lines as empty note lines', () => {
    const { units } = iso.parse(Buffer.from('\n\na=1\n\nb=2\n\n\n# c\nc=3\n\n# x\n\n# y\nd=4\n  # i\ne=5\n'));
    expect(units.map((u) => [u.context, u.note])).toEqual([
      ['a', '\n'],
      ['b', ''],
      ['c', '\n\n# c'],
      ['d', '# y'],
      ['e', '  # i'],
    ]);
  });

  it('reads ISO-8859-1 bytes as Latin-1 and UTF-8 strictly', () => {
    expect(iso.parse(Buffer.from([0x61, 0x3d, 0xe9])).units[0].target).toEqual(['é']);
    expect(utf8.parse(Buffer.from('a=é\\u00e9\n')).units[0].target).toEqual(['éé']);
    expect(() => utf8.parse(Buffer.from([0x61, 0x3d, 0x0a, 0x62, 0x3d, 0xe9]))).toThrow(new FormatParseError('line 2: file is not valid UTF-8'));
  });

  it('reads UTF-16 with either BOM and without one (little-endian)', () => {
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('k=žluť\n', 'utf16le')]);
    const be = Buffer.from(le);
    be.swap16();
    expect(utf16.parse(le).units[0].target).toEqual(['žluť']);
    expect(utf16.parse(be).units[0].target).toEqual(['žluť']);
    expect(utf16.parse(Buffer.from('k=v\n', 'utf16le')).units[0].target).toEqual(['v']);
  });

  it('handles CRLF files and a continuation at the end of the file', () => {
    const { units } = iso.parse(Buffer.from('a=1\r\nb=2 \\\r\n  3\r\nc=x\\'));
    expect(units.map((u) => [u.context, u.target[0], u.line])).toEqual([
      ['a', '1', 1],
      ['b', '2 3', 2],
      ['c', 'x', 4],
    ]);
  });

  it('rejects a file whose first entry has no delimiter, as Weblate does', () => {
    expect(() => iso.parse(Buffer.from('# c\njusttext\n'))).toThrow(new FormatParseError('line 2: entry "justtext" has no "=", ":" or space delimiter'));
    expect(iso.parse(Buffer.from('a=1\nlonely\n')).units[1].target).toEqual(['']);
  });

  it('reports duplicates with both lines, or hands them to onDuplicate', () => {
    const content = Buffer.from('a=1\nb=2\na=3\n');
    expect(() => iso.parse(content)).toThrow(new FormatParseError('line 3: duplicate key "a" (first on line 1)'));
    const duplicates: [number, number][] = [];
    const { units } = iso.parse(content, { onDuplicate: (dup, kept) => duplicates.push([dup.line, kept.line]) });
    expect(units.map((u) => [u.context, u.target[0], u.position])).toEqual([
      ['a', '1', 1],
      ['b', '2', 2],
    ]);
    expect(duplicates).toEqual([[3, 1]]);
  });

  it('enforces limits', () => {
    expect(() => iso.parse(Buffer.from('a=1\nb=2\nc=3\n'), { limits: { maxUnits: 2 } })).toThrow(FormatLimitError);
    expect(() => iso.parse(Buffer.from('a=12345\n'), { limits: { maxStringLength: 4 } })).toThrow(
      new FormatLimitError('string-length', 'line 1: string longer than 4 characters'),
    );
  });

  it('writes an unchanged file byte for byte', () => {
    const content = fixture('messages.properties');
    expect(iso.write(content, { update: [] }, ctx).equals(content)).toBe(true);
    const same = iso.write(content, { update: [{ context: 'multi', source: [], target: ['first line continued'], state: 'translated' }] }, ctx);
    expect(same.equals(content)).toBe(true);
  });

  it('patches only the edited entry, escaping for ISO-8859-1 with upper-case hex', () => {
    const content = fixture('messages.properties');
    const out = iso.write(
      content,
      {
        update: [
          { context: 'key\\ with\\ spaces', source: [], target: [' první ☃ 😀\n'], state: 'translated' },
          { context: 'multi', source: [], target: ['joined'], state: 'translated' },
        ],
      },
      ctx,
    );
    const expected = content
      .toString('latin1')
      .replace('key\\ with\\ spaces = value with spaces  \n', 'key\\ with\\ spaces = \\ prvn\\u00ED \\u2603 \\uD83D\\uDE00\\n\n')
      .replace('multi=first line \\\n    continued\n', 'multi=joined\n');
    expect(out.toString('latin1')).toBe(expected);
    expect(iso.parse(out).units[1].target).toEqual([' první ☃ 😀\n']);
  });

  it('writes raw characters in UTF-8 and keeps BOM and CRLF', () => {
    const content = Buffer.from('\ufeffa = 1\r\nb:2\r\n', 'utf8');
    const out = utf8.write(content, { update: [{ context: 'b', source: [], target: ['žluť'], state: 'translated' }] }, ctx);
    expect(out.equals(Buffer.from('\ufeffa = 1\r\nb:žluť\r\n', 'utf8'))).toBe(true);
  });

  it('keeps UTF-16 big-endian with its BOM', () => {
    const be = Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from('a=1\n', 'utf16le').swap16()]);
    const out = utf16.write(be, { update: [{ context: 'a', source: [], target: ['ř'], state: 'translated' }] }, ctx);
    expect(out.equals(Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from('a=ř\n', 'utf16le').swap16()]))).toBe(true);
  });

  it('escapes a leading = after a whitespace separator', () => {
    const out = iso.write(Buffer.from('k v\n'), { update: [{ context: 'k', source: [], target: ['=x'], state: 'translated' }] }, ctx);
    expect(out.toString()).toBe('k \\=x\n');
    expect(iso.parse(out).units[0].target).toEqual(['=x']);
  });

  it('appends new keys at the end with the template separator and removes entries with their comments', () => {
    const template = Buffer.from('a = A\nnew : New\n');
    const content = Buffer.from('# about a\na=1\nb=2\n# trailing');
    const out = iso.write(
      content,
      {
        update: [{ context: 'new', source: [], target: ['Nové'], state: 'translated' }],
        add: [{ context: 'other', source: [], target: ['x'], state: 'translated', note: '# note' }],
        remove: [{ context: 'a', source: [] }],
      },
      { ...ctx, template },
    );
    expect(out.toString('latin1')).toBe('b=2\n# trailing\nnew : Nov\\u00E9\n# note\nother=x\n');
  });

  it('creates new files: a newline, or the base with values emptied', () => {
    expect(iso.create(null, ctx)).toEqual(Buffer.from('\n'));
    expect(utf16.create(null, ctx)).toEqual(Buffer.from([0xff, 0xfe, 0x0a, 0x00]));
    expect(iso.create(Buffer.from('# c\na = A\nb=\\\n  B\n'), ctx)!.toString()).toBe('# c\na = \nb=\n');
  });

  it('reads 50,000 entries and patches only the edited one', () => {
    const lines: string[] = [];
    for (let i = 0; i < 50000; i++) lines.push(`# comment ${i}`, `key.${i} = Value number ${i} \\u00E9`);
    const content = Buffer.from(lines.join('\n') + '\n');
    expect(iso.parse(content).units).toHaveLength(50000);
    const out = iso.write(content, { update: [{ context: 'key.25000', source: [], target: ['x'], state: 'translated' }] }, ctx);
    expect(out.toString('latin1')).toBe(content.toString('latin1').replace('key.25000 = Value number 25000 \\u00E9', 'key.25000 = x'));
  });
});
