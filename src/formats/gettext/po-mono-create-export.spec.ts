import { spawnSync } from 'child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import type { ExportContext, ExportUnit, StoreUnit } from '../store';
import { CS_CONTEXT, expectMsgfmtAccepts, fixture, msgunfmt } from './gettext-test-helpers';
import { GETTEXT_EXPORTERS, GETTEXT_FORMATS } from './index';
import { MO_EXPORTER } from './mo-exporter';
import { PO_EXPORTER } from './po-exporter';
import { PO_FORMAT, PO_MONO_FORMAT } from './po.format';

const monoUnit = (fields: Partial<StoreUnit>): StoreUnit => ({
  context: '',
  source: [],
  target: [''],
  plural: false,
  note: '',
  location: '',
  flags: '',
  previousSource: '',
  fuzzy: false,
  approved: false,
  readOnly: false,
  position: 1,
  line: 1,
  ...fields,
});

describe('po-mono', () => {
  it('keys units by msgid, msgctxt.msgid with msgctxt appended to the note (formats.md §3.1)', () => {
    const parsed = PO_MONO_FORMAT.parse(fixture('mono-en.po'));
    expect(parsed.units).toEqual([
      monoUnit({ context: 'hello', target: ['Hello'], note: 'Greeting on the start page', location: 'app.c:1', position: 1, line: 9 }),
      monoUnit({ context: 'menu.open', target: ['Open'], note: 'Menu entry\nmenu', position: 2, line: 14 }),
      monoUnit({ context: 'files', target: ['%d file', '%d files'], plural: true, flags: 'c-format', position: 3, line: 19 }),
    ]);
    expect(parsed.plural).toEqual({ number: 2, formula: '(n != 1)' });
  });

  it('reports two entries with the same key as duplicates', () => {
    const po = Buffer.from('msgctxt "a"\nmsgid "b"\nmsgstr "1"\n\nmsgid "a.b"\nmsgstr "2"\n');
    expect(() => PO_MONO_FORMAT.parse(po)).toThrow('line 5: duplicate of the entry on line 1');
  });

  it('adds missing keys as copies of the template entry without its notes, or as msgid "<key>"', () => {
    const out = PO_MONO_FORMAT.write(
      fixture('mono-cs.po'),
      {
        update: [
          { context: 'menu.open', source: [], target: ['Otevřít'], state: 'translated' },
          { context: 'files', source: [], target: ['%d soubor', '%d soubory', '%d souborů'], state: 'fuzzy' },
          { context: 'new.key', source: [], target: ['Nový'], state: 'translated' },
        ],
      },
      { ...CS_CONTEXT, template: fixture('mono-en.po') },
    );
    expect(out.toString()).toBe(
      'msgid ""\nmsgstr ""\n"PO-Revision-Date: 2024-05-05 12:00+0000\\n"\n"Last-Translator: Weblate Admin <admin@example.com>\\n"\n' +
        '"Language: cs\\n"\n"MIME-Version: 1.0\\n"\n"Content-Type: text/plain; charset=UTF-8\\n"\n"Content-Transfer-Encoding: 8bit\\n"\n' +
        '"Plural-Forms: nplurals=3; plural=(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2;\\n"\n"X-Generator: Glossa 0.1.0\\n"\n\n' +
        '#: app.c:1\nmsgid "hello"\nmsgstr "Ahoj"\n\n' +
        'msgctxt "menu"\nmsgid "open"\nmsgstr "Otevřít"\n\n' +
        '#, c-format, fuzzy\nmsgid "files"\nmsgid_plural "files_plural"\nmsgstr[0] "%d soubor"\nmsgstr[1] "%d soubory"\nmsgstr[2] "%d souborů"\n\n' +
        'msgid "new.key"\nmsgstr "Nový"\n',
    );
    expectMsgfmtAccepts(out);
  });

  it('updates and removes by key', () => {
    const out = PO_MONO_FORMAT.write(
      fixture('mono-cs.po'),
      { update: [], remove: [{ context: 'hello', source: [] }] },
      { ...CS_CONTEXT, revisionDate: undefined, lastTranslator: undefined, generator: undefined },
    );
    expect(out.toString()).toBe(fixture('mono-cs.po').toString().replace('\n\n#: app.c:1\nmsgid "hello"\nmsgstr "Ahoj"\n', '\n'));
  });

  it('creates the fixed header-only file without a base', () => {
    expect(PO_MONO_FORMAT.create(null, CS_CONTEXT)?.toString()).toBe(
      'msgid ""\nmsgstr ""\n"X-Generator: Weblate\\n"\n"MIME-Version: 1.0\\n"\n"Content-Type: text/plain; charset=UTF-8\\n"\n"Content-Transfer-Encoding: 8bit\\n"\n',
    );
    expect(PO_MONO_FORMAT.create(fixture('mono-en.po'), CS_CONTEXT)?.toString()).toContain('msgid "hello"\nmsgstr ""\n');
  });
});

