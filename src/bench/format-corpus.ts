// Large synthetic files for the benchmark's `formats` part (`npm run bench -- --only=formats`): one builder per
// registered format id, in the layout real projects use for that format, with one edit at about 80 % of the
// file. The builders came from the format specs' former timed tests (speed is measured here, never in tests).

import type { StoreChanges, StoreWriteContext, UnitWrite } from '../formats/store';
import { bigPo } from './po-synthetic';

export interface FormatCorpusCase {
  /** Weblate's `file_format` id, as registered in src/formats/format.registry.ts. */
  id: string;
  content: Buffer;
  /** Units the format must read from `content` (the bench fails on a different count). */
  units: number;
  /** Parse option: the translation's language (category-keyed plural formats need it). */
  language?: string;
  /** One changed unit; the bench checks that a re-parse of the written file shows `expected`. */
  changes: StoreChanges;
  context: StoreWriteContext;
  /** The edited unit's context and the target it must have after the write. */
  expected: { context: string; target: string[] };
}

const CZECH: StoreWriteContext = { languageCode: 'cs', plural: { number: 3, formula: '(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2' } };
const EDITED = 'Upravený text';

function translated(context: string, target: string[], source: string[] = []): UnitWrite {
  return { context, source, target, state: 'translated' };
}

/** Index of the edited entry: about 80 % into the file, where a writer that stops early has no advantage. */
const editIndex = (units: number): number => Math.floor(units * 0.8);

function monolingual(id: string, content: Buffer, units: number, context: string, extra: Partial<FormatCorpusCase> = {}): FormatCorpusCase {
  return { id, content, units, changes: { update: [translated(context, [EDITED])] }, context: CZECH, expected: { context, target: [EDITED] }, ...extra };
}

const utf8 = (parts: string[]): Buffer => Buffer.from(parts.join(''), 'utf8');

function po(units: number): FormatCorpusCase {
  // bigPo: every 10th entry is plural, every 7th wrapped without msgctxt; the others carry msgctxt `ctx<i % 100>`.
  let k = editIndex(units);
  while (k % 10 === 0 || k % 7 === 0) k += 1;
  const edit = translated(`ctx${k % 100}`, [EDITED], [`Source string ${k}`]);
  return { id: 'po', content: bigPo(units), units, changes: { update: [edit] }, context: CZECH, expected: { context: edit.context, target: [EDITED] } };
}

function jsonFlat(units: number): FormatCorpusCase {
  const parts = ['{\n'];
  for (let i = 0; i < units; i++) parts.push(`    "key${i}": "Value ${i} with some text, \\"quoted\\" and ümlauts"${i + 1 < units ? ',' : ''}\n`);
  parts.push('}\n');
  return monolingual('json', utf8(parts), units, `key${editIndex(units)}`);
}

/** Sections of 50 leaves, as json-nested and i18next files group keys by screen. */
function nestedJson(units: number, leaf: (i: number) => string): Buffer {
  const parts = ['{\n'];
  for (let i = 0; i < units; i++) {
    const section = Math.floor(i / 50);
    if (i % 50 === 0) parts.push(`    "section${section}": {\n`);
    const last = i % 50 === 49 || i + 1 === units;
    parts.push(`        ${leaf(i)}${last ? '' : ','}\n`);
    if (last) parts.push(`    }${i + 1 < units ? ',' : ''}\n`);
  }
  parts.push('}\n');
  return utf8(parts);
}

const nestedContext = (i: number): string => `section${Math.floor(i / 50)}.key${i % 50}`;

function jsonNested(units: number): FormatCorpusCase {
  const content = nestedJson(units, (i) => `"key${i % 50}": "Value ${i} with some text, \\"quoted\\" and ümlauts"`);
  return monolingual('json-nested', content, units, nestedContext(editIndex(units)));
}

function i18next(units: number): FormatCorpusCase {
  // Every 10th key is a v3 plural pair (`key` + `key_plural`), read as one plural unit.
  const content = nestedJson(units, (i) =>
    i % 10 === 0 ? `"key${i % 50}": "{{count}} item ${i}",\n        "key${i % 50}_plural": "{{count}} items ${i}"` : `"key${i % 50}": "Value {{name}} ${i}"`,
  );
  let k = editIndex(units);
  if (k % 10 === 0) k += 1;
  return monolingual('i18next', content, units, nestedContext(k));
}

