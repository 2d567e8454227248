import { calculateHash, hashToChecksum } from '../common/hashing/weblate-hash';
import { countWords } from '../common/text/word-count';
import { FormatLimitError, FormatParseError, FormatWriteError, type ParsedUnit, type SerializeEntry } from './format';
import { FILE_FORMATS, getFileFormat } from './format.registry';
import { JSON_FORMAT, JSON_NESTED_FORMAT } from './json-nested.format';

// Facts from shared/reference/languages-formats-hashing.md §2.1 and §2.2.

const format = JSON_NESTED_FORMAT;
const parse = (json: string): ParsedUnit[] => format.parse(Buffer.from(json, 'utf8'));
const pairs = (json: string): Array<[string, string]> => parse(json).map((unit) => [unit.context, unit.source]);
const asEntries = (units: ParsedUnit[]): SerializeEntry[] =>
  units.map(({ path, valueType, source }) => ({ path, valueType, target: source }));
const write = (entries: SerializeEntry[]): string => format.serialize(entries).toString('utf8');

describe('json-nested parse (§2.1 table)', () => {
  it('flattens nested objects to dotted contexts', () => {
    expect(pairs('{"app":{"title":"Weblate"}}')).toEqual([['app.title', 'Weblate']]);
  });

  it('keeps an empty string as a unit and reads null as ""', () => {
    expect(pairs('{"empty": "", "nothing": null}')).toEqual([
      ['empty', ''],
      ['nothing', ''],
    ]);
    expect(parse('{"nothing": null}')[0].valueType).toBe('null');
  });

  it('gives numbers as Python str() and booleans in Python spelling', () => {
    expect(pairs('{"count": 5, "ratio": 1.5, "flag": true, "off": false}')).toEqual([
      ['count', '5'],
      ['ratio', '1.5'],
      ['flag', 'True'],
      ['off', 'False'],
    ]);
    expect(parse('{"count": 5, "flag": true}').map((unit) => unit.valueType)).toEqual(['number', 'boolean']);
  });

  it('prints numbers like Python, not like JS', () => {
    expect(pairs('[1.0, 1e16, 1E-7, 0.0001, 1.50, -0, -0.0, 12345678901234567890, 1e999, NaN, -Infinity]')).toEqual([
      ['[0]', '1.0'],
      ['[1]', '1e+16'],
      ['[2]', '1e-07'],
      ['[3]', '0.0001'],
      ['[4]', '1.5'],
      ['[5]', '0'],
      ['[6]', '-0.0'],
      ['[7]', '12345678901234567890'],
      ['[8]', 'inf'],
      ['[9]', 'nan'],
      ['[10]', '-inf'],
    ]);
  });

  it('keeps dots inside keys in the context, and the structured path tells them apart', () => {
    const units = parse('{"app": {"dotted.key": "x", "dotted": {"key": "y"}}}');
    expect(units.map((unit) => unit.context)).toEqual(['app.dotted.key']);
    expect(units[0].path).toEqual([{ key: 'app' }, { key: 'dotted.key' }]);
  });

  it('renders array items as [i]', () => {
    const units = parse('{"list": ["A", {"inner": "B"}]}');
    expect(units.map((unit) => [unit.context, unit.source])).toEqual([
      ['list[0]', 'A'],
      ['list[1].inner', 'B'],
    ]);
    expect(units[1].path).toEqual([{ key: 'list' }, { index: 1 }, { key: 'inner' }]);
  });

  it('gives a top-level array contexts [0], [1]', () => {
    expect(pairs('["a", ["b"]]')).toEqual([
      ['[0]', 'a'],
      ['[1][0]', 'b'],
    ]);
  });

  it('gives no unit for {} and [] values or a top-level scalar', () => {
    expect(pairs('{"a": {}, "b": [], "c": "x"}')).toEqual([['c', 'x']]);
    expect(pairs('"text"')).toEqual([]);
    expect(pairs('42')).toEqual([]);
    expect(pairs('{}')).toEqual([]);
  });

  it('keeps the first of two units with the same context and reports the other', () => {
    const duplicates: Array<[ParsedUnit, ParsedUnit]> = [];
    const units = format.parse(Buffer.from('{"a": {"b": "x"}, "a.b": "y", "c": "z"}'), {
      onDuplicate: (duplicate, kept) => duplicates.push([duplicate, kept]),
    });
    expect(units.map((unit) => [unit.context, unit.source, unit.position])).toEqual([
      ['a.b', 'x', 1],
      ['c', 'z', 3], // the skipped duplicate still used position 2 (§5.2)
    ]);
    expect(duplicates).toHaveLength(1);
    expect(duplicates[0][0]).toMatchObject({ context: 'a.b', source: 'y', position: 2, path: [{ key: 'a.b' }] });
    expect(duplicates[0][1]).toBe(units[0]);
  });

  it('treats a key repeated in one object like Python: first place, last value', () => {
    expect(pairs('{"a": "1", "b": "2", "a": "3"}')).toEqual([
      ['a', '3'],
      ['b', '2'],
    ]);
  });

  it('keeps integer-like keys in file order (JSON.parse would move them first)', () => {
    expect(pairs('{"b": "x", "10": "y", "2": "z"}')).toEqual([
      ['b', 'x'],
      ['10', 'y'],
      ['2', 'z'],
    ]);
  });

  it('decodes escapes, including surrogate pairs', () => {
    expect(pairs(String.raw`{"s": "a\"b\\c\/d\n\t\u00e9\ud83d\ude00"}`)).toEqual([['s', 'a"b\\c/d\n\té😀']]);
  });

  it('tolerates a UTF-8 BOM', () => {
    const content = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"a": "Příliš"}')]);
    expect(format.parse(content).map((unit) => unit.source)).toEqual(['Příliš']);
  });

  it.each([
    ['{"a": "x",}', /expected a property name/],
    ['{"a" "x"}', /expected ':'/],
    ['{"a": "x"', /expected ',' or '}'/],
    ['{"a": ["x" "y"]}', /expected ',' or ']'/],
    ['{"a": "x"} extra', /after the end of the document/],
    ['', /expected a value, found end of file/],
    ["{'a': 'x'}", /expected a property name in double quotes/],
    ['{"a": "line\nbreak"}', /control character/],
    ['{"a": "\\x"}', /invalid escape/],
    ['{"a": "\\u12"}', /invalid \\u escape/],
    ['{"a": "open', /unterminated string/],
    ['{"a": 01}', /expected ',' or '}'/],
    ['{"a": tru}', /expected a value/],
    ['// comment\n{}', /expected a value/],
  ])('rejects %j', (json, message) => {
    expect(() => parse(json)).toThrow(FormatParseError);
    expect(() => parse(json)).toThrow(message);
  });

  it('reports the line and column of a syntax error', () => {
    expect(() => parse('{\n    "a": "x",\n    "b" 1\n}')).toThrow(
      'Invalid JSON: expected \':\' after the property name, found "1" at line 3, column 9',
    );
  });

  it('rejects bytes that are not UTF-8 and absurd nesting', () => {
    expect(() => format.parse(Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x7d]))).toThrow(/not valid UTF-8/);
    expect(() => parse('['.repeat(5000) + ']'.repeat(5000))).toThrow(/nesting deeper/);
  });
});

