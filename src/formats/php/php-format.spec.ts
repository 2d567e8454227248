import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FormatLimitError, FormatParseError, FormatWriteError } from '../format';
import type { StoreUnit, StoreWriteContext, UnitWrite } from '../store';
import { PHP_FORMATS } from './index';

const [php, laravel] = PHP_FORMATS;
const fixturePath = (name: string): string => join(process.cwd(), 'src/formats/php/fixtures', name);
const fixture = (name: string): Buffer => readFileSync(fixturePath(name));
const context: StoreWriteContext = { languageCode: 'cs', plural: { number: 3, formula: '' } };
const update = (unitContext: string, ...target: string[]): UnitWrite => ({ context: unitContext, source: [], target, state: 'translated' });

function unit(unitContext: string, target: string[], position: number, line: number, note = ''): StoreUnit {
  return {
    context: unitContext,
    source: [],
    target,
    plural: target.length > 1,
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

const STRINGS_UNITS = [
  unit("$LANG['title']", ['Hello world'], 1, 5, '// Comment for title'),
  unit('$LANG["dq"]', ['Tab\there $x "quoted"'], 2, 6),
  unit("$LANG [ 'spaced' ]", ["It's a back\\slash and C:\\path"], 3, 7),
  unit("$LANG['x']['y']", ['deep'], 4, 8),
  unit("$LANG['joined']", ['Hello world'], 5, 9),
  unit("$messages->'nested'->'key'", ['Nested value'], 6, 12, '/* block comment */'),
  unit("$messages->'list'->[]", ['a'], 7, 12),
  unit("$short[]->'k'", ['v'], 8, 13),
  unit("$short[]->'n'[]->'i'", ['j'], 9, 13),
  unit('$short[]->5', ['five'], 10, 13),
  unit("define('CONST_NAME'", ['Constant value'], 11, 14),
  unit('define( "SP"', ['value two'], 12, 15),
];

describe('php: parse', () => {
  it('names strings as translate-toolkit does, decodes escapes, keeps preceding comments as notes', () => {
    expect(php.parse(fixture('strings.php'))).toEqual({ units: STRINGS_UNITS });
  });

  it('laravel splits `|` plurals and reads `return [...]` arrays', () => {
    expect(laravel.parse(fixture('laravel.php'))).toEqual({
      units: [
        unit("return[]->'welcome'", ['Welcome to our application'], 1, 8, '/**\n * Doc block\n */\n// note a'),
        unit("return[]->'double'", ['Line one\nLine two'], 2, 9),
        unit("return[]->'apples'", ['There is one apple', 'There are many apples'], 3, 11, '// trailing goes to the next\n# hash note'),
        unit("return[]->'range'", ['{0} None', '[1,19] Some', '[20,*] Many'], 4, 12),
        unit("return[]->'nested'[]->'inner'", ['Inner text'], 5, 14),
        unit("return[]->'nested'[]->'deep'->'x'", ['Deep'], 6, 15),
        unit('return[]->10', ['ten'], 7, 17),
      ],
    });
    // `php` keeps the `|` text as one form.
    expect(php.parse(fixture('laravel.php')).units[2].target).toEqual(['There is one apple|There are many apples']);
  });

  it('agrees with translate-toolkit on contexts, texts and notes (when installed)', () => {
    let output: string;
    try {
      output = execFileSync('/usr/bin/python3', ['-c', TOOLKIT_DUMP, fixturePath('strings.php'), fixturePath('laravel.php')], { encoding: 'utf8' });
    } catch {
      return; // translate-toolkit (or phply) is not installed: a second reader only.
    }
    const ours = [...php.parse(fixture('strings.php')).units, ...php.parse(fixture('laravel.php')).units].map((u) => [u.context, u.target[0], u.note]);
    expect(JSON.parse(output)).toEqual(ours);
  });

  it('reports syntax errors, duplicates and limits with lines', () => {
    expect(() => php.parse(Buffer.from("<?php\n$a = 'open;\n"))).toThrow("line 2: unterminated string");
    expect(() => php.parse(Buffer.from('<?php\n/* open\n'))).toThrow('line 2: unterminated comment');
    expect(() => php.parse(Buffer.from("<?php\nreturn [\n  'a' => 'b'\n  'c' => 'd',\n];\n"))).toThrow(/^line 4: expected "," or "]"/);
    expect(() => php.parse(Buffer.from("<?php\nreturn ['a' => 'b',\n"))).toThrow(FormatParseError);
    const dup = Buffer.from("<?php\n$L['a'] = 'x';\n$L['a'] = 'y';\n");
    expect(() => php.parse(dup)).toThrow(`line 3: duplicate string "$L['a']" (first on line 2)`);
    expect(php.parse(dup, { onDuplicate: () => undefined }).units.map((u) => u.target[0])).toEqual(['x']);
    expect(() => php.parse(fixture('strings.php'), { limits: { maxUnits: 3 } })).toThrow(FormatLimitError);
    expect(() => php.parse(fixture('strings.php'), { limits: { maxStringLength: 10 } })).toThrow(expect.objectContaining({ kind: 'string-length' }));
    expect(() => php.parse(Buffer.from(`<?php\nreturn ${'['.repeat(500)}${']'.repeat(500)};`))).toThrow(/nested deeper/);
    expect(() => php.parse(Buffer.from([0x3c, 0x3f, 0xff]))).toThrow('File is not valid UTF-8');
  });

  it('refuses statements and values it cannot read instead of dropping their strings', () => {
    const refused: Array<[string, string]> = [
      ["<?php\n$LANG['a'] = 'A';\n$LANG['x'] = ;\n", 'line 3: expected a value for "$LANG[\'x\']"'],
      ["<?php\n$LANG['x'] = 'a' . $b;\n", 'line 2: cannot read the value of "$LANG[\'x\']": only strings, their concatenations and arrays are read'],
      ["<?php\n$LANG['x'] = __('key');\n", 'line 2: cannot read the value of "$LANG[\'x\']"'],
      ["<?php\necho 'hello';\n", 'line 2: unsupported statement starting with "echo"'],
      ["<?php\nconst GREETING = 'hi';\n", 'line 2: unsupported statement starting with "const"'],
      ["<?php\n$obj->set('x');\n", 'line 2: unsupported statement starting with "$obj"'],
      ["<?php\nreturn [\n    'a' => 'A',\n    'b' => trans('x'),\n];\n", 'line 4: cannot read "return[]->\'b\'": only strings'],
      ["<?php\nreturn [\n    'a' => 'A' . 'B',\n];\n", 'line 3: cannot read "return[]->\'a\'": a concatenation inside an array'],
      ["<?php\nreturn [\n    KEY => 'A',\n];\n", 'line 3: cannot read an array key that is not a string or an integer'],
      ["<?php\nreturn [\n    'a' => ,\n];\n", 'line 3: expected a value in an array'],
      ["<?php\nreturn 'x';\n", 'line 2: cannot read the value of return'],
      ["<?php\ndefine('X', 'a' . CONSTANT);\n", 'line 2: cannot read the value of "define(\'X\'"'],
    ];
    for (const [text, message] of refused) expect(() => php.parse(Buffer.from(text))).toThrow(message);
    // Values without strings, declarations and definitions hold nothing to translate and are read past.
    const allowed = "<?php\ndeclare(strict_types=1);\nnamespace App;\nuse Foo\\Bar;\n$count = 5;\n$list = [];\nreturn ['n' => 3, 'b' => true, 's' => 'S', 'c' => 'C' /* x */];\n;\nfunction f() { echo 'x'; }\nclass C { const A = 'a'; }\n";
    expect(php.parse(Buffer.from(allowed)).units.map((u) => [u.context, u.target[0]])).toEqual([["return[]->'s'", 'S'], ["return[]->'c'", 'C']]);
    expect(php.parse(Buffer.from("<?php\ndefine('X', 'a' . 'b');\n")).units.map((u) => u.target[0])).toEqual(['ab']);
  });

  it('reads a file without `<?php` and skips heredocs', () => {
    expect(php.parse(Buffer.from("$a = 'x';\n$h = <<<EOT\n 'no' \nEOT;\n$b = \"y\";\n")).units.map((u) => [u.context, u.target[0]])).toEqual([
      ['$a', 'x'],
      ['$b', 'y'],
    ]);
  });
});

describe('php: write', () => {
  it('leaves an unchanged file byte-identical', () => {
    for (const [format, name] of [[php, 'strings.php'], [laravel, 'laravel.php']] as const) {
      const original = fixture(name);
      const units = format.parse(original).units;
      expect(format.write(original, { update: units.map((u) => update(u.context, ...u.target)) }, context).equals(original)).toBe(true);
    }
  });

  it('replaces only the edited literals, in their quote style', () => {
    const written = php.write(
      fixture('strings.php'),
      {
        update: [
          update("$LANG['title']", "Ahoj 'světe'"),
          update('$LANG["dq"]', 'Cena $5\n"ok"'),
          update("$LANG['joined']", 'Spojeno'),
          update("$short[]->'n'[]->'i'", 'J\\'),
          update('define( "SP"', 'hodnota'),
        ],
      },
      context,
    );
    const expected = fixture('strings.php')
      .toString()
      .replace("'Hello world';", "'Ahoj \\'světe\\'';")
      .replace('"Tab\\there \\$x \\"quoted\\""', '"Cena \\$5\\n\\"ok\\""')
      .replace("'Hello' . ' world'", "'Spojeno'")
      .replace("'i' => 'j'", "'i' => 'J\\\\'")
      .replace('"value two"', '"hodnota"');
    expect(written.toString()).toBe(expected);
    expect(php.parse(written).units.map((u) => u.target[0])).toContain('Cena $5\n"ok"');
  });

  it('joins laravel plural forms with `|`', () => {
    const written = laravel.write(fixture('laravel.php'), { update: [update("return[]->'apples'", 'Jedno jablko', 'Jablka', 'Jablek')] }, context);
    expect(written.toString()).toBe(fixture('laravel.php').toString().replace('There is one apple|There are many apples', 'Jedno jablko|Jablka|Jablek'));
  });

  it('appends new keys at the end of their array and new statements at the end of the file', () => {
    const written = laravel.write(
      fixture('laravel.php'),
      { update: [update("return[]->'nested'[]->'added'", "Přidáno's")], add: [update("return[]->'last'", 'Poslední'), update('$extra', 'x')] },
      context,
    );
    expect(written.toString()).toBe(
      fixture('laravel.php')
        .toString()
        .replace("        'deep' => array('x' => 'Deep'),\n", "        'deep' => array('x' => 'Deep'),\n        'added' => 'Přidáno\\'s',\n")
        .replace("    10 => 'ten',\n", "    10 => 'ten',\n    'last' => 'Poslední',\n") + "$extra = 'x';\n",
    );
    const inline = php.write(Buffer.from("<?php\n$a = ['k' => 'v'];\n$b = [];\n?>\n"), { update: [update("$a[]->'n'", 'N'), update("$b[]->'m'", 'M'), update("define('C'", 'c')] }, context);
    expect(inline.toString()).toBe("<?php\n$a = ['k' => 'v', 'n' => 'N'];\n$b = ['m' => 'M'];\ndefine('C', 'c');\n?>\n");
    const noComma = php.write(Buffer.from("<?php\nreturn array(\n  'a' => 'A'\n);\n"), { update: [update("return->'b'", 'B')] }, context);
    expect(noComma.toString()).toBe("<?php\nreturn array(\n  'a' => 'A',\n  'b' => 'B',\n);\n");
    expect(() => php.write(Buffer.from('<?php\n'), { update: [update("nonsense->'x'", 'X')] }, context)).toThrow(FormatWriteError);
    expect(() => php.write(Buffer.from('<?php\n'), { update: [update("return[]->'x'[]", 'X')] }, context)).toThrow(FormatWriteError);
  });

  it('creates the arrays a key path needs (a new laravel file, a nested key the translation lacks)', () => {
    // A new file is `<?php\n`: its first string creates the `return [...]` statement.
    const fresh = laravel.write(Buffer.from('<?php\n'), { update: [update("return[]->'a'", 'A'), update("return[]->'n'[]->'i'", 'I'), update("return[]->'n'[]->'j'", 'J')] }, context);
    expect(fresh.toString()).toBe("<?php\nreturn [\n    'a' => 'A',\n    'n' => ['i' => 'I', 'j' => 'J'],\n];\n");
    expect(laravel.parse(fresh).units.map((u) => u.context)).toEqual(["return[]->'a'", "return[]->'n'[]->'i'", "return[]->'n'[]->'j'"]);
    const nested = laravel.write(Buffer.from("<?php\nreturn [\n    'a' => 'A',\n];\n"), { update: [update("return[]->'n'[]->'d'->'x'", "It's")] }, context);
    expect(nested.toString()).toBe("<?php\nreturn [\n    'a' => 'A',\n    'n' => ['d' => array('x' => 'It\\'s')],\n];\n");
    expect(laravel.parse(nested).units.map((u) => [u.context, u.target[0]])).toEqual([["return[]->'a'", 'A'], ["return[]->'n'[]->'d'->'x'", "It's"]]);
    const variable = php.write(Buffer.from('<?php\n'), { update: [update("$messages->'k'", 'v')] }, context);
    expect(php.parse(variable).units.map((u) => u.context)).toEqual(["$messages->'k'"]);
  });

  it('names a key added through the API as the file reads it back (laravel)', () => {
    expect(laravel.contextForKey?.('bye')).toBe("return[]->'bye'");
    expect(laravel.contextForKey?.("it's")).toBe("return[]->'it\\'s'");
    expect(laravel.contextForKey?.('5')).toBe('return[]->5');
    expect(laravel.contextForKey?.("return[]->'x'[]->'y'")).toBe("return[]->'x'[]->'y'");
    expect(php.contextForKey).toBeUndefined();
    const written = laravel.write(Buffer.from("<?php\nreturn [\n    'a' => 'A',\n];\n"), { update: [], add: [update(laravel.contextForKey!('bye'), 'Bye')] }, context);
    expect(laravel.parse(written).units.map((u) => u.context)).toEqual(["return[]->'a'", "return[]->'bye'"]);
  });

  it('removes entries with their line', () => {
    const written = laravel.write(fixture('laravel.php'), { update: [], remove: [{ context: "return[]->'range'", source: [] }, { context: 'return[]->10', source: [] }] }, context);
    expect(written.toString()).toBe(fixture('laravel.php').toString().replace("    'range' => '{0} None|[1,19] Some|[20,*] Many',\n", '').replace("    10 => 'ten',\n", ''));
  });

  it('keeps CRLF and BOM', () => {
    const original = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from("<?php\r\nreturn [\r\n    'a' => 'A',\r\n];\r\n")]);
    const written = laravel.write(original, { update: [update("return[]->'a'", 'Á'), update("return[]->'b'", 'B')] }, context);
    expect(written.equals(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from("<?php\r\nreturn [\r\n    'a' => 'Á',\r\n    'b' => 'B',\r\n];\r\n")]))).toBe(true);
  });
});