function arb(units: number): FormatCorpusCase {
  const parts = ['{\n  "@@locale": "cs",\n'];
  for (let i = 0; i < units; i++) {
    parts.push(
      `  "key${i}": "{count, plural, one{{count} item ${i}} other{{count} items}}",\n` +
        `  "@key${i}": {\n    "description": "Item count ${i}",\n    "placeholders": {\n      "count": {"type": "int"}\n    }\n  }${i + 1 < units ? ',' : ''}\n`,
    );
  }
  parts.push('}\n');
  return monolingual('arb', utf8(parts), units, `key${editIndex(units)}`);
}

function xliff(units: number): FormatCorpusCase {
  const parts = ['<?xml version="1.0" encoding="UTF-8"?>\n<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">\n'];
  parts.push('  <file original="app" source-language="en" target-language="cs" datatype="plaintext">\n    <body>\n');
  for (let i = 0; i < units; i++) {
    parts.push(`      <trans-unit id="u${i}">\n        <source>Source ${i} &amp; more</source>\n        <target state="translated">Cíl ${i}</target>\n      </trans-unit>\n`);
  }
  parts.push('    </body>\n  </file>\n</xliff>\n');
  const k = editIndex(units);
  // XLIFF sources are markup: Weblate keeps the escaped text, so the key carries `&amp;`.
  const edit = translated(`app///u${k}`, [EDITED], [`Source ${k} &amp; more`]);
  return { id: 'xliff', content: utf8(parts), units, changes: { update: [edit] }, context: CZECH, expected: { context: edit.context, target: [EDITED] } };
}

function aresource(units: number): FormatCorpusCase {
  const parts = ['<?xml version="1.0" encoding="utf-8"?>\n<resources>\n'];
  for (let i = 0; i < units; i++) parts.push(`    <!-- Note ${i} -->\n    <string name="k${i}">Value \\'${i}\\' &amp; more</string>\n`);
  parts.push('</resources>\n');
  return monolingual('aresource', utf8(parts), units, `k${editIndex(units)}`);
}

function ts(units: number): FormatCorpusCase {
  const parts = ['<?xml version="1.0" encoding="utf-8"?>\n<!DOCTYPE TS>\n<TS version="2.1" language="cs">\n<context>\n    <name>Big</name>\n'];
  for (let i = 0; i < units; i++) {
    parts.push(`    <message>\n        <location filename="main.cpp" line="${i}"/>\n        <source>Source ${i}</source>\n        <translation>Cíl ${i}</translation>\n    </message>\n`);
  }
  parts.push('</context>\n</TS>\n');
  const k = editIndex(units);
  const edit = translated('Big', [EDITED], [`Source ${k}`]);
  return { id: 'ts', content: utf8(parts), units, changes: { update: [edit] }, context: CZECH, expected: { context: 'Big', target: [EDITED] } };
}

function resx(units: number): FormatCorpusCase {
  const parts = ['<?xml version="1.0" encoding="utf-8"?>\n<root>\n'];
  for (let i = 0; i < units; i++) parts.push(`  <data name="key${i}" xml:space="preserve">\n    <value>Hodnota ${i}</value>\n    <comment>Note ${i}</comment>\n  </data>\n`);
  parts.push('</root>\n');
  return monolingual('resx', utf8(parts), units, `key${editIndex(units)}`);
}

function stringsdict(units: number): FormatCorpusCase {
  // Each entry is two units: its format key and its plural variable `v`.
  const entries = Math.ceil(units / 2);
  const parts = ['<?xml version="1.0" encoding="UTF-8"?>\n<plist version="1.0">\n<dict>\n'];
  for (let i = 0; i < entries; i++) {
    parts.push(
      `\t<key>k${i}</key>\n\t<dict>\n\t\t<key>NSStringLocalizedFormatKey</key>\n\t\t<string>%#@v@</string>\n\t\t<key>v</key>\n\t\t<dict>\n` +
        `\t\t\t<key>NSStringFormatSpecTypeKey</key>\n\t\t\t<string>NSStringPluralRuleType</string>\n\t\t\t<key>one</key>\n\t\t\t<string>%d věc ${i}</string>\n` +
        `\t\t\t<key>other</key>\n\t\t\t<string>%d věcí</string>\n\t\t</dict>\n\t</dict>\n`,
    );
  }
  parts.push('</dict>\n</plist>\n');
  const context = `k${Math.floor(editIndex(entries))}:v`;
  const target = ['', '%d upravená věc', '', '%d upravených věcí'];
  return {
    id: 'stringsdict',
    content: utf8(parts),
    units: entries * 2,
    language: 'cs',
    changes: { update: [translated(context, target)] },
    context: { languageCode: 'cs', plural: { number: 4, formula: '' } },
    expected: { context, target },
  };
}

