import { ARB_FORMAT as arb } from './arb.format';
import { expectedUnit, update, writeContext } from './spec-helpers';

// formats.md §3.10.

const file = [
  '{',
  '  "@@locale": "en",',
  '  "title": "Hello {name}",',
  '  "@title": {',
  '    "description": "Greeting",',
  '    "placeholders": {',
  '      "name": {',
  '        "type": "String"',
  '      }',
  '    }',
  '  },',
  '  "items": "{count, plural, one{1 item} other{{count} items}}",',
  '  "@items": {',
  '    "description": "Item count"',
  '  },',
  '  "plain": "It\'s \\"quoted\\""',
  '}',
  '',
].join('\n');
const bytes = (text: string): Buffer => Buffer.from(text, 'utf8');

describe('arb', () => {
  it('reads entries with description as note and placeholders as flag; ICU stays in one unit', () => {
    expect(arb.parse(bytes(file)).units).toEqual([
      expectedUnit({ context: 'title', target: ['Hello {name}'], note: 'Greeting', flags: 'placeholders:{NAME}', position: 1, line: 3 }),
      expectedUnit({ context: 'items', target: ['{count, plural, one{1 item} other{{count} items}}'], note: 'Item count', position: 2, line: 12 }),
      expectedUnit({ context: 'plain', target: ['It\'s "quoted"'], position: 3, line: 16 }),
    ]);
    expect(arb).toMatchObject({ id: 'arb', name: 'ARB file', kind: 'both', extension: 'json' });
  });

  it('edits one message and keeps metadata and header', () => {
    const ctx = writeContext('cs', 3);
    expect(arb.write(bytes(file), { update: [] }, ctx).toString()).toBe(file);
    expect(arb.write(bytes(file), { update: [update('items', '{count, plural, one{1 věc} few{{count} věci} other{{count} věcí}}')] }, ctx).toString()).toBe(
      file.replace('one{1 item} other{{count} items}', 'one{1 věc} few{{count} věci} other{{count} věcí}'),
    );
  });

  it('adds a unit with its template metadata and removes a unit with it', () => {
    const ctx = writeContext('cs', 3, file);
    const translation = '{\n  "@@locale": "cs",\n  "plain": "Prostý"\n}\n';
    expect(arb.write(bytes(translation), { update: [update('title', 'Ahoj {name}')] }, ctx).toString()).toBe(
      '{\n  "@@locale": "cs",\n  "plain": "Prostý",\n  "title": "Ahoj {name}",\n  "@title": {\n    "description": "Greeting",\n    "placeholders": {\n      "name": {\n        "type": "String"\n      }\n    }\n  }\n}\n',
    );
    expect(arb.write(bytes(file), { update: [], remove: [{ context: 'title', source: [] }] }, ctx).toString()).toBe(file.replace(/ {2}"title"[^]*?\n {2}\},\n/, ''));
  });

  it('creates a translation from the template: messages emptied, @@locale set', () => {
    expect(arb.create(bytes(file), writeContext('pt_BR', 2))?.toString()).toBe(
      file.replace('"en"', '"pt_BR"').replace('"Hello {name}"', '""').replace('"{count, plural, one{1 item} other{{count} items}}"', '""').replace('"It\'s \\"quoted\\""', '""'),
    );
    expect(arb.create(null, writeContext('cs', 3))?.toString()).toBe('{}\n');
  });
});
