import { CS_CONTEXT, expectMsgfmtAccepts } from './gettext-test-helpers';
import { PO_FORMAT } from './po.format';
import { bigPo } from '../../bench/po-synthetic';
import { quoteForPo } from './po-wrap';

// Expected lines computed with translate-toolkit's wrapping rules (formats.md §3.1 "Wrapping").
describe('quoteForPo', () => {
  it.each([
    ['', []],
    ['Short', ['"Short"']],
    ['x\n', ['"x\\n"']],
    ['Line one\nLine two\n', ['""', '"Line one\\n"', '"Line two\\n"']],
    ['\n\n', ['""', '"\\n"', '"\\n"']],
    [
      'Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua.',
      ['""', '"Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod "', '"tempor incididunt ut labore et dolore magna aliqua."'],
    ],
    [
      'Visit https://docs.weblate.org/en/latest/admin/install/docker.html#configuring-the-container-with-a-long-path for details',
      ['""', '"Visit https://docs.weblate.org/en/latest/admin/install/docker.html"', '"#configuring-the-container-with-a-long-path for details"'],
    ],
    ['a'.repeat(200), ['""', `"${'a'.repeat(77)}"`, `"${'a'.repeat(77)}"`, `"${'a'.repeat(46)}"`]],
    ['漢字'.repeat(60), ['""', `"${'漢字'.repeat(19)}"`, `"${'漢字'.repeat(19)}"`, `"${'漢字'.repeat(19)}"`, `"${'漢字'.repeat(3)}"`]],
    ['Say "hi"\tnow \\ ok', ['"Say \\"hi\\"\\tnow \\\\ ok"']],
  ])('%j', (text, lines) => {
    expect(quoteForPo(text)).toEqual(lines);
  });

  it('wraps a hostile long word without losing a character', () => {
    const text = 'a-'.repeat(50_000) + 'b\\'.repeat(50_000);
    const lines = quoteForPo(text);
    expect(lines[0]).toBe('""');
    expect(lines.slice(1).map((line) => line.slice(1, -1)).join('')).toBe(text.replace(/\\/g, '\\\\'));
  });
});

describe('po layout cases', () => {
  const tight = 'msgid "a"\nmsgstr "1"\n#: x.c:1\nmsgid "b"\nmsgstr ""\n"two "\n"lines"\nmsgid "c"\nmsgstr "3"';

  it('reads entries that are not separated by blank lines, and a file without a final newline', () => {
    expect(PO_FORMAT.parse(Buffer.from(tight)).units.map((unit) => [unit.source[0], unit.target[0], unit.line, unit.location])).toEqual([
      ['a', '1', 1, ''],
      ['b', 'two lines', 3, 'x.c:1'],
      ['c', '3', 8, ''],
    ]);
  });

  it('replaces a multi-line msgstr and keeps a missing final newline', () => {
    const noHeaderUpdate = { ...CS_CONTEXT, revisionDate: undefined, lastTranslator: undefined, generator: undefined };
    const out = PO_FORMAT.write(
      Buffer.from(tight),
      {
        update: [
          { context: '', source: ['b'], target: ['B'], state: 'translated' },
          { context: '', source: ['c'], target: ['C'], state: 'translated' },
        ],
      },
      noHeaderUpdate,
    );
    expect(out.toString()).toBe(
      'msgid ""\nmsgstr ""\n"Language: cs\\n"\n"MIME-Version: 1.0\\n"\n"Content-Type: text/plain; charset=UTF-8\\n"\n' +
        '"Content-Transfer-Encoding: 8bit\\n"\n"Plural-Forms: nplurals=3; plural=(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2;\\n"\n\n' +
        'msgid "a"\nmsgstr "1"\n#: x.c:1\nmsgid "b"\nmsgstr "B"\nmsgid "c"\nmsgstr "C"',
    );
  });

  it('keeps obsolete entries (with #~| and multi-line strings) byte for byte', () => {
    const po =
      'msgid ""\nmsgstr ""\n"Language: cs\\n"\n"Content-Type: text/plain; charset=UTF-8\\n"\n' +
      '"Plural-Forms: nplurals=3; plural=(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2;\\n"\n\n' +
      'msgid "live"\nmsgstr ""\n\n' +
      '# old note\n#, fuzzy\n#~| msgid "older"\n#~ msgctxt "ctx"\n#~ msgid ""\n#~ "obsolete "\n#~ "text"\n#~ msgstr "zastaralé"\n' +
      '#~ msgid "second obsolete"\n#~ msgstr "druhé"\n';
    const parsed = PO_FORMAT.parse(Buffer.from(po));
    expect(parsed.units.map((unit) => unit.source)).toEqual([['live']]);
    const out = PO_FORMAT.write(Buffer.from(po), { update: [{ context: '', source: ['live'], target: ['živý'], state: 'translated' }] }, CS_CONTEXT);
    expect(out.toString()).toContain('msgid "live"\nmsgstr "živý"\n\n# old note\n#, fuzzy\n#~| msgid "older"\n#~ msgctxt "ctx"\n');
    expect(out.toString().endsWith('#~ msgstr "zastaralé"\n#~ msgid "second obsolete"\n#~ msgstr "druhé"\n')).toBe(true);
    expectMsgfmtAccepts(out);
  });

  it('adds to an empty file: header first, then the entry', () => {
    const out = PO_FORMAT.write(Buffer.alloc(0), { update: [], add: [{ context: '', source: ['a'], target: ['b'], state: 'translated' }] }, CS_CONTEXT);
    expect(out.toString()).toMatch(/^msgid ""\nmsgstr ""\n(".*\\n"\n)+\nmsgid "a"\nmsgstr "b"\n$/);
    expectMsgfmtAccepts(out);
  });

  it('wraps a long header field it rewrites', () => {
    const context = { ...CS_CONTEXT, languageTeam: 'Czech <https://translate.example.com/projects/a-long-project-name/a-long-component/cs/>' };
    const out = PO_FORMAT.write(Buffer.from('msgid "a"\nmsgstr ""\n'), { update: [{ context: '', source: ['a'], target: ['b'], state: 'translated' }] }, context);
    expect(out.toString()).toContain(
      '"Language-Team: Czech <https://translate.example.com/projects/"\n"a-long-project-name/a-long-component/cs/>\\n"',
    );
  });
});

