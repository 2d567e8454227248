import { calculateHash, hashToChecksum } from '../../common/hashing/weblate-hash';
import { FormatLimitError, FormatParseError, FormatWriteError } from '../format';
import type { StoreUnit, StoreWriteContext, UnitWrite } from '../store';
import { JSON_FILE_FORMAT, JSON_NESTED_FILE_FORMAT } from './json.format';

// Facts from formats.md §3.8 and languages-formats-hashing.md §2.1–§2.2; the parse cases are the ones of the
// former src/formats/json-nested.format.spec.ts, now against the patching formats.

const format = JSON_NESTED_FILE_FORMAT;
const parse = (json: string | Buffer, options = {}): StoreUnit[] => format.parse(Buffer.isBuffer(json) ? json : Buffer.from(json, 'utf8'), options).units;
const pairs = (json: string): Array<[string, string]> => parse(json).map((unit) => [unit.context, unit.target[0]]);
const ctx: StoreWriteContext = { languageCode: 'cs', plural: { number: 3, formula: '(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2' } };
const upd = (context: string, target: string): UnitWrite => ({ context, source: [], target: [target], state: target === '' ? 'empty' : 'translated' });
const write = (json: string, changes: Parameters<typeof format.write>[1], context: StoreWriteContext = ctx, fmt = format): string =>
  fmt.write(Buffer.from(json, 'utf8'), changes, context).toString('utf8');

const unit = (context: string, target: string, position: number, line: number): StoreUnit => ({
  context,
  source: [],
  target: [target],
  plural: false,
  note: '',
  location: '',
  flags: '',
  previousSource: '',
  fuzzy: false,
  approved: false,
  readOnly: false,
  position,
  line,
});