describe('po create', () => {
  it('cannot start a bilingual file without new_base', () => {
    expect(PO_FORMAT.create(null, CS_CONTEXT)).toBeNull();
  });

  it('untranslates a POT: empty targets with the language plural count, header fields for the language', () => {
    const created = PO_FORMAT.create(fixture('messages.pot'), {
      ...CS_CONTEXT,
      languageTeam: 'Czech <https://example.com/projects/demo/app/cs/>',
      reportMsgidBugsTo: 'bugs@example.com',
    }) as Buffer;
    expect(created.toString()).toBe(
      fixture('messages.pot')
        .toString()
        .replace('#\n#, fuzzy\nmsgid ""', '#\nmsgid ""')
        .replace('"Report-Msgid-Bugs-To: \\n"', '"Report-Msgid-Bugs-To: bugs@example.com\\n"')
        .replace('"Last-Translator: FULL NAME <EMAIL@ADDRESS>\\n"', '"Last-Translator: Automatically generated\\n"')
        .replace('"Language-Team: LANGUAGE <LL@li.org>\\n"', '"Language-Team: Czech <https://example.com/projects/demo/app/cs/>\\n"')
        .replace('"Language: \\n"', '"Language: cs\\n"')
        .replace('nplurals=INTEGER; plural=EXPRESSION;', 'nplurals=3; plural=(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2;')
        .replace('msgstr[1] ""\n', 'msgstr[1] ""\nmsgstr[2] ""\n'),
    );
    expectMsgfmtAccepts(created);
    const parsed = PO_FORMAT.parse(created);
    expect(parsed.language).toBe('cs');
    expect(parsed.units.map((unit) => unit.target)).toEqual([[''], ['', '', '']]);
  });

  it('writes Language-Team: none without a team', () => {
    expect(PO_FORMAT.create(fixture('messages.pot'), CS_CONTEXT)?.toString()).toContain('"Language-Team: none\\n"');
  });
});

const EXPORT_CONTEXT: ExportContext = {
  languageCode: 'cs',
  languageName: 'Czech',
  sourceLanguageCode: 'en',
  plural: CS_CONTEXT.plural,
  projectName: 'Demo',
  componentName: 'App',
  translationUrl: 'https://example.com/projects/demo/app/cs/',
  generator: 'Glossa 0.1.0',
  monolingual: false,
};

const EXPORT_UNITS: ExportUnit[] = [
  { context: '', source: ['Hello'], target: ['Ahoj'], note: 'Dev note\nline 2', location: 'a.c:1, b.c:2', flags: 'c-format', state: 20, checksum: 'a1' },
  { context: 'ctx', source: ['%d file', '%d files'], target: ['a', 'b'], note: '', location: '', flags: '', state: 10, checksum: 'b2' },
  { context: 'menu', source: ['%d item', '%d items'], target: ['%d položka', '%d položky', '%d položek'], note: '', location: '', flags: '', state: 30, checksum: 'c3' },
  { context: '', source: ['Untranslated'], target: [''], note: '', location: '', flags: '', state: 0, checksum: 'd4' },
];

