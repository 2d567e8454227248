import { describeFormatRows, type FormatRow } from '../support/format-rows';

// Issue 11: bilingual rows of the format table (test/support/format-rows.ts) without a template: XLIFF 1.2
// (entities, a unit without target) and CSV (quoted fields with commas and doubled quotes).

const xliff = (language: string, units: string) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">\n  <file original="app" source-language="en" target-language="${language}" datatype="plaintext">\n    <body>\n${units}    </body>\n  </file>\n</xliff>\n`;
const transUnit = (id: string, source: string, target?: string) =>
  `      <trans-unit id="${id}">\n        <source>${source}</source>\n${target !== undefined ? `        <target state="translated">${target}</target>\n` : ''}      </trans-unit>\n`;

const xliffRow: FormatRow = {
  format: 'xliff',
  files: {
    'sources/app.xlf': xliff('en', transUnit('hello', 'Hello &amp; welcome') + transUnit('bye', 'Bye') + transUnit('later', 'Later')),
    'translations/cs.xlf': xliff('cs', transUnit('hello', 'Hello &amp; welcome', 'Ahoj &amp; vítej') + transUnit('bye', 'Bye') + transUnit('later', 'Later')),
  },
  filemask: 'translations/*.xlf',
  newBase: 'sources/app.xlf',
  // Contexts are `<file original>///<id>` and strings keep their XML markup escaped, as Weblate shows them.
  units: [
    { context: 'app///hello', source: ['Hello &amp; welcome'], target: ['Ahoj &amp; vítej'], state: 20 },
    { context: 'app///bye', source: ['Bye'], target: [''], state: 0 },
    { context: 'app///later', source: ['Later'], target: [''], state: 0 },
  ],
  translate: { context: 'app///bye', target: ['Na shledanou &amp; ahoj'] },
  add: { context: 'menu', source: ['Menu'], target: ['Nabídka'] },
  addTo: 'cs',
  // The edited target is written in place with Weblate's state="translated" (5.x, formats.md §3.2); the added
  // unit is appended after the last one, on one line as translate-toolkit appends it (no pretty-printing).
  committed: {
    'translations/cs.xlf': xliff(
      'cs',
      transUnit('hello', 'Hello &amp; welcome', 'Ahoj &amp; vítej') +
        '      <trans-unit id="bye">\n        <source>Bye</source>\n        <target state="translated">Na shledanou &amp; ahoj</target>\n      </trans-unit>\n' +
        transUnit('later', 'Later') +
        '      <trans-unit id="menu" xml:space="preserve"><source>Menu</source><target state="translated">Nabídka</target></trans-unit>\n',
    ),
  },
  validate: 'xmllint',
  newLanguage: { filename: 'translations/fr.xlf', content: xliff('fr', transUnit('hello', 'Hello &amp; welcome') + transUnit('bye', 'Bye') + transUnit('later', 'Later')) },
  upload: { content: xliff('cs', transUnit('hello', 'Hello &amp; welcome', 'Ahoj!') + transUnit('unknown', 'Unknown', 'x') + transUnit('later', 'Later', 'Později')), result: { not_found: 1, skipped: 1, accepted: 1, total: 3 } },
};

const csvRow: FormatRow = {
  format: 'csv',
  files: {
    'sources/app.csv': 'source,target\n"Hello, ""world""",\nBye,\nLater,\n',
    'translations/cs.csv': 'source,target\n"Hello, ""world""","Ahoj, ""světe"""\nBye,\nLater,\n',
  },
  filemask: 'translations/*.csv',
  newBase: 'sources/app.csv',
  units: [
    { context: '', source: ['Hello, "world"'], target: ['Ahoj, "světe"'], state: 20 },
    { context: '', source: ['Bye'], target: [''], state: 0 },
    { context: '', source: ['Later'], target: [''], state: 0 },
  ],
  translate: { context: '', source: 'Bye', target: ['Na "shle", zatím'] },
  add: { source: ['Menu'], target: ['Nabídka'] },
  addTo: 'cs',
  committed: { 'translations/cs.csv': 'source,target\n"Hello, ""world""","Ahoj, ""světe"""\nBye,"Na ""shle"", zatím"\nLater,\nMenu,Nabídka\n' },
  newLanguage: { filename: 'translations/fr.csv', content: 'source,target\n"Hello, ""world""",\nBye,\nLater,\n' },
  // Any text is CSV; an unterminated quoted field is not.
  badUpload: 'source,target\n"Hello,\n',
  upload: { content: 'source,target\n"Hello, ""world""",Ahoj!\nUnknown,x\nLater,Později\n', result: { not_found: 1, skipped: 1, accepted: 1, total: 3 } },
};

describeFormatRows([xliffRow, csvRow]);
