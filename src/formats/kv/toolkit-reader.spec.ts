// translate-toolkit (the library Weblate reads these files with) as a second reader: our parse of the
// fixtures and of files we wrote must match what it reports. Skipped when translate-toolkit is absent
// (FORMATS-BRIEF: even in CI).

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { StoreWriteContext } from '../store';
import { CSV_FORMATS } from './csv.format';
import { PROPERTIES_FORMATS } from './properties.format';
import { STRINGS_FORMATS } from './strings.format';

const SCRIPT = `
import json, sys
from translate.storage import properties, csvl10n
kind, path = sys.argv[1], sys.argv[2]
data = open(path, 'rb').read()
if kind == 'csv':
    store = csvl10n.csvfile()
    store.parse(data)
    print(json.dumps([[u.getcontext(), u.source, u.target, u.getnotes(), u.isfuzzy()] for u in store.units]))
else:
    store = properties.javafile() if kind == 'properties' else properties.stringsfile()
    store.parse(data)
    print(json.dumps([[u.name, u.source, u.getnotes()] for u in store.units if not u.isblank()]))
`;

function findPython(): string | null {
  for (const python of ['python3', '/usr/bin/python3']) {
    const probe = spawnSync(python, ['-c', 'import translate.storage.properties'], { stdio: 'ignore' });
    if (probe.status === 0) return python;
  }
  return null;
}

const python = findPython();
const fixture = (name: string): Buffer => readFileSync(join(process.cwd(), 'src/formats/kv/fixtures', name));
const ctx: StoreWriteContext = { languageCode: 'cs', plural: { number: 2, formula: '(n != 1)' } };

function toolkitRead(kind: string, content: Buffer): unknown {
  const dir = mkdtempSync(join(tmpdir(), 'kv-ttk-'));
  try {
    const path = join(dir, 'file');
    writeFileSync(path, content);
    const result = spawnSync(python!, ['-c', SCRIPT, kind, path], { encoding: 'utf8' });
    if (result.status !== 0) throw new Error(result.stderr);
    return JSON.parse(result.stdout);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

(python ? describe : describe.skip)('translate-toolkit agrees with the kv readers', () => {
  it('properties: fixture and an edited file', () => {
    const iso = PROPERTIES_FORMATS[0];
    const edited = iso.write(
      fixture('messages.properties'),
      {
        update: [{ context: 'multi', source: [], target: [' první ☃ 😀\nx = y'], state: 'translated' }],
        add: [{ context: 'added', source: [], target: ['\\ back'], state: 'translated', note: 'About it' }],
      },
      ctx,
    );
    for (const content of [fixture('messages.properties'), edited]) {
      const ours = iso.parse(content).units.map((u) => [u.context, u.target[0], u.note]);
      expect(toolkitRead('properties', content)).toEqual(ours);
    }
  });

  it('strings: UTF-16 fixture and an edited file', () => {
    const strings = STRINGS_FORMATS[0];
    const content = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(fixture('Localizable.strings').toString('utf8'), 'utf16le')]);
    const edited = strings.write(
      content,
      {
        update: [{ context: 'Cancel', source: [], target: ['Zrušit "x"\n\\ \t'], state: 'translated' }],
        add: [{ context: 'new', source: [], target: ['Nové'], state: 'translated', note: 'Note' }],
      },
      ctx,
    );
    for (const file of [content, edited]) {
      const ours = strings.parse(file).units.map((u) => [u.context, u.target[0], u.note]);
      expect(toolkitRead('strings', file)).toEqual(ours);
    }
  });

  it('csv: bilingual fixture and an edited file', () => {
    const csv = CSV_FORMATS[0];
    const edited = csv.write(
      fixture('bilingual.csv'),
      {
        update: [{ context: 'menu', source: ['Open'], target: ['Otevřít, "hned"\nteď'], state: 'translated' }],
        add: [{ context: 'new', source: ['New'], target: ['Nový'], state: 'fuzzy', note: 'N' }],
      },
      ctx,
    );
    for (const file of [fixture('bilingual.csv'), edited]) {
      // Weblate undoes the Excel guard on top of translate-toolkit; compare rows without guarded values.
      const ours = csv
        .parse(file)
        .units.filter((u) => !u.source[0].startsWith('='))
        .map((u) => [u.context, u.source[0], u.target[0], u.note, u.fuzzy]);
      const theirs = (toolkitRead('csv', file) as string[][]).filter((row) => !row[1].startsWith("'="));
      expect(theirs).toEqual(ours);
    }
  });
});
