import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FormatLimitError, FormatParseError, FormatWriteError } from '../format';
import type { StoreUnit, StoreWriteContext, UnitWrite } from '../store';
import { FLUENT_FORMATS } from './index';

const [fluent] = FLUENT_FORMATS;
const fixture = (name: string): Buffer => readFileSync(join(process.cwd(), 'src/formats/fluent/fixtures', name));
const context: StoreWriteContext = { languageCode: 'cs', plural: { number: 3, formula: '' } };
const update = (unitContext: string, ...target: string[]): UnitWrite => ({ context: unitContext, source: [], target, state: 'translated' });

function unit(unitContext: string, text: string, position: number, line: number, note = ''): StoreUnit {
  return {
    context: unitContext,
    source: [],
    target: [text],
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

const SELECT = '\n    { $unreadEmails ->\n        [one] You have one unread email.\n       *[other] You have { $unreadEmails } unread emails.\n    }';

describe('fluent: parse', () => {
  it('reads messages, terms and attributes with their attached comments', () => {
    expect(fluent.parse(fixture('messages.ftl'))).toEqual({
      units: [
        unit('hello', 'Hello, { $name }!', 1, 4, 'Greeting shown on start'),
        unit('hello.title', 'Greeting tooltip', 2, 5, 'Greeting shown on start'),
        unit('brand-name', 'Firefox', 3, 6),
        unit('emails', SELECT, 4, 10),
        unit('multi', '\n    Line one\n    Line two', 5, 15),
        unit('only-attr.label', 'Label', 6, 19),
        unit('about', 'About { -brand-name }', 7, 20),
      ],
    });
  });

  it('fails on junk with its line, on duplicates, and past the limits', () => {
    expect(() => fluent.parse(Buffer.from('ok = fine\nbad = = {\n'))).toThrow('line 2: E0028 Expected an inline expression');
    expect(() => fluent.parse(Buffer.from('a = x\nb = y\na = z\n'))).toThrow('line 3: duplicate string "a" (first on line 1)');
    expect(fluent.parse(Buffer.from('a = x\na = z\n'), { onDuplicate: () => undefined }).units.map((u) => u.target[0])).toEqual(['x']);
    expect(() => fluent.parse(fixture('messages.ftl'), { limits: { maxUnits: 2 } })).toThrow(FormatLimitError);
    expect(() => fluent.parse(Buffer.from(`a = ${'{ '.repeat(100000)}`))).toThrow(FormatParseError);
    expect(() => fluent.parse(fixture('messages.ftl'), { limits: { maxStringLength: 20 } })).toThrow(expect.objectContaining({ kind: 'string-length' }));
  });
});

describe('fluent: write', () => {
  it('leaves an unchanged file byte-identical', () => {
    const original = fixture('messages.ftl');
    const units = fluent.parse(original).units;
    expect(fluent.write(original, { update: units.map((u) => update(u.context, ...u.target)) }, context).equals(original)).toBe(true);
  });

  it('replaces only the changed value or attribute pattern', () => {
    const written = fluent.write(
      fixture('messages.ftl'),
      {
        update: [
          update('hello', 'Ahoj, { $name }!'),
          update('hello.title', 'Bublina'),
          update('multi', 'Řádek jedna\nŘádek dva'),
          update('emails', '\n    { $unreadEmails ->\n        [one] Máte jeden e-mail.\n       *[other] Máte { $unreadEmails } e-mailů.\n    }'),
          update('brand-name', 'Liška'),
        ],
      },
      context,
    );
    const expected = fixture('messages.ftl')
      .toString()
      .replace('hello = Hello, { $name }!', 'hello = Ahoj, { $name }!')
      .replace('.title = Greeting tooltip', '.title = Bublina')
      .replace('multi =\n    Line one\n    Line two', 'multi = Řádek jedna\n    Řádek dva')
      .replace('[one] You have one unread email.', '[one] Máte jeden e-mail.')
      .replace('*[other] You have { $unreadEmails } unread emails.', '*[other] Máte { $unreadEmails } e-mailů.')
      .replace('-brand-name = Firefox', '-brand-name = Liška');
    expect(written.toString()).toBe(expected);
    expect(fluent.parse(written).units.find((u) => u.context === 'multi')?.target).toEqual(['\n    Řádek jedna\n    Řádek dva']);
  });

  it('refuses a text that is not one valid pattern', () => {
    expect(() => fluent.write(fixture('messages.ftl'), { update: [update('hello', 'Broken { $name')] }, context)).toThrow(FormatWriteError);
    expect(() => fluent.write(fixture('messages.ftl'), { update: [update('hello', 'x\n.attr = sneaky')] }, context)).toThrow(FormatWriteError);
  });

  it('adds messages, attributes and terms (from the template) at the end or inside their entry', () => {
    const template = Buffer.from('-new-term = Term\n');
    const written = fluent.write(
      Buffer.from('hello = Ahoj\n'),
      { update: [update('hello.title', 'Titulek'), update('fresh', 'Nový'), update('fresh.label', 'Popisek'), update('new-term', 'Termín')] },
      { ...context, template },
    );
    expect(written.toString()).toBe('hello = Ahoj\n    .title = Titulek\nfresh = Nový\n    .label = Popisek\n-new-term = Termín\n');
    expect(fluent.write(Buffer.from('a = A'), { update: [update('b', 'B')] }, context).toString()).toBe('a = A\nb = B\n');
    expect(() => fluent.write(Buffer.from(''), { update: [update('bad id', 'x')] }, context)).toThrow(FormatWriteError);
  });

  it('removes entries, values and attributes; an emptied text leaves the file', () => {
    const written = fluent.write(
      fixture('messages.ftl'),
      { update: [update('multi', '')], remove: [{ context: 'hello', source: [] }, { context: 'only-attr.label', source: [] }, { context: 'brand-name', source: [] }] },
      context,
    );
    expect(written.toString()).toBe(
      fixture('messages.ftl')
        .toString()
        .replace('hello = Hello, { $name }!', 'hello =')
        .replace('-brand-name = Firefox\n', '')
        .replace('multi =\n    Line one\n    Line two\n', '')
        .replace('    .label = Label\n', ''),
    );
  });

  it('keeps CRLF and BOM', () => {
    const original = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('a = A\r\nb = B\r\n')]);
    const written = fluent.write(original, { update: [update('a', 'Á\nDva'), update('c', 'C')] }, context);
    expect(written.equals(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('a = Á\r\n    Dva\r\nb = B\r\nc = C\r\n')]))).toBe(true);
  });
});

describe('fluent: create', () => {
  it('starts empty, as Weblate 5 does', () => {
    expect(fluent.create(null, context)?.length).toBe(0);
    expect(fluent.create(fixture('messages.ftl'), context)?.length).toBe(0);
  });
});

describe('fluent: 50,000 messages', () => {
  it('reads every message and patches only the edited one', () => {
    let content = '';
    for (let index = 0; index < 50000; index++) content += `key${index} = Value number { $n } ${index}\n`;
    const buffer = Buffer.from(content);
    expect(fluent.parse(buffer).units).toHaveLength(50000);
    const written = fluent.write(buffer, { update: [update('key49999', 'Changed')] }, context);
    expect(written.toString()).toBe(content.replace('key49999 = Value number { $n } 49999\n', 'key49999 = Changed\n'));
  });
});
