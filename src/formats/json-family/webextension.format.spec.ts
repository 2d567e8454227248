import { FormatParseError } from '../format';
import { WEBEXTENSION_FORMAT as ext } from './webextension.format';
import { expectedUnit, update, writeContext } from './spec-helpers';

// formats.md §3.11.

const file = [
  '{',
  '    "appName": {',
  '        "message": "Demo $USER$",',
  '        "description": "Name of the extension",',
  '        "placeholders": {"user": {"content": "$1", "example": "Bob"}}',
  '    },',
  '    "plain": {"message": "Plain"}',
  '}',
  '',
].join('\n');
const bytes = (text: string): Buffer => Buffer.from(text, 'utf8');

describe('webextension', () => {
  it('reads message, description as note and placeholders as flag', () => {
    expect(ext.parse(bytes(file)).units).toEqual([
      expectedUnit({ context: 'appName', target: ['Demo $USER$'], note: 'Name of the extension', flags: 'placeholders:$USER$', position: 1, line: 2 }),
      expectedUnit({ context: 'plain', target: ['Plain'], position: 2, line: 7 }),
    ]);
    expect(ext).toMatchObject({ id: 'webextension', name: 'WebExtension JSON file', kind: 'mono', extension: 'json' });
  });

  it('refuses comments and entries that are not objects, with the line', () => {
    expect(() => ext.parse(bytes('{\n  // c\n}'))).toThrow(FormatParseError);
    expect(() => ext.parse(bytes('{\n  "a": "x"\n}'))).toThrow('line 2: message "a" is not an object');
  });

  it('patches one message; adds a message with the template description and placeholders; removes one', () => {
    const ctx = writeContext('cs', 3, file);
    expect(ext.write(bytes(file), { update: [] }, ctx).toString()).toBe(file);
    expect(ext.write(bytes(file), { update: [update('plain', 'Prostý')] }, ctx).toString()).toBe(file.replace('"Plain"', '"Prostý"'));
    const translation = '{\n    "plain": {"message": "Prostý"}\n}\n';
    expect(ext.write(bytes(translation), { update: [update('appName', 'Ukázka $USER$')] }, ctx).toString()).toBe(
      [
        '{',
        '    "plain": {"message": "Prostý"},',
        '    "appName": {',
        '        "message": "Ukázka $USER$",',
        '        "description": "Name of the extension",',
        '        "placeholders": {',
        '            "user": {',
        '                "content": "$1",',
        '                "example": "Bob"',
        '            }',
        '        }',
        '    }',
        '}',
        '',
      ].join('\n'),
    );
    expect(ext.write(bytes(file), { update: [], remove: [{ context: 'plain', source: [] }] }, ctx).toString()).toBe(file.replace(',\n    "plain": {"message": "Plain"}', ''));
  });

  it('creates from a base with messages emptied, or {}', () => {
    expect(ext.create(bytes(file), writeContext('cs', 3))?.toString()).toBe(file.replace('"Demo $USER$"', '""').replace('"Plain"', '""'));
    expect(ext.create(null, writeContext('cs', 3))?.toString()).toBe('{}\n');
  });
});
