import { FormatLimitError } from '../format';
import { I18NEXT_V3_FORMAT as v3, I18NEXT_V4_FORMAT as v4 } from './i18next.format';
import { expectedUnit, update, writeContext } from './spec-helpers';

// formats.md §3.9: the worked template and the plural write table.

const template = [
  '{',
  '    "key": "value",',
  '    "nested": {',
  '        "deep": "Deep {{name}}"',
  '    },',
  '    "item": "{{count}} item",',
  '    "item_plural": "{{count}} items",',
  '    "apple_0": "a0",',
  '    "apple_1": "a1",',
  '    "keyWithCount_one": "{{count}} item",',
  '    "keyWithCount_other": "{{count}} items"',
  '}',
  '',
].join('\n');
const bytes = (text: string): Buffer => Buffer.from(text, 'utf8');

describe('i18next v3', () => {
  it('groups k + k_plural and k_0…k_n into plural units, field by field', () => {
    expect(v3.parse(bytes(template)).units).toEqual([
      expectedUnit({ context: 'key', target: ['value'], position: 1, line: 2 }),
      expectedUnit({ context: 'nested.deep', target: ['Deep {{name}}'], position: 2, line: 4 }),
      expectedUnit({ context: 'item', target: ['{{count}} item', '{{count}} items'], plural: true, position: 3, line: 6 }),
      expectedUnit({ context: 'apple', target: ['a0', 'a1'], plural: true, position: 4, line: 8 }),
      expectedUnit({ context: 'keyWithCount_one', target: ['{{count}} item'], position: 5, line: 10 }),
      expectedUnit({ context: 'keyWithCount_other', target: ['{{count}} items'], position: 6, line: 11 }),
    ]);
    expect(v3).toMatchObject({ id: 'i18next', name: 'i18next JSON file v3', kind: 'both', extension: 'json' });
  });

  it('round-trips unchanged and rewrites an English plural in place', () => {
    const en = writeContext('en', 2);
    expect(v3.write(bytes(template), { update: [] }, en).toString()).toBe(template);
    expect(v3.write(bytes(template), { update: [update('item', 'one', 'many')] }, en).toString()).toBe(
      template.replace('"{{count}} item",\n    "item_plural": "{{count}} items"', '"one",\n    "item_plural": "many"'),
    );
  });

  it('writes k_0…k_2 for Czech, dropping the English slots, and k_0 for Japanese', () => {
    const out = v3.write(bytes(template), { update: [update('item', 'a', 'b', 'c')] }, writeContext('cs', 3)).toString();
    expect(out).toBe(
      template
        .replace('    "item": "{{count}} item",\n    "item_plural": "{{count}} items",\n', '')
        .replace('"keyWithCount_other": "{{count}} items"\n', '"keyWithCount_other": "{{count}} items",\n    "item_0": "a",\n    "item_1": "b",\n    "item_2": "c"\n'),
    );
    const ja = v3.write(bytes('{"apple_0": "x", "apple_1": "y"}'), { update: [update('apple', 'りんご')] }, writeContext('ja', 1)).toString();
    expect(ja).toBe('{"apple_0": "りんご"}');
  });

  it('adds a plural unit from the template under its nested parent', () => {
    const ctx = writeContext('en', 2, '{"shop": {"cart": "{{count}} item", "cart_plural": "{{count}} items"}}');
    expect(v3.write(bytes('{}\n'), { update: [update('shop.cart', 'x', 'y')] }, ctx).toString()).toBe(
      '{\n    "shop": {\n        "cart": "x",\n        "cart_plural": "y"\n    }\n}\n',
    );
  });

  it('removes every form of a plural unit', () => {
    expect(v3.write(bytes('{"a": "x", "apple_0": "1", "apple_1": "2"}'), { update: [], remove: [{ context: 'apple', source: [] }] }, writeContext('en', 2)).toString()).toBe('{"a": "x"}');
  });
});

describe('i18next v4', () => {
  it('groups k_<category> into plural units and leaves v3 suffixes alone', () => {
    expect(v4.parse(bytes(template)).units.map((unit) => [unit.context, unit.target, unit.plural, unit.position])).toEqual([
      ['key', ['value'], false, 1],
      ['nested.deep', ['Deep {{name}}'], false, 2],
      ['item', ['{{count}} item'], false, 3],
      ['item_plural', ['{{count}} items'], false, 4],
      ['apple_0', ['a0'], false, 5],
      ['apple_1', ['a1'], false, 6],
      ['keyWithCount', ['{{count}} item', '{{count}} items'], true, 7],
    ]);
    expect(v4).toMatchObject({ id: 'i18nextv4', name: 'i18next JSON file v4' });
  });

  it('reads forms in CLDR order whatever the key order', () => {
    expect(v4.parse(bytes('{"k_other": "o", "k_few": "f", "k_one": "1"}')).units[0]).toEqual(expectedUnit({ context: 'k', target: ['1', 'f', 'o'], plural: true, position: 1, line: 1 }));
  });

  it("maps forms onto the language's category list when the language is given", () => {
    const file = bytes('{"k_other": "o", "k_one": "1", "k_many": "m"}');
    // cs: one, few, other (translate-toolkit's list has no many: it follows the list).
    expect(v4.parse(file, { language: 'cs' }).units[0].target).toEqual(['1', '', 'o', 'm']);
    expect(v4.parse(file).units[0].target).toEqual(['1', 'm', 'o']);
  });

  it("writes the language's category list: cs one/few/other, ja other", () => {
    const file = '{\n  "k_one": "{{count}} item",\n  "k_other": "{{count}} items"\n}\n';
    expect(v4.write(bytes(file), { update: [update('k', '1', 'f', 'o')] }, writeContext('cs', 3)).toString()).toBe('{\n  "k_one": "1",\n  "k_other": "o",\n  "k_few": "f"\n}\n');
    expect(v4.write(bytes(file), { update: [update('k', 'x')] }, writeContext('ja', 1)).toString()).toBe('{\n  "k_other": "x"\n}\n');
  });

  it('creates a file from the template with every form emptied', () => {
    expect(v4.create(bytes('{"k_one": "a", "k_other": "b", "t": "c"}'), writeContext('cs', 3))?.toString()).toBe('{"k_one": "", "k_other": "", "t": ""}');
    expect(v4.create(null, writeContext('cs', 3))?.toString()).toBe('{}\n');
  });

  it('counts a plural unit once against maxUnits', () => {
    const file = bytes('{"a_one": "1", "a_other": "2", "b_one": "1", "b_other": "2"}');
    expect(v4.parse(file, { limits: { maxUnits: 2 } }).units).toHaveLength(2);
    expect(() => v4.parse(file, { limits: { maxUnits: 1 } })).toThrow(new FormatLimitError('units', 'more than 1 strings in one file (the limit was reached at line 1)'));
  });
});