describe('php: create', () => {
  it('writes `<?php` for a new file and empties every string of a base', () => {
    expect(php.create(null, context)?.toString()).toBe('<?php\n');
    expect(laravel.create(Buffer.from("<?php\nreturn [\n    'a' => 'A', // c\n    'b' => \"B\",\n];\n"), context)?.toString()).toBe(
      "<?php\nreturn [\n    'a' => '', // c\n    'b' => \"\",\n];\n",
    );
  });
});

describe('php: 50,000 strings', () => {
  it('reads every string and patches only the edited one', () => {
    let content = '<?php\nreturn [\n';
    for (let index = 0; index < 50000; index++) content += `    'key${index}' => 'Value number ${index} with some text',\n`;
    content += '];\n';
    const buffer = Buffer.from(content);
    expect(laravel.parse(buffer).units).toHaveLength(50000);
    const written = laravel.write(buffer, { update: [update("return[]->'key49999'", 'Changed')] }, context);
    expect(written.toString()).toBe(content.replace("'Value number 49999 with some text'", "'Changed'"));
  });
});

const TOOLKIT_DUMP = `
import json, sys
from translate.storage import php
out = []
for path in sys.argv[1:]:
    store = php.phpfile.parsefile(path)
    out += [[u.getid(), u.source, u.getnotes()] for u in store.units]
print(json.dumps(out))
`;