describe('json-nested parse (§3.8)', () => {
  it('gives every leaf as a unit, field by field', () => {
    const file = '{\n  "app": {"title": "Weblate", "greeting": "Hello, {name}!"},\n  "list": ["First", {"inner": "B"}],\n  "count": 5,\n  "flag": true\n}\n';
    expect(parse(file)).toEqual([
      unit('app.title', 'Weblate', 1, 2),
      unit('app.greeting', 'Hello, {name}!', 2, 2),
      unit('list[0]', 'First', 3, 3),
      unit('list[1].inner', 'B', 4, 3),
      unit('count', '5', 5, 4),
      unit('flag', 'True', 6, 5),
    ]);
    expect(format).toMatchObject({ id: 'json-nested', name: 'JSON nested structure file', kind: 'both', extension: 'json' });
    expect(JSON_FILE_FORMAT).toMatchObject({ id: 'json', name: 'JSON file', kind: 'both', extension: 'json' });
  });

  it('keeps an empty string as a unit and reads null as ""', () => {
    expect(pairs('{"empty": "", "nothing": null}')).toEqual([
      ['empty', ''],
      ['nothing', ''],
    ]);
  });

  it('gives numbers as Python str() and booleans in Python spelling', () => {
    expect(pairs('{"count": 5, "ratio": 1.5, "flag": true, "off": false}')).toEqual([
      ['count', '5'],
      ['ratio', '1.5'],
      ['flag', 'True'],
      ['off', 'False'],
    ]);
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

  it('renders array items as [i] and a top-level array as [0], [1]', () => {
    expect(pairs('{"list": ["A", {"inner": "B"}]}')).toEqual([
      ['list[0]', 'A'],
      ['list[1].inner', 'B'],
    ]);
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
    const duplicates: Array<[StoreUnit, StoreUnit]> = [];
    const units = parse('{"a": {"b": "x"},\n "a.b": "y", "c": "z"}', { onDuplicate: (duplicate: StoreUnit, kept: StoreUnit) => duplicates.push([duplicate, kept]) });
    expect(units.map((u) => [u.context, u.target[0], u.position])).toEqual([
      ['a.b', 'x', 1],
      ['c', 'z', 3], // the skipped duplicate still used position 2 (§5.2)
    ]);
    expect(duplicates).toHaveLength(1);
    expect(duplicates[0][0]).toEqual(unit('a.b', 'y', 2, 2));
    expect(duplicates[0][1]).toBe(units[0]);
  });

  it('fails on a duplicate context without onDuplicate, naming both lines', () => {
    expect(() => parse('{"a": {"b": "x"},\n "a.b": "y"}')).toThrow(new FormatParseError('line 2: duplicate key "a.b" (first defined on line 1)'));
  });

  it('treats a key repeated in one object like Python: first place, last value', () => {
    expect(pairs('{"a": "1", "b": "2", "a": "3"}')).toEqual([
      ['a', '3'],
      ['b', '2'],
    ]);
  });

  it('keeps integer-like keys in file order (JSON.parse would move them first)', () => {
    expect(pairs('{"b": "x", "10": "y", "2": "z"}').map(([key]) => key)).toEqual(['b', '10', '2']);
  });

  it('decodes escapes, including surrogate pairs, and tolerates a BOM', () => {
    expect(pairs(String.raw`{"s": "a\"b\\c\/d\n\t\u00e9\ud83d\ude00"}`)).toEqual([['s', 'a"b\\c/d\n\té😀']]);
    const content = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"a": "Příliš"}')]);
    expect(parse(content).map((u) => u.target[0])).toEqual(['Příliš']);
  });

  it.each([
    ['{"a": "x",}', 'line 1: invalid JSON: expected a property name in double quotes, found "}" (column 11)'],
    ['{"a" "x"}', /expected ':'/],
    ['{"a": "x"', /expected ',' or '}'/],
    ['{"a": ["x" "y"]}', /expected ',' or ']'/],
    ['{"a": "x"} extra', /after the end of the document/],
    ['', /expected a value, found end of file/],
    ["{'a': 'x'}", /expected a property name in double quotes/],
    ['{"a": "line\nbreak"}', /^line 1: .*control character/],
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
    expect(() => parse('{\n    "a": "x",\n    "b" 1\n}')).toThrow('line 3: invalid JSON: expected \':\' after the property name, found "1" (column 9)');
  });

  it('rejects bytes that are not UTF-8 (with their line) and absurd nesting', () => {
    expect(() => parse(Buffer.from([0x7b, 0x0a, 0x22, 0xff, 0x22, 0x7d]))).toThrow(new FormatParseError('line 2: the file is not valid UTF-8'));
    // A surrogate encoded in UTF-8 (CESU) and an overlong form are invalid too; valid multi-byte text before them is skipped.
    expect(() => parse(Buffer.concat([Buffer.from('{"a": "ž😀",\n\n "b": "'), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from('"}')]))).toThrow('line 3: the file is not valid UTF-8');
    expect(() => parse(Buffer.from([0x5b, 0x22, 0xc0, 0xaf, 0x22, 0x5d]))).toThrow('line 1: the file is not valid UTF-8');
    expect(() => parse('['.repeat(5000) + ']'.repeat(5000))).toThrow(/nesting deeper/);
  });
});

describe('json-nested parse limits', () => {
  const failure = (run: () => unknown): FormatLimitError => {
    try {
      run();
    } catch (error) {
      if (error instanceof FormatLimitError) return error;
      throw error;
    }
    throw new Error('no FormatLimitError');
  };
  const limited = (json: string, limits: { maxUnits?: number; maxStringLength?: number }) => parse(json, { limits });

  it('stops at the first leaf past maxUnits, duplicates and nested leaves counted, containers not', () => {
    expect(limited('{"a": {"b": "1", "c": [2, null]}, "d": {}}', { maxUnits: 3 })).toHaveLength(3);
    const error = failure(() => limited('{"a": {"b": "1", "c": [2, null]},\n "a": "again"}', { maxUnits: 3 }));
    expect([error.kind, error.message]).toEqual(['units', 'more than 3 strings in one file (the limit was reached at line 2, column 7)']);
    expect(limited('"just a string"', { maxUnits: 0 })).toEqual([]);
  });

  it('refuses any string, key, number literal or joined key path longer than maxStringLength', () => {
    expect(limited('{"abcde": "12345"}', { maxStringLength: 5 })).toHaveLength(1);
    for (const json of ['{"a": "123456"}', '{"abcdef": "1"}', '{"a": 123456}', '{"a": "\\u0041\\u0041\\u0041\\u0041\\u0041\\u0041"}']) {
      expect({ json, kind: failure(() => limited(json, { maxStringLength: 5 })).kind }).toEqual({ json, kind: 'string-length' });
    }
    expect(failure(() => limited('{"a": "123456"}', { maxStringLength: 5 })).message).toBe('a string longer than 5 characters at line 1, column 7');
    expect(limited('{"a": "\\u0041"}', { maxStringLength: 1 })[0].target).toEqual(['A']);
    expect(failure(() => limited('{"abc": {"def": "x"}}', { maxStringLength: 5 })).message).toBe('a key path longer than 5 characters ("abc.def…")');
  });
});

describe('json write: patches the file', () => {
  const file = [
    '{',
    '  "app": {',
    '    "title": "Glossa",',
    '    "greeting": "Ahoj, \\u007bname}!",',
    '    "menu": {"open": "Otevřít", "close": "Zavřít"}',
    '  },',
    '  "list": [',
    '    "První",',
    '    null',
    '  ],',
    '  "limits": {"max": 100, "ratio": 1.0, "on": true},',
    '  "10": "deset"',
    '}',
    '',
  ].join('\n');

  it('leaves an unchanged file byte-identical, also when every unit is written with its own text', () => {
    const units = parse(file);
    expect(write(file, { update: [] })).toBe(file);
    expect(write(file, { update: units.map((u) => upd(u.context, u.target[0])) })).toBe(file);
  });

  it('changes only the edited value', () => {
    expect(write(file, { update: [upd('app.menu.close', 'Zavři "to"\n')] })).toBe(file.replace('"Zavřít"', '"Zavři \\"to\\"\\n"'));
    expect(write(file, { update: [upd('list[1]', 'Druhý')] })).toBe(file.replace('    null\n', '    "Druhý"\n'));
  });

  it('types values by the file leaf: numbers and booleans stay so when they can', () => {
    const edited = write(file, { update: [upd('limits.max', '007'), upd('limits.ratio', '2.50'), upd('limits.on', 'False')] });
    expect(edited).toBe(file.replace('{"max": 100, "ratio": 1.0, "on": true}', '{"max": "007", "ratio": 2.5, "on": false}'));
  });

  it('keeps BOM and CRLF line breaks', () => {
    const crlf = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(file.replace(/\n/g, '\r\n'))]);
    const out = format.write(crlf, { update: [upd('app.title', 'G')], add: [upd('app.menu.save', 'Uložit'), upd('new.key', 'Nový')] }, ctx);
    const expected = file
      .replace('"Glossa"', '"G"')
      .replace('"close": "Zavřít"}', '"close": "Zavřít", "save": "Uložit"}')
      .replace('  "10": "deset"\n', '  "10": "deset",\n  "new": {\n    "key": "Nový"\n  }\n')
      .replace(/\n/g, '\r\n');
    expect(out.equals(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(expected)]))).toBe(true);
  });

  it('appends new keys at the end of their parent with the sibling indentation', () => {
    const out = write(file, { update: [upd('app.subtitle', 'Podtitul')], add: [upd('list[3]', 'Čtvrtý')] });
    expect(out).toBe(
      file.replace('"menu": {"open": "Otevřít", "close": "Zavřít"}\n', '"menu": {"open": "Otevřít", "close": "Zavřít"},\n    "subtitle": "Podtitul"\n').replace('    null\n', '    null,\n    null,\n    "Čtvrtý"\n'),
    );
  });

  it('json keeps a new dotted key flat; json-nested nests it', () => {
    expect(write('{\n    "a": "x"\n}\n', { update: [upd('b.c', 'y')] }, ctx, JSON_FILE_FORMAT)).toBe('{\n    "a": "x",\n    "b.c": "y"\n}\n');
    expect(write('{\n    "a": "x"\n}\n', { update: [upd('b.c', 'y')] })).toBe('{\n    "a": "x",\n    "b": {\n        "c": "y"\n    }\n}\n');
  });

  it('does not write an untranslated string the file lacks, but an explicit add', () => {
    expect(write('{"a": "x"}', { update: [upd('b', '')] })).toBe('{"a": "x"}');
    expect(write('{"a": "x"}', { update: [], add: [upd('b', '')] })).toBe('{"a": "x", "b": ""}');
  });

  it('adds a unit as a copy of the template leaf: its path and JSON type', () => {
    const template = Buffer.from('{"app": {"title": "Weblate", "dotted.key": "D"}, "count": 5, "list": ["First", "Second"]}');
    const out = write('{\n    "app": {\n        "title": "Weblate"\n    }\n}\n', { update: [upd('list[1]', 'Druhý'), upd('app.dotted.key', 'T'), upd('count', '7')] }, { ...ctx, template }, JSON_FILE_FORMAT);
    expect(out).toBe(
      ['{', '    "app": {', '        "title": "Weblate",', '        "dotted.key": "T"', '    },', '    "list": [', '        null,', '        "Druhý"', '    ],', '    "count": 7', '}', ''].join('\n'),
    );
  });

  it('adds into an empty file and into empty objects', () => {
    expect(write('{}\n', { update: [upd('a.b', 'x')] })).toBe('{\n    "a": {\n        "b": "x"\n    }\n}\n');
    expect(write('{\n\t"o": {}\n}', { update: [upd('o.k', 'v')] })).toBe('{\n\t"o": {\n\t\t"k": "v"\n\t}\n}');
  });

  it('removes members and their commas cleanly; an emptied object goes too', () => {
    const remove = (...contexts: string[]) => write(file, { update: [], remove: contexts.map((context) => ({ context, source: [] })) });
    expect(remove('app.title')).toBe(file.replace('    "title": "Glossa",\n', ''));
    expect(remove('10')).toBe(file.replace('],\n  "limits": {"max": 100, "ratio": 1.0, "on": true},\n  "10": "deset"', '],\n  "limits": {"max": 100, "ratio": 1.0, "on": true}'));
    expect(remove('app.menu.open')).toBe(file.replace('{"open": "Otevřít", "close"', '{"close"'));
    expect(remove('app.menu.open', 'app.menu.close')).toBe(file.replace(',\n    "menu": {"open": "Otevřít", "close": "Zavřít"}', ''));
    expect(remove('app.title', 'app.greeting', 'app.menu.open', 'app.menu.close')).toBe(file.replace(/ {2}"app": \{[^]*?\n {2}\},\n/, ''));
    expect(write('{"a": "x"}\n', { update: [], remove: [{ context: 'a', source: [] }] })).toBe('{}\n');
    expect(write('{"a": "x", "b": "y"}', { update: [upd('c', 'z')], remove: [{ context: 'b', source: [] }] })).toBe('{"a": "x", "c": "z"}');
  });

  it('writes a repeated key where Python reads it from (the last one)', () => {
    expect(write('{"a": "1", "a": "2"}', { update: [upd('a', '3')] })).toBe('{"a": "1", "a": "3"}');
  });

  it('refuses changes whose paths conflict with the file', () => {
    expect(() => write('{"a": "x"}', { update: [upd('a.b', 'y')] })).toThrow(FormatWriteError);
    expect(() => write('{"a": {"b": "x"}}', { update: [upd('a', 'y')] })).toThrow(FormatWriteError);
    expect(() => write('{"l": []}', { update: [upd('l[10000000]', 'y')] })).toThrow(FormatWriteError);
  });
});

