import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { strFromU8, unzipSync } from 'fflate';
import type { ExportContext, ExportUnit } from '../store';
import { CSV_FORMATS } from './csv.format';
import { KV_EXPORTERS, KV_FORMATS } from './index';
import { STRINGS_FORMATS } from './strings.format';

const context: ExportContext = {
  languageCode: 'cs',
  languageName: 'Czech',
  sourceLanguageCode: 'en',
  plural: { number: 3, formula: '(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2' },
  projectName: 'Demo',
  componentName: 'App',
  translationUrl: 'http://localhost/projects/demo/app/cs/',
  generator: 'Glossa 0.1.0',
  monolingual: true,
};

function exportUnit(fields: Partial<ExportUnit>): ExportUnit {
  return { context: '', source: [''], target: [''], note: '', location: '', flags: '', state: 20, checksum: '0123456789abcdef', ...fields };
}

const units: ExportUnit[] = [
  exportUnit({ context: 'main.title', source: ['Hello "World"'], target: ['Ahoj "světe"'], note: 'Title', location: 'main.c:1, main.c:2' }),
  exportUnit({ context: 'formula', source: ['=SUM(A1)'], target: ['|x|'], state: 10 }),
  exportUnit({ context: 'files', source: ['%d file', '%d files'], target: ['%d soubor', '%d soubory', '%d souborů'], note: 'Plural */ note' }),
  exportUnit({ context: 'multi', source: ['Line\none'], target: [''], state: 0 }),
];

const exporter = (id: string) => KV_EXPORTERS.find((e) => e.id === id)!;

function hasTool(tool: string): boolean {
  return spawnSync(tool, ['--version'], { stdio: 'ignore' }).error === undefined;
}

describe('kv exporters', () => {
  it('registers the family', () => {
    expect(KV_FORMATS.map((f) => f.id)).toEqual(['properties', 'properties-utf8', 'properties-utf16', 'strings', 'strings-utf8', 'csv', 'csv-simple']);
    expect(KV_EXPORTERS.map((e) => [e.id, e.extension, e.contentType])).toEqual([
      ['csv', 'csv', 'text/csv'],
      ['xlsx', 'xlsx', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
      ['strings', 'strings', 'text/plain'],
    ]);
    expect(exporter('csv').accepts('po', false)).toBe(true);
    expect(exporter('strings').accepts('po', false)).toBe(false);
    expect(exporter('strings').accepts('json', true)).toBe(true);
  });

  it('csv: translate-toolkit columns, every field quoted, CRLF, Excel guard', () => {
    const out = exporter('csv').export(units, context).toString('utf8');
    expect(out).toBe(
      '"location","source","target","id","fuzzy","context","translator_comments","developer_comments"\r\n' +
        '"main.c:1, main.c:2","Hello ""World""","Ahoj ""světe""","","False","main.title","","Title"\r\n' +
        '"","\'=SUM(A1)\'","\'\\|x\\|\'","","True","formula","",""\r\n' +
        '"","\'%d file\'","\'%d soubor\'","","False","files","","Plural */ note"\r\n' +
        '"","Line\none","","","False","multi","",""\r\n',
    );
    // The csv format reads its own export back, undoing the guard.
    const parsed = CSV_FORMATS[0].parse(Buffer.from(out)).units;
    expect(parsed.map((u) => [u.context, u.source[0], u.target[0], u.fuzzy])).toEqual([
      ['main.title', 'Hello "World"', 'Ahoj "světe"', false],
      ['formula', '=SUM(A1)', '|x|', true],
      ['files', '%d file', '%d soubor', false],
      ['multi', 'Line\none', '', false],
    ]);
  });

  it('strings: monolingual entries with notes as comments, readable by the strings format', () => {
    const out = exporter('strings').export(units, context).toString('utf8');
    expect(out).toBe(
      '/* Title */\n"main.title" = "Ahoj \\"světe\\"";\n"formula" = "|x|";\n/* Plural * / note */\n"files" = "%d soubor";\n"multi" = "";\n',
    );
    expect(STRINGS_FORMATS[1].parse(Buffer.from(out)).units.map((u) => [u.context, u.target[0], u.note])).toEqual([
      ['main.title', 'Ahoj "světe"', '/* Title */'],
      ['formula', '|x|', ''],
      ['files', '%d soubor', '/* Plural * / note */'],
      ['multi', '', ''],
    ]);
  });

  it('xlsx: a deterministic workbook with the csv columns in shared strings', () => {
    const tricky = [...units, exportUnit({ context: 'ctl', source: ['a\u0001b & <c>'], target: ['😀'] })];
    const out = exporter('xlsx').export(tricky, context);
    expect(exporter('xlsx').export(tricky, context).equals(out)).toBe(true);
    const files = unzipSync(new Uint8Array(out));
    expect(Object.keys(files).sort()).toEqual([
      '[Content_Types].xml',
      '_rels/.rels',
      'xl/_rels/workbook.xml.rels',
      'xl/sharedStrings.xml',
      'xl/styles.xml',
      'xl/workbook.xml',
      'xl/worksheets/sheet1.xml',
    ]);
    expect(strFromU8(files['xl/workbook.xml'])).toContain('<sheet name="cs" sheetId="1" r:id="rId1"/>');
    const shared = strFromU8(files['xl/sharedStrings.xml']);
    const strings = [...shared.matchAll(/<t xml:space="preserve">([^<]*)<\/t>/g)].map((m) => m[1]);
    const sheet = strFromU8(files['xl/worksheets/sheet1.xml']);
    const cells = [...sheet.matchAll(/<c r="([A-Z]+\d+)" t="s"><v>(\d+)<\/v><\/c>/g)].map((m) => [m[1], strings[Number(m[2])]]);
    expect(cells.slice(0, 8).map((c) => c[1])).toEqual(['location', 'source', 'target', 'id', 'fuzzy', 'context', 'translator_comments', 'developer_comments']);
    expect(cells.filter((c) => c[0].endsWith('3'))).toEqual([
      ['B3', '=SUM(A1)'],
      ['C3', '|x|'],
      ['E3', 'True'],
      ['F3', 'formula'],
    ]);
    expect(cells.filter((c) => c[0].endsWith('6'))).toEqual([
      ['B6', 'ab &amp; &lt;c&gt;'],
      ['C6', '😀'],
      ['E6', 'False'],
      ['F6', 'ctl'],
    ]);
    if (!hasTool('xmllint')) {
      if (process.env.CI === 'true') throw new Error('xmllint is required in CI');
      return;
    }
    const dir = mkdtempSync(join(tmpdir(), 'kv-xlsx-'));
    try {
      for (const [name, data] of Object.entries(files)) {
        const path = join(dir, name.replace(/[/[\]]/g, '_'));
        writeFileSync(path, data);
        execFileSync('xmllint', ['--noout', path]);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