describe('json-nested parse limits (issue 10, item 9)', () => {
  const limited = (json: string, limits: { maxUnits?: number; maxStringLength?: number }) => format.parse(Buffer.from(json, 'utf8'), { limits });
  const failure = (run: () => unknown): FormatLimitError => {
    try {
      run();
    } catch (error) {
      if (error instanceof FormatLimitError) return error;
      throw error;
    }
    throw new Error('no FormatLimitError');
  };

  it('stops at the first leaf past maxUnits, duplicates and nested leaves counted, containers not', () => {
    expect(limited('{"a": {"b": "1", "c": [2, null]}, "d": {}}', { maxUnits: 3 })).toHaveLength(3);
    const error = failure(() => limited('{"a": {"b": "1", "c": [2, null]},\n "a": "again"}', { maxUnits: 3 }));
    expect(error).toBeInstanceOf(FormatParseError);
    expect([error.kind, error.message]).toEqual(['units', 'more than 3 strings in one file (the limit was reached at line 2, column 7)']);
    // A top-level scalar is no unit, so it is not counted either.
    expect(limited('"just a string"', { maxUnits: 0 })).toEqual([]);
  });

  it('refuses any string, key, number literal or joined key path longer than maxStringLength', () => {
    expect(limited('{"abcde": "12345"}', { maxStringLength: 5 })).toHaveLength(1);
    for (const json of ['{"a": "123456"}', '{"abcdef": "1"}', '{"a": 123456}', '{"a": "\\u0041\\u0041\\u0041\\u0041\\u0041\\u0041"}']) {
      expect({ json, kind: failure(() => limited(json, { maxStringLength: 5 })).kind }).toEqual({ json, kind: 'string-length' });
    }
    expect(failure(() => limited('{"a": "123456"}', { maxStringLength: 5 })).message).toBe('a string longer than 5 characters at line 1, column 7');
    // Escapes count once decoded: six raw characters for one.
    expect(limited('{"a": "\\u0041"}', { maxStringLength: 1 })[0].source).toBe('A');
    expect(failure(() => limited('{"abc": {"def": "x"}}', { maxStringLength: 5 })).message).toBe('a key path longer than 5 characters ("abc.def…")');
  });
});

