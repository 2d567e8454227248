import { applyUnitsToFile, newTranslationFile } from './file-writer';
import { JSON_NESTED_FORMAT } from './json-nested.format';

// languages-formats-hashing.md §2.2 worked example and write-back rules.

describe('applyUnitsToFile', () => {
  it('reproduces Weblate’s worked example: list padded with null, new key at the end of its parent', () => {
    const current = Buffer.from('{"app": {"title": "Weblate"}}');
    const out = applyUnitsToFile(JSON_NESTED_FORMAT, current, [
      { context: 'list[1]', path: [{ key: 'list' }, { index: 1 }], valueType: 'string', target: 'Druhý' },
      { context: 'app.greeting', path: [{ key: 'app' }, { key: 'greeting' }], valueType: 'string', target: 'Ahoj, {name}!' },
    ]);
    expect(out.toString('utf8')).toBe(
      '{\n    "app": {\n        "title": "Weblate",\n        "greeting": "Ahoj, {name}!"\n    },\n    "list": [\n        null,\n        "Druhý"\n    ]\n}\n',
    );
  });

  it('replaces values in place, keeps key order, a BOM and the template’s JSON type; drops removed keys', () => {
    const current = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"b": "x", "10": 1, "a": {"c": "y"}}\n')]);
    const out = applyUnitsToFile(
      JSON_NESTED_FORMAT,
      current,
      [
        { context: '10', path: [{ key: '10' }], valueType: 'number', target: '7' },
        { context: 'b', path: [{ key: 'b' }], valueType: 'string', target: 'é / "q"' },
      ],
      new Set(['a.c']),
    );
    expect(out.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    expect(out.subarray(3).toString('utf8')).toBe('{\n    "b": "é / \\"q\\"",\n    "10": 7\n}\n');
  });

  it('starts a missing file from {} and nests a new dotted key', () => {
    const out = applyUnitsToFile(JSON_NESTED_FORMAT, null, [{ context: 'menu.file', path: null, valueType: null, target: 'Soubor' }]);
    expect(out.toString('utf8')).toBe('{\n    "menu": {\n        "file": "Soubor"\n    }\n}\n');
  });
});

describe('newTranslationFile', () => {
  it('is {} plus a newline without new_base, and new_base’s keys with empty values with it', () => {
    expect(newTranslationFile(JSON_NESTED_FORMAT, null).toString()).toBe('{}\n');
    expect(newTranslationFile(JSON_NESTED_FORMAT, Buffer.from('{"a": {"b": "x"}, "n": 3}')).toString()).toBe(
      '{\n    "a": {\n        "b": ""\n    },\n    "n": ""\n}\n',
    );
  });
});
