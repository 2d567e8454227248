import { describeFormatRows, type FormatRow } from '../support/format-rows';

// Issue 11: rows of the format table (test/support/format-rows.ts) for the Weblate 5.x ids built on existing
// families: `plainxliff` (XLIFF 1.2 read as plain text) and `go-i18n-json-v2` (object keyed by message id).

const xliff = (language: string, units: string) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">\n  <file original="app" source-language="en" target-language="${language}" datatype="plaintext">\n    <body>\n${units}    </body>\n  </file>\n</xliff>\n`;
const transUnit = (id: string, source: string, target?: string, state = 'translated') =>
  `      <trans-unit id="${id}">\n        <source>${source}</source>\n${target !== undefined ? `        <target state="${state}">${target}</target>\n` : ''}      </trans-unit>\n`;
const XLIFF_SOURCE = transUnit('hello', 'Hello &amp; <g id="1">welcome</g>') + transUnit('bye', 'Bye') + transUnit('later', 'Later');

const plainxliffRow: FormatRow = {
  format: 'plainxliff',
  files: {
    'sources/app.xlf': xliff('en', XLIFF_SOURCE),
    'translations/cs.xlf': xliff('cs', transUnit('hello', 'Hello &amp; <g id="1">welcome</g>', 'Ahoj &amp; <g id="1">vítej</g>') + transUnit('bye', 'Bye', 'Nashle', 'needs-translation') + transUnit('later', 'Later')),
  },
  filemask: 'translations/*.xlf',
  newBase: 'sources/app.xlf',
  // Plain text: entities decoded and inline markup reduced to its text (formats.md §3.2); states as xliff.
  units: [
    { context: 'app///hello', source: ['Hello & welcome'], target: ['Ahoj & vítej'], state: 20 },
    { context: 'app///bye', source: ['Bye'], target: ['Nashle'], state: 10 },
    { context: 'app///later', source: ['Later'], target: [''], state: 0 },
  ],
  translate: { context: 'app///bye', target: ['<b>Na</b> shledanou & ahoj'] },
  add: { context: 'menu', source: ['Menu & more'], target: ['Nabídka'] },
  addTo: 'cs',
  // Text is written escaped, never as markup; the edited target becomes state="translated".
  committed: {
    'translations/cs.xlf': xliff(
      'cs',
      transUnit('hello', 'Hello &amp; <g id="1">welcome</g>', 'Ahoj &amp; <g id="1">vítej</g>') +
        transUnit('bye', 'Bye', '&lt;b&gt;Na&lt;/b&gt; shledanou &amp; ahoj') +
        transUnit('later', 'Later') +
        '      <trans-unit id="menu" xml:space="preserve"><source>Menu &amp; more</source><target state="translated">Nabídka</target></trans-unit>\n',
    ),
  },
  validate: 'xmllint',
  newLanguage: { filename: 'translations/fr.xlf', content: xliff('fr', XLIFF_SOURCE) },
  upload: { content: xliff('cs', transUnit('hello', 'Hello &amp; <g id="1">welcome</g>', 'Ahoj!') + transUnit('unknown', 'Unknown', 'x') + transUnit('later', 'Later', 'Později')), result: { not_found: 1, skipped: 1, accepted: 1, total: 3 } },
};

const goI18nV2Row: FormatRow = {
  format: 'go-i18n-json-v2',
  files: {
    'sources/en.json': '{\n  "hello": "Hello {{.Name}}",\n  "cats": {\n    "description": "Cat count",\n    "one": "{{.Count}} cat",\n    "other": "{{.Count}} cats"\n  },\n  "bye": "Bye"\n}\n',
    'translations/cs.json': '{\n  "hello": "Ahoj {{.Name}}"\n}\n',
  },
  filemask: 'translations/*.json',
  template: 'sources/en.json',
  units: [
    { context: 'hello', source: ['Hello {{.Name}}'], target: ['Ahoj {{.Name}}'], state: 20 },
    { context: 'cats', source: ['{{.Count}} cat', '{{.Count}} cats'], target: ['', '', ''], state: 0 },
    { context: 'bye', source: ['Bye'], target: [''], state: 0 },
  ],
  translate: { context: 'cats', target: ['{{.Count}} kočka', '{{.Count}} kočky', '{{.Count}} koček'] },
  add: { key: 'menu', value: ['File'] },
  // The plural is a copy of the template's message (description kept) with Czech's categories.
  committed: {
    'translations/cs.json': '{\n  "hello": "Ahoj {{.Name}}",\n  "cats": {\n    "description": "Cat count",\n    "one": "{{.Count}} kočka",\n    "few": "{{.Count}} kočky",\n    "other": "{{.Count}} koček"\n  }\n}\n',
    'sources/en.json': '{\n  "hello": "Hello {{.Name}}",\n  "cats": {\n    "description": "Cat count",\n    "one": "{{.Count}} cat",\n    "other": "{{.Count}} cats"\n  },\n  "bye": "Bye",\n  "menu": "File"\n}\n',
  },
  newLanguage: { filename: 'translations/fr.json', content: '{}\n' },
  upload: { content: '{"hello": "Ahoj!", "unknown": "x", "bye": {"other": "Nashle"}}', result: { not_found: 0, skipped: 1, accepted: 1, total: 4 } },
};

describeFormatRows([plainxliffRow, goI18nV2Row]);