describe('json create', () => {
  it('starts an empty file without a base, or empties every value of the base keeping its layout', () => {
    expect(format.create(null, ctx)?.toString()).toBe('{}\n');
    const base = '{\n  "a": "A",\n  "n": {"c": 5, "e": ""},\n  "l": [null, true]\n}\n';
    expect(format.create(Buffer.from(base), ctx)?.toString()).toBe('{\n  "a": "",\n  "n": {"c": "", "e": ""},\n  "l": ["", ""]\n}\n');
  });
});

describe('json write: layout of new values', () => {
  it('keeps a new object on the line of its inline siblings, and nests it on lines elsewhere', () => {
    const file = '{\n\t"a": {"b": "x"},\n\t"l": [\n\t\t"x"\n\t]\n}';
    expect(write(file, { update: [upd('a.z.q', 'deep'), upd('l[1]', 'y'), upd('n.m', 'new')] })).toBe(
      '{\n\t"a": {"b": "x", "z": {"q": "deep"}},\n\t"l": [\n\t\t"x",\n\t\t"y"\n\t],\n\t"n": {\n\t\t"m": "new"\n\t}\n}',
    );
  });

  it('empties the document when its last unit goes', () => {
    expect(write('{\n    "a": {\n        "b": [\n            "x"\n        ]\n    }\n}\n', { update: [], remove: [{ context: 'a.b[0]', source: [] }] })).toBe('{}\n');
  });
});

