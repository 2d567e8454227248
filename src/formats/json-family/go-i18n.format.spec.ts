import { FormatLimitError, FormatParseError } from '../format';
import { GO_I18N_JSON_FORMAT as go } from './go-i18n.format';
import { expectedUnit, update, writeContext } from './spec-helpers';

// formats.md §3.12.

const file = [
  '[',
  '  {',
  '    "id": "hello",',
  '    "description": "Greeting",',
  '    "translation": "Hello {{.Name}}"',
  '  },',
  '  {',
  '    "id": "cats",',
  '    "translation": {',
  '      "other": "{{.Count}} cats",',
  '      "one": "{{.Count}} cat"',
  '    }',
  '  }',
  ']',
  '',
].join('\n');
const bytes = (text: string): Buffer => Buffer.from(text, 'utf8');

describe('go-i18n-json', () => {
  it('reads ids, descriptions and CLDR-keyed plurals in CLDR order', () => {
    expect(go.parse(bytes(file)).units).toEqual([
      expectedUnit({ context: 'hello', target: ['Hello {{.Name}}'], note: 'Greeting', position: 1, line: 2 }),
      expectedUnit({ context: 'cats', target: ['{{.Count}} cat', '{{.Count}} cats'], plural: true, position: 2, line: 7 }),
    ]);
    expect(go).toMatchObject({ id: 'go-i18n-json', name: 'go-i18n JSON file', kind: 'both', extension: 'json' });
    expect(go.parse(bytes('{}\n')).units).toEqual([]);
    expect(go.write(bytes('{}\n'), { update: [] }, writeContext('cs', 3)).toString()).toBe('{}\n');
  });

  it('reports a repeated id (or fails without onDuplicate) and counts it against maxUnits', () => {
    const twice = bytes('[\n  {"id": "a", "translation": "1"},\n  {"id": "a", "translation": "2"}\n]');
    expect(() => go.parse(twice)).toThrow(new FormatParseError('line 3: duplicate key "a" (first defined on line 2)'));
    const seen: string[] = [];
    expect(go.parse(twice, { onDuplicate: (duplicate) => seen.push(duplicate.target[0]) }).units.map((unit) => unit.target)).toEqual([['1']]);
    expect(seen).toEqual(['2']);
    expect(() => go.parse(twice, { limits: { maxUnits: 1 }, onDuplicate: () => undefined })).toThrow(FormatLimitError);
  });

  it("maps plural forms onto the language's categories when the language is given", () => {
    const file = bytes('[{"id": "c", "translation": {"other": "o", "few": "f"}}]');
    expect(go.parse(file, { language: 'cs' }).units[0].target).toEqual(['', 'f', 'o']);
    expect(go.parse(file).units[0].target).toEqual(['f', 'o']);
  });

  it('refuses items without an id, with the line', () => {
    expect(() => go.parse(bytes('[\n  {"translation": "x"}\n]'))).toThrow(new FormatParseError('line 2: a message without a string "id"'));
  });

  it('writes plurals with the language categories and keeps the rest', () => {
    const ctx = writeContext('cs', 3, file);
    expect(go.write(bytes(file), { update: [] }, ctx).toString()).toBe(file);
    expect(go.write(bytes(file), { update: [update('cats', '1 kočka', '2 kočky', '5 koček')] }, ctx).toString()).toBe(
      file.replace('"{{.Count}} cats",\n      "one": "{{.Count}} cat"', '"5 koček",\n      "one": "1 kočka",\n      "few": "2 kočky"'),
    );
    expect(go.write(bytes(file), { update: [update('hello', 'Ahoj')] }, ctx).toString()).toBe(file.replace('"Hello {{.Name}}"', '"Ahoj"'));
  });

  it('adds a message copied from the template, removes one, and starts a file as []', () => {
    const ctx = writeContext('cs', 3, file);
    expect(go.write(bytes('[]\n'), { update: [update('hello', 'Ahoj')] }, ctx).toString()).toBe(
      '[\n    {\n        "id": "hello",\n        "description": "Greeting",\n        "translation": "Ahoj"\n    }\n]\n',
    );
    expect(go.write(bytes(file), { update: [], remove: [{ context: 'hello', source: [] }] }, ctx).toString()).toBe(file.replace(/ {2}\{\n {4}"id": "hello"[^]*?\n {2}\},\n/, ''));
    expect(go.create(null, ctx)?.toString()).toBe('[]\n');
    expect(go.create(bytes(file), ctx)?.toString()).toBe(file.replace('"Hello {{.Name}}"', '""').replace('"{{.Count}} cats"', '""').replace('"{{.Count}} cat"', '""'));
  });
});
