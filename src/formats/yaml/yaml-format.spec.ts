import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FormatLimitError, FormatParseError, FormatWriteError } from '../format';
import type { StoreUnit, StoreWriteContext, UnitWrite } from '../store';
import { YAML_FORMATS } from './index';
import { readFastYaml } from './yaml-fast';
import { loadYamlTree, walkYamlTree } from './yaml-tree';

const [yaml, rubyYaml] = YAML_FORMATS;
const fixture = (name: string): Buffer => readFileSync(join(process.cwd(), 'src/formats/yaml/fixtures', name));
const csContext: StoreWriteContext = { languageCode: 'cs', plural: { number: 3, formula: '(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2' } };
const update = (context: string, ...target: string[]): UnitWrite => ({ context, source: [], target, state: 'translated' });

function unit(context: string, target: string[], position: number, line: number): StoreUnit {
  return {
    context,
    source: [],
    target,
    plural: target.length > 1,
    note: '',
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

describe('yaml: parse', () => {
  it('reads every leaf as Weblate does (`->` paths, [i] items, Python spellings, no nulls, no merge keys)', () => {
    expect(yaml.parse(fixture('messages.en.yml'))).toEqual({
      units: [
        unit('en->hello', ['Hello world'], 1, 3),
        unit('en->single', ["It's here"], 2, 4),
        unit('en->plain', ['Plain text'], 3, 5),
        unit('en->nested->multi', ['Line one\nLine two\n'], 4, 7),
        unit('en->nested->folded', ['folded text'], 5, 10),
        unit('en->count->one', ['%{count} item'], 6, 14),
        unit('en->count->other', ['%{count} items'], 7, 15),
        unit('en->list->[0]', ['first'], 8, 17),
        unit('en->list->[1]', ['second'], 9, 18),
        unit('en->number', ['42'], 10, 19),
        unit('en->float', ['1.0'], 11, 20),
        unit('en->flag', ['True'], 12, 21),
        unit('en->empty', [''], 13, 23),
        unit('en->anchored', ['Hi'], 14, 24),
        unit('en->aliased', ['Hi'], 15, 25),
        unit('en->base->inherited', ['From base'], 16, 27),
        unit('en->derived->own', ['Own value'], 17, 30),
        unit('en->tagged', ['12'], 18, 31),
        unit('en->flow->a', ['A'], 19, 32),
        unit('en->flow->b', ['B'], 20, 32),
        unit('en->quoted key', ['Quoted key value'], 21, 33),
      ],
    });
  });

  it('ruby-yaml drops the language root and reads category maps as plural units in the language order', () => {
    const parsed = rubyYaml.parse(fixture('ruby.cs.yml'), { language: 'cs' });
    expect(parsed).toEqual({
      language: 'cs',
      units: [
        unit('hello', ['Ahoj'], 1, 2),
        unit('count', ['%{count} položka', '%{count} položky', '%{count} položek'], 2, 3),
        unit('partial', ['jeden', '', 'mnoho'], 3, 7),
        unit('list->[0]', ['první'], 4, 11),
      ],
    });
    // Without a language the file's own categories are used, in CLDR order.
    expect(rubyYaml.parse(fixture('ruby.cs.yml')).units[2].target).toEqual(['jeden', 'mnoho']);
    // A single-category language still gives a plural unit.
    expect(rubyYaml.parse(fixture('ruby.cs.yml'), { language: 'ja' }).units[1]).toMatchObject({ plural: true, target: ['%{count} položek'] });
  });

  it('ruby-yaml keeps every key when the root has several keys', () => {
    const parsed = rubyYaml.parse(Buffer.from('a: A\nb:\n  one: x\n  other: y\n'), { language: 'en' });
    expect(parsed.units.map((u) => [u.context, u.target])).toEqual([
      ['a', ['A']],
      ['b', ['x', 'y']],
    ]);
    expect(parsed.language).toBeUndefined();
  });

  it('reads BOM + CRLF files', () => {
    expect(yaml.parse(fixture('crlf-bom.yml')).units.map((u) => [u.context, u.target, u.line])).toEqual([
      ['root->a', ['A'], 2],
      ['root->b', ['B'], 3],
    ]);
  });

  it('fails on syntax errors with the line', () => {
    expect(() => yaml.parse(Buffer.from('a: b\nc: "open\n'))).toThrow(/^line 3: Missing closing "quote/);
    expect(() => yaml.parse(Buffer.from('a:\n  b: 1\n c: 2\n'))).toThrow(FormatParseError);
    expect(() => yaml.parse(Buffer.from([0x61, 0x3a, 0x20, 0xff]))).toThrow('File is not valid UTF-8');
  });

  it('reports duplicates with both lines, or hands them to onDuplicate keeping the first', () => {
    const content = Buffer.from('a: first\nb: x\na: second\n');
    expect(() => yaml.parse(content)).toThrow('line 3: duplicate string "a" (first on line 1)');
    const duplicates: string[] = [];
    const parsed = yaml.parse(content, { onDuplicate: (dup, kept) => duplicates.push(`${dup.target[0]}/${kept.target[0]}`) });
    expect(parsed.units.map((u) => [u.context, u.target[0], u.position])).toEqual([
      ['a', 'first', 1],
      ['b', 'x', 2],
    ]);
    expect(duplicates).toEqual(['second/first']);
  });

  it('enforces the unit and string-length limits', () => {
    const content = Buffer.from('a: 1\nb: 2\nc: 3\n');
    expect(() => yaml.parse(content, { limits: { maxUnits: 2 } })).toThrow(FormatLimitError);
    expect(() => yaml.parse(content, { limits: { maxUnits: 2 } })).toThrow('line 3: the file has more than 2 strings');
    expect(() => yaml.parse(Buffer.from('a: abcdef\n'), { limits: { maxStringLength: 5 } })).toThrow(
      expect.objectContaining({ kind: 'string-length' }),
    );
  });

  it('survives hostile input: deep nesting is refused, collection aliases are not expanded', () => {
    expect(() => yaml.parse(Buffer.from(`${'['.repeat(300)}${']'.repeat(300)}`))).toThrow(FormatParseError);
    expect(() => yaml.parse(Buffer.from(`${'['.repeat(20000)}${']'.repeat(20000)}`))).toThrow(FormatParseError);
    const laughs = ['a: &a [x, x, x, x, x, x, x, x, x, x]'];
    for (let i = 1; i < 12; i++) laughs.push(`l${i}: &l${i} [${`*${i === 1 ? 'a' : `l${i - 1}`}, `.repeat(9)}*${i === 1 ? 'a' : `l${i - 1}`}]`);
    expect(yaml.parse(Buffer.from(laughs.join('\n'))).units).toHaveLength(10);
  });
});

describe('yaml: write', () => {
  it('leaves an unchanged file byte-identical (also when re-writing the same texts)', () => {
    const original = fixture('messages.en.yml');
    const units = yaml.parse(original).units;
    expect(yaml.write(original, { update: [] }, csContext).equals(original)).toBe(true);
    const same = yaml.write(original, { update: units.map((u) => update(u.context, ...u.target)) }, csContext);
    expect(same.equals(original)).toBe(true);
    const bom = fixture('crlf-bom.yml');
    expect(yaml.write(bom, { update: [] }, csContext).equals(bom)).toBe(true);
  });

  it('patches only the edited scalars, keeping quoting style, comments and block style', () => {
    const written = yaml.write(
      fixture('messages.en.yml'),
      {
        update: [
          update('en->hello', 'Ahoj "světe"'),
          update('en->single', "Je to tady, isn't it"),
          update('en->plain', 'true'),
          update('en->nested->multi', 'Řádek jedna\nŘádek dva\n'),
          update('en->list->[1]', 'druhý: s dvojtečkou'),
          update('en->number', '43'),
          update('en->aliased', 'Ahoj'),
          update('en->flow->b', 'B, C'),
        ],
      },
      csContext,
    );
    const expected = fixture('messages.en.yml')
      .toString()
      .replace('"Hello world"', '"Ahoj \\"světe\\""')
      .replace("'It''s here'", "'Je to tady, isn''t it'")
      .replace('plain: Plain text', "plain: 'true'")
      .replace('      Line one\n      Line two\n', '      Řádek jedna\n      Řádek dva\n')
      .replace("- 'second'", "- 'druhý: s dvojtečkou'")
      .replace('number: 42', "number: '43'")
      .replace('aliased: *greet', 'aliased: Ahoj')
      .replace('b: B}', "b: 'B, C'}");
    expect(written.toString()).toBe(expected);
  });

  it('turns a multi-line text into a block literal or a double-quoted scalar', () => {
    const content = Buffer.from('a: |\n  one\n  two\nb: plain\nc: >\n  folded\n');
    const written = yaml.write(content, { update: [update('a', 'x\ny'), update('b', 'p\nq'), update('c', 'single')] }, csContext);
    expect(written.toString()).toBe('a: |-\n  x\n  y\nb: "p\\nq"\nc: single\n');
  });

  it('keeps CRLF line endings and the BOM', () => {
    const written = yaml.write(fixture('crlf-bom.yml'), { update: [update('root->b', 'Bé'), update('root->c', 'new')] }, csContext);
    expect(written.equals(Buffer.from('\xef\xbb\xbfroot:\r\n  a: "A"\r\n  b: Bé\r\n  c: new\r\n'.replace('\xef\xbb\xbf', ''), 'utf8'))).toBe(false);
    expect(written.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    expect(written.subarray(3).toString()).toBe('root:\r\n  a: "A"\r\n  b: Bé\r\n  c: new\r\n');
  });

  it('appends new keys at the end of their parent mapping, creating missing parents', () => {
    const content = Buffer.from('# c\nen:\n  a:\n    x: X\n  b: B\n# trailing\n');
    const written = yaml.write(
      content,
      { update: [update('en->a->y', 'Y')], add: [update('en->c->d', 'D'), update('en->c->e', "it's"), update('top', '42')] },
      csContext,
    );
    expect(written.toString()).toBe("# c\nen:\n  a:\n    x: X\n    y: Y\n  b: B\n  c:\n    d: D\n    e: it's\ntop: '42'\n# trailing\n");
  });

  it('adds to an empty flow mapping, a new {} file, a sequence and a file without final newline', () => {
    expect(yaml.write(Buffer.from('{}\n'), { update: [update('a->b', 'B'), update('c', '')] }, csContext).toString()).toBe("a:\n  b: B\nc: ''\n");
    expect(yaml.write(Buffer.from('a:\n  e: {}\n'), { update: [update('a->e->b', 'B')] }, csContext).toString()).toBe('a:\n  e:\n    b: B\n');
    expect(yaml.write(Buffer.from('l:\n  - one\n'), { update: [update('l->[1]', 'two')] }, csContext).toString()).toBe('l:\n  - one\n  - two\n');
    expect(yaml.write(Buffer.from('a: A'), { update: [update('b', 'B')] }, csContext).toString()).toBe('a: A\nb: B\n');
    expect(yaml.write(Buffer.from(''), { update: [update('b', 'B')] }, csContext).toString()).toBe('b: B\n');
    expect(() => yaml.write(Buffer.from('a: A\n'), { update: [update('a->b', 'B')] }, csContext)).toThrow(FormatWriteError);
    expect(() => yaml.write(Buffer.from('a: A\n'), { update: [update('l->[0]', 'B')] }, csContext)).toThrow(FormatWriteError);
  });

  it('removes entries with their lines', () => {
    const content = Buffer.from('a: A # note\nb:\n  c: C\n  d: |\n    D\nl:\n  - x\n  - y\n');
    const written = yaml.write(content, { update: [], remove: [{ context: 'a', source: [] }, { context: 'b->d', source: [] }, { context: 'l->[0]', source: [] }] }, csContext);
    expect(written.toString()).toBe('b:\n  c: C\nl:\n  - y\n');
  });
});

describe('ruby-yaml: write', () => {
  it('patches plural forms in place when the keys already match the language', () => {
    const written = rubyYaml.write(fixture('ruby.cs.yml'), { update: [update('count', '%{count} kus', '%{count} kusy', '%{count} kusů')] }, csContext);
    expect(written.toString()).toBe(
      fixture('ruby.cs.yml').toString().replace('"%{count} položka"', '"%{count} kus"').replace('"%{count} položky"', '"%{count} kusy"').replace('"%{count} položek"', '"%{count} kusů"'),
    );
  });

  it('rebuilds a plural map with the language categories, and adds plural units under the language root', () => {
    const written = rubyYaml.write(fixture('ruby.cs.yml'), { update: [update('partial', 'jedna', 'dvě', 'pět')], add: [update('apples', '1 jablko', '%{n} jablka', '%{n} jablek')] }, csContext);
    expect(written.toString()).toBe(
      'cs:\n  hello: Ahoj\n  count:\n    one: "%{count} položka"\n    few: "%{count} položky"\n    other: "%{count} položek"\n' +
        '  partial:\n    one: jedna\n    few: dvě\n    other: pět\n  list:\n    - první\n' +
        "  apples:\n    one: 1 jablko\n    few: '%{n} jablka'\n    other: '%{n} jablek'\n",
    );
  });

  it('starts a new file with the language root', () => {
    expect(rubyYaml.write(Buffer.from('{}\n'), { update: [update('hello', 'Ahoj')] }, csContext).toString()).toBe('cs:\n  hello: Ahoj\n');
  });
});

describe('yaml: create', () => {
  it('uses Weblate\'s "{}" for a new file and empties a base, renaming the Ruby root', () => {
    expect(yaml.create(null, csContext)?.toString()).toBe('{}\n');
    expect(rubyYaml.create(Buffer.from('en:\n  a: "A" # c\n  b:\n    one: x\n    other: y\n'), csContext)?.toString()).toBe(
      "cs:\n  a: \"\" # c\n  b:\n    one: ''\n    other: ''\n",
    );
  });
});

describe('yaml: 50,000 units', () => {
  it('reads every unit and patches only the edited one', () => {
    let content = 'en:\n';
    for (let group = 0; group < 5000; group++) {
      content += `  group${group}:\n`;
      for (let key = 0; key < 10; key++) content += `    key${key}: "Value ${group} ${key} with some text"\n`;
    }
    const buffer = Buffer.from(content);
    expect(yaml.parse(buffer).units).toHaveLength(50000);
    const written = yaml.write(buffer, { update: [update('en->group4999->key9', 'Changed')] }, csContext);
    expect(written.toString()).toBe(content.replace('key9: "Value 4999 9 with some text"', 'key9: "Changed"'));
  });
});

describe('yaml: fast reader', () => {
  const fullParse = (content: Buffer, ruby: boolean, language?: string): string[][] => {
    const tree = loadYamlTree(content.toString('utf8').replace(/^\uFEFF/, ''));
    const out: string[][] = [];
    walkYamlTree(tree, { ruby, language, onLeaf: (leaf, texts) => out.push([leaf.context, ...texts, String(leaf.line)]) });
    return out;
  };
  const fastParse = (format: typeof yaml, content: Buffer, language?: string): string[][] =>
    format.parse(content, { language, onDuplicate: () => undefined }).units.map((u) => [u.context, ...u.target, String(u.line)]);

  it('takes the simple shape and gives exactly what the full parser gives', () => {
    for (const name of ['simple.cs.yml', 'crlf-bom.yml']) {
      const content = fixture(name);
      expect(readFastYaml(content.toString('utf8').replace(/^\uFEFF/, ''))).not.toBeNull();
      expect(fastParse(yaml, content)).toEqual(fullParse(content, false));
      expect(fastParse(rubyYaml, content, 'cs')).toEqual(fullParse(content, true, 'cs'));
      expect(fastParse(rubyYaml, content)).toEqual(fullParse(content, true));
    }
    expect(rubyYaml.parse(fixture('simple.cs.yml'), { language: 'cs' }).units.find((u) => u.context === 'count')).toMatchObject({
      plural: true,
      target: ['%{count} soubor', '%{count} soubory', ''],
    });
  });

  it('leaves other shapes to the full parser', () => {
    for (const text of ['a: 42\n', 'a:\n  - x\n', 'a: |\n  x\n', 'a: &x y\n', 'a: {b: c}\n', '"q": v\n', 'a: b\n  c: d\n', '---\na: b\n', 'a:\tb\n', 'a: "x\n  y"\n']) {
      expect(readFastYaml(text)).toBeNull();
    }
  });

  it('patches edits on the fast path exactly like the full path', () => {
    const content = fixture('simple.cs.yml');
    const changes = { update: [update('cs->title', 'Nový: nadpis'), update('cs->quoted', 'Q'), update('cs->single', 'S'), update('cs->deep->deeper->deepest', 'yes')] };
    const written = yaml.write(content, changes, csContext).toString();
    expect(written).toBe(
      content
        .toString()
        .replace('title: Nadpis', "title: 'Nový: nadpis'")
        .replace('"Řádek\\nnový \\"q\\" \\u00e9"', '"Q"')
        .replace("'It''s # not a comment'", "'S'")
        .replace('deepest: Hluboko', "deepest: 'yes'"),
    );
    // The same edits plus an addition take the full path and agree on the edited lines.
    const full = yaml.write(content, { ...changes, add: [update('cs->zzz', 'Z')] }, csContext).toString();
    expect(full).toBe(`${written}  zzz: Z\n`);
  });
});