describe('json-nested worked example (languages-formats-hashing.md §2.2)', () => {
  it('gives the template units in order with Weblate ids', () => {
    const template =
      '{"app":{"title":"Weblate","greeting":"Hello, {name}!"},' + '"cart":{"items":"{count} items in cart"},"list":["First","Second"]}';
    const rows = parse(template).map((u) => [u.position, u.context, u.target[0], calculateHash(u.context), calculateHash(u.target[0], u.context), hashToChecksum(calculateHash(u.context))]);
    expect(rows).toEqual([
      [1, 'app.title', 'Weblate', -6717303852330811496n, -95846635629574223n, '22c757bc71757f98'],
      [2, 'app.greeting', 'Hello, {name}!', -6722914994396313773n, 2877657794238324096n, '22b3686e9fdc4753'],
      [3, 'cart.items', '{count} items in cart', 1816141635243407310n, 307477479833810214n, '99343b31e67af7ce'],
      [4, 'list[0]', 'First', -4384817994132090469n, -271234623273053001n, '4325ff441f04119b'],
      [5, 'list[1]', 'Second', 2687294331881052410n, 1212373771198498151n, 'a54b2ff4fab0d8fa'],
    ]);
  });

  it('writes the Czech file after translating list[1] then app.greeting, byte for byte', () => {
    const template =
      '{"app":{"title":"Weblate","greeting":"Hello, {name}!"},' + '"cart":{"items":"{count} items in cart"},"list":["First","Second"]}';
    const translation = '{\n    "app": {\n        "title": "Weblate"\n    }\n}\n';
    const out = write(translation, { update: [upd('list[1]', 'Druhý'), upd('app.greeting', 'Ahoj, {name}!')] }, { ...ctx, template: Buffer.from(template) });
    // The same bytes Weblate's rebuilt document has (§2.2), here by patching.
    expect(out).toBe(['{', '    "app": {', '        "title": "Weblate",', '        "greeting": "Ahoj, {name}!"', '    },', '    "list": [', '        null,', '        "Druhý"', '    ]', '}', ''].join('\n'));
  });
});

describe('json write: JSON type of an edited leaf (formats.md §3.8)', () => {
  it.each([
    ['1', '7', '7'],
    ['1', ' 7 ', '7'],
    ['1', '1.50', '1.5'],
    ['1', '1.0', '1.0'],
    ['1', '1e16', '1e+16'],
    ['1', '12345678901234567890', '12345678901234567890'],
    ['1', 'inf', 'Infinity'],
    ['1', 'nan', 'NaN'],
    ['1', 'sedm', '"sedm"'],
    ['1', '007', '"007"'],
    ['false', 'True', 'true'],
    ['true', 'false', 'false'],
    ['true', 'ano', '"ano"'],
    ['"x"', '', '""'],
    ['null', 'něco', '"něco"'],
    ['"x"', '7', '"7"'],
  ])('a %s leaf given %j is written %s', (literal, target, expected) => {
    expect(write(`[${literal}]`, { update: [upd('[0]', target)] })).toBe(`[${expected}]`);
  });

  it('leaves a null leaf alone when its empty text is written back', () => {
    expect(write('[null]', { update: [upd('[0]', '')] })).toBe('[null]');
  });
});
