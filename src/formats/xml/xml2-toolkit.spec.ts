import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { StoreWriteContext } from '../store';
import { RESX_FORMAT } from './resx-format';
import { STRINGSDICT_FORMAT } from './stringsdict-format';
import { TS_FORMAT } from './ts-format';
import { readWithTranslateToolkit } from './xml2-validators.testing';

// translate-toolkit (what Weblate reads these files with) as a second reader: of the fixtures, and of what
// Glossa's writers produce. Skipped when Debian's translate-toolkit is not installed.

const fixture = (path: string): Buffer => readFileSync(join(process.cwd(), 'src/formats/xml/fixtures', path));
const czech: StoreWriteContext = { languageCode: 'cs', plural: { number: 3, formula: '(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2' } };
const available = readWithTranslateToolkit('resx', '<root/>') !== undefined;
const maybe = available ? it : it.skip;

describe('translate-toolkit cross-check', () => {
  maybe('reads the TS fixture and a written TS file as Glossa does (context, id, notes, fuzzy)', () => {
    const content = fixture('ts/app.cs.ts.xml');
    const written = TS_FORMAT.write(
      content,
      {
        update: [
          { context: 'MainWindow', source: ['Quit'], target: ['Ukončit "hned"'], state: 'translated' },
          { context: 'MainWindow\nmenu item', source: ['Open file'], target: ['Otevřít'], state: 'fuzzy' },
          { context: 'MainWindow', source: ['%n file', '%n files'], target: ['a', 'b', 'c'], state: 'translated' },
        ],
        add: [{ context: 'New\nctx', source: ['Added'], target: ['Přidáno'], state: 'translated', note: 'A note' }],
      },
      czech,
    );
    for (const file of [content, written]) {
      const ours = TS_FORMAT.parse(file).units;
      const theirs = (readWithTranslateToolkit('ts', file) ?? []).filter((unit) => !unit.obsolete);
      expect(theirs.map((unit) => [unit.context, unit.id, unit.notes, unit.fuzzy])).toEqual(
        ours.map((unit) => [unit.context, (unit as { monolingualContext?: string }).monolingualContext, unit.note, unit.fuzzy]),
      );
    }
    const theirs = readWithTranslateToolkit('ts', written) ?? [];
    expect(theirs.find((unit) => unit.source[0] === 'Quit')?.target).toEqual(['Ukončit "hned"']);
    expect(theirs.find((unit) => unit.source[0] === '%n file(s)')?.target).toEqual(['a', 'b', 'c']);
    expect(theirs.find((unit) => unit.source[0] === 'Added')).toMatchObject({ context: 'New\nctx', target: ['Přidáno'], notes: 'A note' });
  });

  maybe('reads RESX fixtures and a written RESX file as Glossa does', () => {
    const content = fixture('resx/Strings.cs.resx');
    const written = RESX_FORMAT.write(
      content,
      {
        update: [{ context: 'Hello', source: [], target: ['Ahoj <b>&</b>'], state: 'translated' }],
        add: [{ context: 'New', source: [], target: ['Nové\nřádky'], state: 'translated', note: 'n' }],
        remove: [{ context: 'Bye', source: [] }],
      },
      czech,
    );
    for (const file of [content, written, RESX_FORMAT.create(content, czech) as Buffer]) {
      const theirs = readWithTranslateToolkit('resx', file) ?? [];
      expect(theirs.map((unit) => [unit.id, unit.target, unit.notes])).toEqual(
        RESX_FORMAT.parse(file).units.map((unit) => [unit.context, unit.target, unit.note]),
      );
    }
  });

  maybe('reads stringsdict files (with the leading zero form) as Glossa does', () => {
    const content = fixture('stringsdict/cs.stringsdict');
    const written = STRINGSDICT_FORMAT.write(
      content,
      {
        update: [{ context: 'files_count:files', source: [], target: ['nic', 'jeden', 'pár', 'moc'], state: 'translated' }],
        add: [{ context: 'new:v', source: [], target: ['', 'x', '', 'y'], state: 'translated' }],
      },
      { ...czech, plural: { number: 4, formula: '' } },
    );
    for (const file of [content, written]) {
      const theirs = readWithTranslateToolkit('stringsdict', file, 'cs') ?? [];
      expect(theirs.map((unit) => [unit.id, unit.target])).toEqual(
        STRINGSDICT_FORMAT.parse(file, { language: 'cs' }).units.map((unit) => [unit.context, unit.target]),
      );
    }
  });
});
