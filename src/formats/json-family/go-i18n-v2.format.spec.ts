import { FormatParseError } from '../format';
import { GO_I18N_JSON_V2_FORMAT as go } from './go-i18n-v2.format';
import { expectedUnit, update, writeContext } from './spec-helpers';

// formats.md §3.12: go-i18n v2 is an object keyed by message id; a value is the string or an object with
// description, hash and CLDR category forms.

const file = [
  '{',
  '  "hello": "Hello {{.Name}}",',
  '  "bye": {',
  '    "description": "Farewell",',
  '    "hash": "sha1-x",',
  '    "other": "Bye"',
  '  },',
  '  "cats": {',
  '    "description": "Cat count",',
  '    "other": "{{.Count}} cats",',
  '    "one": "{{.Count}} cat"',
  '  }',
  '}',
  '',
].join('\n');
const bytes = (text: string): Buffer => Buffer.from(text, 'utf8');

describe('go-i18n-json-v2', () => {
  it('reads ids, descriptions, plain `other`-only messages and CLDR-keyed plurals in CLDR order', () => {
    expect(go.parse(bytes(file)).units).toEqual([
      expectedUnit({ context: 'hello', target: ['Hello {{.Name}}'], position: 1, line: 2 }),
      expectedUnit({ context: 'bye', target: ['Bye'], note: 'Farewell', position: 2, line: 3 }),
      expectedUnit({ context: 'cats', target: ['{{.Count}} cat', '{{.Count}} cats'], note: 'Cat count', plural: true, position: 3, line: 8 }),
    ]);
    expect(go).toMatchObject({ id: 'go-i18n-json-v2', name: 'go-i18n v2 JSON file', kind: 'both', extension: 'json' });
    // Czech category order: one, few, other.
    expect(go.parse(bytes('{"n": {"other": "o", "few": "f", "one": "1"}}'), { language: 'cs' }).units[0].target).toEqual(['1', 'f', 'o']);
  });

  it('refuses what is not a go-i18n v2 file, with the line', () => {
    expect(() => go.parse(bytes('[\n  {"id": "a", "translation": "x"}\n]'))).toThrow(new FormatParseError('line 1: a go-i18n v2 file is a JSON object of messages'));
    expect(() => go.parse(bytes('{\n  "a": "x",\n  "b": 5\n}'))).toThrow(new FormatParseError('line 3: message "b" is neither a string nor an object'));
    expect(() => go.parse(bytes('{\n  "a": "x",\n  "a": "y"\n}'))).toThrow(FormatParseError);
  });

  it('leaves an unchanged file byte-identical and patches only the edited values', () => {
    expect(go.write(bytes(file), { update: [] }, writeContext('cs', 3)).equals(bytes(file))).toBe(true);
    const out = go.write(bytes(file), { update: [update('hello', 'Ahoj'), update('bye', 'Nashle'), update('cats', '{{.Count}} kočka', '{{.Count}} kočky', '{{.Count}} koček')] }, writeContext('cs', 3));
    expect(out.toString()).toBe(
      file
        .replace('"Hello {{.Name}}"', '"Ahoj"')
        .replace('"other": "Bye"', '"other": "Nashle"')
        .replace('    "other": "{{.Count}} cats",\n    "one": "{{.Count}} cat"\n', '    "other": "{{.Count}} koček",\n    "one": "{{.Count}} kočka",\n    "few": "{{.Count}} kočky"\n'),
    );
    expect(go.parse(out, { language: 'cs' }).units.map((u) => u.target)).toEqual([['Ahoj'], ['Nashle'], ['{{.Count}} kočka', '{{.Count}} kočky', '{{.Count}} koček']]);
  });

  it('adds a missing message as a copy of the template\'s (description kept), or as a string', () => {
    const out = go.write(bytes('{\n  "hello": "Ahoj"\n}\n'), { update: [update('cats', 'a', 'b', 'c'), update('bye', 'Nashle'), update('new', 'Nový')] }, writeContext('cs', 3, file));
    const parsed = go.parse(out, { language: 'cs' }).units;
    expect(parsed.map((u) => [u.context, u.target, u.note])).toEqual([
      ['hello', ['Ahoj'], ''],
      ['cats', ['a', 'b', 'c'], 'Cat count'],
      ['bye', ['Nashle'], 'Farewell'],
      ['new', ['Nový'], ''],
    ]);
    // An untranslated string the file lacks is not written.
    expect(go.write(bytes('{}\n'), { update: [update('hello', '')] }, writeContext('cs', 3, file)).toString()).toBe('{}\n');
  });

  it('removes messages and creates new files', () => {
    const out = go.write(bytes(file), { update: [], remove: [{ context: 'bye', source: [] }] }, writeContext('cs', 3));
    expect(go.parse(out).units.map((u) => u.context)).toEqual(['hello', 'cats']);
    expect(go.create(null, writeContext('fr', 2))?.toString()).toBe('{}\n');
    const fresh = go.create(bytes(file), writeContext('fr', 2))!;
    expect(go.parse(fresh).units.map((u) => u.target)).toEqual([[''], [''], ['', '']]);
  });
});