describe('json-nested worked example (§2.2)', () => {
  const template =
    '{"app":{"title":"Weblate","greeting":"Hello, {name}!"},' +
    '"cart":{"items":"{count} items in cart"},"list":["First","Second"]}';

  it('gives the template units in order with positions, hashes and word counts', () => {
    const rows = parse(template).map((unit) => {
      const idHash = calculateHash(unit.context);
      const contentHash = calculateHash(unit.source, unit.context);
      const words = countWords(unit.source);
      return [unit.position, unit.context, unit.source, idHash, contentHash, hashToChecksum(idHash), words];
    });
    expect(rows).toEqual([
      [1, 'app.title', 'Weblate', -6717303852330811496n, -95846635629574223n, '22c757bc71757f98', 1],
      [2, 'app.greeting', 'Hello, {name}!', -6722914994396313773n, 2877657794238324096n, '22b3686e9fdc4753', 2],
      [3, 'cart.items', '{count} items in cart', 1816141635243407310n, 307477479833810214n, '99343b31e67af7ce', 4],
      [4, 'list[0]', 'First', -4384817994132090469n, -271234623273053001n, '4325ff441f04119b', 1],
      [5, 'list[1]', 'Second', 2687294331881052410n, 1212373771198498151n, 'a54b2ff4fab0d8fa', 1],
    ]);
  });

  it('writes the Czech file after translating list[1] then app.greeting, byte for byte', () => {
    const templateUnits = new Map(parse(template).map((unit) => [unit.context, unit]));
    const translation = parse('{"app": {"title": "Weblate"}}');
    // New units are copies of the template leaf appended to the translation's store, in edit order.
    const added = (context: string, target: string): SerializeEntry => {
      const leaf = templateUnits.get(context);
      if (!leaf) throw new Error(context);
      return { path: leaf.path, valueType: leaf.valueType, target };
    };
    const entries = [...asEntries(translation), added('list[1]', 'Druhý'), added('app.greeting', 'Ahoj, {name}!')];
    const expected = [
      '{',
      '    "app": {',
      '        "title": "Weblate",',
      '        "greeting": "Ahoj, {name}!"',
      '    },',
      '    "list": [',
      '        null,',
      '        "Druhý"',
      '    ]',
      '}',
      '',
    ].join('\n');
    expect(format.serialize(entries).equals(Buffer.from(expected, 'utf8'))).toBe(true);
  });
});