function properties(units: number): FormatCorpusCase {
  const lines: string[] = [];
  for (let i = 0; i < units; i++) lines.push(`# comment ${i}\n`, `key.${i} = Value number ${i} \\u00E9\n`);
  return monolingual('properties', Buffer.from(lines.join(''), 'latin1'), units, `key.${editIndex(units)}`);
}

function strings(units: number): FormatCorpusCase {
  let text = '';
  for (let i = 0; i < units; i++) text += `/* Comment ${i} */\n"key.${i}" = "Value \\"${i}\\"";\n\n`;
  const content = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
  return monolingual('strings', content, units, `key.${editIndex(units)}`);
}

function csv(units: number): FormatCorpusCase {
  const parts = ['location,source,target,context,developer_comments\r\n'];
  for (let i = 0; i < units; i++) parts.push(`"src/file${i}.c:1","Source text ${i}","Cílový text ""${i}""","ctx${i}","Note ${i}"\r\n`);
  const k = editIndex(units);
  const edit = translated(`ctx${k}`, [EDITED], [`Source text ${k}`]);
  return { id: 'csv', content: utf8(parts), units, changes: { update: [edit] }, context: CZECH, expected: { context: edit.context, target: [EDITED] } };
}

function yaml(units: number): FormatCorpusCase {
  const parts = ['en:\n'];
  for (let i = 0; i < units; i++) {
    if (i % 10 === 0) parts.push(`  # Group ${i / 10}\n  group${i / 10}:\n`);
    parts.push(`    key${i % 10}: "Value ${i} with some text"\n`);
  }
  const k = editIndex(units);
  return monolingual('yaml', utf8(parts), units, `en->group${Math.floor(k / 10)}->key${k % 10}`);
}

function php(units: number): FormatCorpusCase {
  const parts = ['<?php\n'];
  for (let i = 0; i < units; i++) parts.push(`// Note ${i}\n$LANG['key${i}'] = 'Value number ${i} with some text';\n`);
  return monolingual('php', utf8(parts), units, `$LANG['key${editIndex(units)}']`);
}

function laravel(units: number): FormatCorpusCase {
  const parts = ['<?php\nreturn [\n'];
  for (let i = 0; i < units; i++) parts.push(`    'key${i}' => 'Value number ${i} with some text',\n`);
  parts.push('];\n');
  return monolingual('laravel', utf8(parts), units, `return[]->'key${editIndex(units)}'`);
}

function fluent(units: number): FormatCorpusCase {
  const parts: string[] = [];
  for (let i = 0; i < units; i++) parts.push(`# Note ${i}\nkey${i} = Value number { $n } ${i}\n`);
  return monolingual('fluent', utf8(parts), units, `key${editIndex(units)}`);
}

/** Builders by format id (the id each builder's case carries). */
const BUILDERS: ReadonlyMap<string, (units: number) => FormatCorpusCase> = new Map([
  ['po', po],
  ['json', jsonFlat],
  ['json-nested', jsonNested],
  ['arb', arb],
  ['i18next', i18next],
  ['xliff', xliff],
  ['aresource', aresource],
  ['ts', ts],
  ['resx', resx],
  ['stringsdict', stringsdict],
  ['properties', properties],
  ['strings', strings],
  ['csv', csv],
  ['yaml', yaml],
  ['php', php],
  ['laravel', laravel],
  ['fluent', fluent],
]);

export const CORPUS_FORMAT_IDS: readonly string[] = [...BUILDERS.keys()];

/**
 * One case of about `units` units (stringsdict rounds up to an even count) per format with a builder, or only
 * for the ids in `only` when it is not empty. Built one at a time, so only one large file is held at once.
 */
export function* formatCorpus(units: number, only: readonly string[]): Generator<FormatCorpusCase> {
  for (const id of only) if (!BUILDERS.has(id)) throw new Error(`No synthetic file for format "${id}"; known: ${CORPUS_FORMAT_IDS.join(', ')}`);
  for (const [id, build] of BUILDERS) if (only.length === 0 || only.includes(id)) yield build(units);
}