const EXPORTED_HEADER =
  'msgid ""\nmsgstr ""\n"Project-Id-Version: Czech (Demo)\\n"\n"Report-Msgid-Bugs-To: \\n"\n' +
  '"Last-Translator: Automatically generated\\n"\n"Language-Team: Czech <https://example.com/projects/demo/app/cs/>\\n"\n' +
  '"Language: cs\\n"\n"MIME-Version: 1.0\\n"\n"Content-Type: text/plain; charset=UTF-8\\n"\n"Content-Transfer-Encoding: 8bit\\n"\n' +
  '"Plural-Forms: nplurals=3; plural=(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2;\\n"\n"X-Generator: Glossa 0.1.0\\n"\n';

describe('exporters', () => {
  it('are registered under Weblate ids', () => {
    expect(GETTEXT_FORMATS.map((format) => format.id)).toEqual(['po', 'po-mono']);
    expect(GETTEXT_EXPORTERS.map((exporter) => [exporter.id, exporter.extension, exporter.contentType])).toEqual([
      ['po', 'po', 'text/x-po'],
      ['mo', 'mo', 'application/x-gettext-catalog'],
    ]);
    expect(MO_EXPORTER.accepts('po', false)).toBe(true);
    expect(MO_EXPORTER.accepts('json', true)).toBe(false);
  });

  it('po: Weblate header, notes as #., one #: per location, sorted flags with fuzzy, plurals padded', () => {
    const out = PO_EXPORTER.export(EXPORT_UNITS, EXPORT_CONTEXT);
    expect(out.toString()).toBe(
      EXPORTED_HEADER +
        '\n#. Dev note\n#. line 2\n#: a.c:1\n#: b.c:2\n#, c-format\nmsgid "Hello"\nmsgstr "Ahoj"\n' +
        '\n#, fuzzy\nmsgctxt "ctx"\nmsgid "%d file"\nmsgid_plural "%d files"\nmsgstr[0] "a"\nmsgstr[1] "b"\nmsgstr[2] ""\n' +
        '\nmsgctxt "menu"\nmsgid "%d item"\nmsgid_plural "%d items"\nmsgstr[0] "%d položka"\nmsgstr[1] "%d položky"\nmsgstr[2] "%d položek"\n' +
        '\nmsgid "Untranslated"\nmsgstr ""\n',
    );
    expectMsgfmtAccepts(out);
    expect(PO_FORMAT.parse(out).units.map((unit) => [unit.context, unit.source, unit.fuzzy])).toEqual([
      ['', ['Hello'], false],
      ['ctx', ['%d file', '%d files'], true],
      ['menu', ['%d item', '%d items'], false],
      ['', ['Untranslated'], false],
    ]);
  });

  it('mo: translated units only, byte-identical to msgfmt compiling the po export', () => {
    const mo = MO_EXPORTER.export(EXPORT_UNITS, EXPORT_CONTEXT);
    const text = msgunfmt(mo);
    if (text === null) return;
    expect(text).toContain('msgctxt "menu"\nmsgid "%d item"\nmsgid_plural "%d items"\nmsgstr[0] "%d položka"');
    expect(text).toContain('msgid "Hello"\nmsgstr "Ahoj"');
    expect(text).not.toContain('%d files');
    expect(text).not.toContain('Untranslated');
    const dir = mkdtempSync(join(tmpdir(), 'glossa-mo-'));
    try {
      const translated = EXPORT_UNITS.filter((unit) => unit.state >= 20);
      writeFileSync(join(dir, 'in.po'), PO_EXPORTER.export(translated, EXPORT_CONTEXT));
      expect(spawnSync('msgfmt', ['-o', join(dir, 'out.mo'), join(dir, 'in.po')]).status).toBe(0);
      expect(mo.equals(readFileSync(join(dir, 'out.mo')))).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('mo: monolingual components use the context as msgid', () => {
    const mo = MO_EXPORTER.export(
      [{ context: 'app.title', source: ['Title'], target: ['Název'], note: '', location: '', flags: '', state: 20, checksum: 'e5' }],
      { ...EXPORT_CONTEXT, monolingual: true },
    );
    const text = msgunfmt(mo);
    if (text !== null) expect(text).toContain('msgid "app.title"\nmsgstr "Název"');
  });
});