describe('json-nested serialize (§2.2)', () => {
  it('writes an empty document as {} plus a newline (also the new-translation content)', () => {
    expect(write([])).toBe('{}\n');
    expect(format.newTranslationContent).toBe('{}\n');
  });

  it('keeps integer-like keys in insertion order on a round trip', () => {
    const units = parse('{"b":"x","10":"y"}');
    expect(write(asEntries(units))).toBe('{\n    "b": "x",\n    "10": "y"\n}\n');
  });

  it('writes unicode raw and escapes only quotes, backslashes and control characters', () => {
    const entries: SerializeEntry[] = [
      { path: [{ key: 'cs' }], valueType: 'string', target: 'Příliš žluťoučký kůň – 日本 😀' },
      { path: [{ key: 'seps' }], valueType: 'string', target: '\u2028\u2029\u007f/' },
      { path: [{ key: 'esc' }], valueType: 'string', target: '"\\\b\f\n\r\t\u0000\u001f' },
      { path: [{ key: 'ключ "q"' }], valueType: 'string', target: '' },
    ];
    expect(write(entries)).toBe(
      '{\n' +
        '    "cs": "Příliš žluťoučký kůň – 日本 😀",\n' +
        '    "seps": "\u2028\u2029\u007f/",\n' +
        '    "esc": "\\"\\\\\\b\\f\\n\\r\\t\\u0000\\u001f",\n' +
        '    "ключ \\"q\\"": ""\n' +
        '}\n',
    );
  });

  it('types values by the template leaf', () => {
    // Writes `[value]` and keeps only the value's text.
    const single = (valueType: SerializeEntry['valueType'], target: string): string =>
      write([{ path: [{ index: 0 }], valueType, target }]).replace(/^\[\n {4}|\n\]\n$/g, '');
    expect(single('number', '7')).toBe('7');
    expect(single('number', ' 7 ')).toBe('7');
    expect(single('number', '1.50')).toBe('1.5');
    expect(single('number', '1.0')).toBe('1.0');
    expect(single('number', '1e16')).toBe('1e+16');
    expect(single('number', '12345678901234567890')).toBe('12345678901234567890');
    expect(single('number', 'inf')).toBe('Infinity');
    expect(single('number', 'nan')).toBe('NaN');
    expect(single('number', 'sedm')).toBe('"sedm"');
    expect(single('number', '007')).toBe('"007"');
    expect(single('boolean', 'True')).toBe('true');
    expect(single('boolean', 'false')).toBe('false');
    expect(single('boolean', 'ano')).toBe('"ano"');
    expect(single('null', '')).toBe('null');
    expect(single('null', 'něco')).toBe('"něco"');
    expect(single('string', '7')).toBe('"7"');
  });

  it('creates parents at the end and pads arrays with null', () => {
    const entries: SerializeEntry[] = [
      { path: [{ key: 'a' }, { key: 'x' }], valueType: 'string', target: '1' },
      { path: [{ key: 'b' }, { index: 2 }, { key: 'c' }], valueType: 'string', target: '2' },
      { path: [{ key: 'a' }, { key: 'y' }], valueType: 'string', target: '3' },
      { path: [{ key: 'b' }, { index: 0 }], valueType: 'string', target: '4' },
    ];
    expect(JSON.parse(write(entries))).toEqual({ a: { x: '1', y: '3' }, b: ['4', null, { c: '2' }] });
    expect(write(entries).split('\n')[1]).toBe('    "a": {');
  });

  it('builds a top-level array when the first path starts with an index', () => {
    expect(write(asEntries(parse('["a", ["b"]]')))).toBe('[\n    "a",\n    [\n        "b"\n    ]\n]\n');
  });

  it('drops keys no entry represents, so {} and [] vanish', () => {
    expect(write(asEntries(parse('{"a": {}, "b": [], "c": "x"}')))).toBe('{\n    "c": "x"\n}\n');
  });

  it('refuses entries whose paths conflict', () => {
    const leaf = (path: SerializeEntry['path']): SerializeEntry => ({ path, valueType: 'string', target: 'v' });
    const a = { key: 'a' };
    const conflicts: Array<Array<SerializeEntry['path']>> = [
      [[a], [a, { key: 'b' }]], // leaf, then an object at the same key
      [[a, { key: 'b' }], [a]], // object, then a leaf at the same key
      [[a, { key: 'b' }], [a, { index: 0 }]], // object, then an array at the same key
      [[{ index: 0 }], [a]], // top-level array, then a top-level key
      [[]],
      [[{ key: 'l' }, { index: 10_000_000 }]],
    ];
    for (const paths of conflicts) {
      expect(() => format.serialize(paths.map(leaf))).toThrow(FormatWriteError);
    }
  });

  it('replaces a repeated path in place', () => {
    const leaf = (key: string, target: string): SerializeEntry => ({ path: [{ key }], valueType: 'string', target });
    expect(write([leaf('a', '1'), leaf('b', '2'), leaf('a', '3')])).toBe('{\n    "a": "3",\n    "b": "2"\n}\n');
  });

  it('keeps a BOM when asked', () => {
    const withBom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"a": "x"}')]);
    const out = format.serialize(asEntries(format.parse(withBom)), { bom: true });
    expect([...out.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(out.subarray(3).toString('utf8')).toBe('{\n    "a": "x"\n}\n');
  });

  it('round-trips a realistic file written the way Weblate writes it to identical bytes', () => {
    const file = [
      '{',
      '    "app": {',
      '        "title": "Glossa",',
      '        "greeting": "Ahoj, {name}! Vítejte v \\"Glossa\\".",',
      '        "dotted.key": "tečka",',
      '        "multiline": "Řádek 1\\nŘádek 2\\t→",',
      '        "empty": ""',
      '    },',
      '    "menu": {',
      '        "file": {',
      '            "save": "Uložit",',
      '            "recent": [',
      '                "První",',
      '                {',
      '                    "label": "Druhý",',
      '                    "shortcut": null',
      '                },',
      '                null,',
      '                "日本語 😀"',
      '            ]',
      '        }',
      '    },',
      '    "b": "x",',
      '    "10": "ten",',
      '    "2": "two",',
      '    "limits": {',
      '        "max": 100,',
      '        "ratio": 1.0,',
      '        "big": 12345678901234567890,',
      '        "tiny": 1e-07,',
      '        "huge": 1e+16,',
      '        "enabled": true,',
      '        "beta": false',
      '    },',
      '    "path": "C:\\\\Users\\\\a/b"',
      '}',
      '',
    ].join('\n');
    const content = Buffer.from(file, 'utf8');
    const units = format.parse(content);
    expect(units).toHaveLength(22);
    expect(units.map((unit) => unit.context)).toContain('menu.file.recent[1].shortcut');
    expect(format.serialize(asEntries(units)).equals(content)).toBe(true);
  });
});

describe('json vs json-nested', () => {
  it('json-nested splits a new context into a nested path', () => {
    expect(JSON_NESTED_FORMAT.pathFromContext('a.b')).toEqual([{ key: 'a' }, { key: 'b' }]);
    expect(JSON_NESTED_FORMAT.pathFromContext('list[3].inner')).toEqual([
      { key: 'list' },
      { index: 3 },
      { key: 'inner' },
    ]);
    expect(JSON_NESTED_FORMAT.pathFromContext('[0][1]')).toEqual([{ index: 0 }, { index: 1 }]);
    expect(JSON_NESTED_FORMAT.pathFromContext('title')).toEqual([{ key: 'title' }]);
    expect(JSON_NESTED_FORMAT.pathFromContext('a[x]')).toEqual([{ key: 'a[x]' }]);
  });

  it('json keeps a new context as one flat key', () => {
    expect(JSON_FORMAT.pathFromContext('app.name')).toEqual([{ key: 'app.name' }]);
  });

  it('json parses nested input exactly like json-nested', () => {
    const content = Buffer.from('{"app": {"title": "x"}, "list": ["y"]}');
    expect(JSON_FORMAT.parse(content)).toEqual(JSON_NESTED_FORMAT.parse(content));
  });

  it('parsed paths map back to the same contexts', () => {
    for (const unit of parse('{"app": {"title": "x"}, "list": ["y", {"z": "w"}]}')) {
      expect(JSON_NESTED_FORMAT.pathFromContext(unit.context)).toEqual(unit.path);
    }
  });
});

describe('format registry', () => {
  it('registers json-nested and json by Weblate id', () => {
    expect(getFileFormat('json-nested')).toBe(JSON_NESTED_FORMAT);
    expect(getFileFormat('json')?.name).toBe('JSON file');
    expect(getFileFormat('json-nested')?.name).toBe('JSON nested structure file');
    expect(getFileFormat('po')).toBeUndefined();
    expect([...FILE_FORMATS.keys()]).toEqual(['json-nested', 'json']);
  });
});