describe('po ISO-8859-1', () => {
  it('reads bytes 0x80-0xFF as U+0080-U+00FF (Python latin-1, not windows-1252) and writes them back', () => {
    const head = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=ISO-8859-1\\n"\n\nmsgid "a"\nmsgstr "';
    const file = Buffer.concat([Buffer.from(head, 'latin1'), Buffer.from([0xe9, 0x80]), Buffer.from('"\n\nmsgid "b"\nmsgstr ""\n', 'latin1')]);
    expect(PO_FORMAT.parse(file).units[0].target).toEqual(['é\u0080']);
    const out = PO_FORMAT.write(file, { update: [{ context: '', source: ['b'], target: ['ü'], state: 'translated' }] }, CS_CONTEXT);
    expect(out.includes(Buffer.from([0x22, 0xe9, 0x80, 0x22]))).toBe(true);
    expect(out.includes(Buffer.from([0x22, 0xfc, 0x22]))).toBe(true);
    expect(() =>
      PO_FORMAT.write(file, { update: [{ context: '', source: ['b'], target: ['€'], state: 'translated' }] }, CS_CONTEXT),
    ).toThrow('Character U+20AC cannot be written in ISO-8859-1');
  });
});

describe('po at 50,000 entries', () => {
  it('reads every entry and changes only the edited one', () => {
    const file = bigPo(50_000);
    expect(PO_FORMAT.parse(file).units).toHaveLength(50_000);
    const update = [{ context: 'ctx1', source: ['Source string 40001'], target: ['Upraveno'], state: 'translated' as const }];
    const written = PO_FORMAT.write(file, { update }, CS_CONTEXT).toString('utf8');
    const expected = file.toString('utf8').replace('msgid "Source string 40001"\nmsgstr "Přeložený řetězec 40001"\n', 'msgid "Source string 40001"\nmsgstr "Upraveno"\n');
    // The header is updated as Weblate does on save; everything after it is byte-identical but the one entry.
    const body = (text: string): string => text.slice(text.indexOf('\n\n'));
    expect(body(written)).toBe(body(expected));
  });
});

describe('po write within the parse limits (write-back checks them in the writing pass)', () => {
  const file = Buffer.from('msgid "a"\nmsgstr "1"\n\nmsgid ""\n"long "\n"one"\nmsgstr "2"\n');
  const update = [{ context: '', source: ['a'], target: ['x'], state: 'translated' as const }];
  const within = (limits: { maxUnits?: number; maxStringLength?: number }) => () => PO_FORMAT.writeWithinLimits!(file, { update }, CS_CONTEXT, limits);

  it('refuses a file over the limits exactly as parse does, and writes one within them', () => {
    expect(within({ maxUnits: 1 })).toThrow(expect.objectContaining({ kind: 'units', message: 'line 4: more than 1 units' }));
    expect(() => PO_FORMAT.parse(file, { limits: { maxUnits: 1 } })).toThrow('line 4: more than 1 units');
    expect(within({ maxStringLength: 7 })).toThrow(expect.objectContaining({ kind: 'string-length', message: 'line 6: string longer than 7 characters' }));
    expect(() => PO_FORMAT.parse(file, { limits: { maxStringLength: 7 } })).toThrow('line 6: string longer than 7 characters');
    expect(within({ maxUnits: 2, maxStringLength: 8 })().toString()).toContain('msgid "a"\nmsgstr "x"\n');
    expect(PO_FORMAT.writeWithinLimits!(file, { update: [] }, CS_CONTEXT, { maxUnits: 2 })).toBe(file);
  });

  it('still reports syntax errors in the entries it reads', () => {
    expect(() => PO_FORMAT.write(Buffer.from('msgid "a"\nmsgstr "1"\nbogus\n'), { update }, CS_CONTEXT)).toThrow('line 3: unexpected text "bogus"');
    expect(() => PO_FORMAT.write(Buffer.from('msgid "a"\n'), { update }, CS_CONTEXT)).toThrow('line 1: msgid without msgstr');
  });
});
