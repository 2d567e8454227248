import { describeFormatRows, type FormatRow } from '../support/format-rows';

// Issue 11: more monolingual rows of the format table (test/support/format-rows.ts): i18next v4 (CLDR
// plural suffixes), WebExtension messages.json, go-i18n JSON and RESX.

const i18nextV4Row: FormatRow = {
  format: 'i18nextv4',
  files: {
    'sources/en.json': '{\n  "hello": "Hello {{name}}",\n  "file_one": "{{count}} file",\n  "file_other": "{{count}} files"\n}\n',
    'translations/cs.json': '{\n  "hello": "Ahoj {{name}}"\n}\n',
  },
  filemask: 'translations/*.json',
  template: 'sources/en.json',
  units: [
    { context: 'hello', source: ['Hello {{name}}'], target: ['Ahoj {{name}}'], state: 20 },
    { context: 'file', source: ['{{count}} file', '{{count}} files'], target: ['', '', ''], state: 0 },
  ],
  translate: { context: 'file', target: ['{{count}} soubor', '{{count}} soubory', '{{count}} souborů'] },
  add: { key: 'bye', value: ['Bye'] },
  // v4 suffixes are the CLDR categories of the translation's plural (cs: one/few/other in Glossa's table).
  committed: {
    'translations/cs.json': '{\n  "hello": "Ahoj {{name}}",\n  "file_one": "{{count}} soubor",\n  "file_few": "{{count}} soubory",\n  "file_other": "{{count}} souborů"\n}\n',
    'sources/en.json': '{\n  "hello": "Hello {{name}}",\n  "file_one": "{{count}} file",\n  "file_other": "{{count}} files",\n  "bye": "Bye"\n}\n',
  },
  newLanguage: { filename: 'translations/fr.json', content: '{}\n' },
  upload: { content: '{"hello": "Ahoj!", "unknown": "x", "bye": "Nashle"}', result: { not_found: 0, skipped: 1, accepted: 1, total: 3 } },
};

const webextensionRow: FormatRow = {
  format: 'webextension',
  files: {
    'sources/en/messages.json': '{\n  "hello": {\n    "message": "Hello \\"you\\"",\n    "description": "Greeting"\n  },\n  "bye": {\n    "message": "Bye"\n  }\n}\n',
    'translations/cs/messages.json': '{\n  "hello": {\n    "message": "Ahoj \\"ty\\""\n  }\n}\n',
  },
  filemask: 'translations/*/messages.json',
  template: 'sources/en/messages.json',
  units: [
    { context: 'hello', source: ['Hello "you"'], target: ['Ahoj "ty"'], state: 20 },
    { context: 'bye', source: ['Bye'], target: [''], state: 0 },
  ],
  translate: { context: 'bye', target: ['Na shledanou'] },
  add: { key: 'menu', value: ['File'] },
  committed: {
    'translations/cs/messages.json': '{\n  "hello": {\n    "message": "Ahoj \\"ty\\""\n  },\n  "bye": {\n    "message": "Na shledanou"\n  }\n}\n',
    'sources/en/messages.json': '{\n  "hello": {\n    "message": "Hello \\"you\\"",\n    "description": "Greeting"\n  },\n  "bye": {\n    "message": "Bye"\n  },\n  "menu": {\n    "message": "File"\n  }\n}\n',
  },
  newLanguage: { filename: 'translations/fr/messages.json', content: '{}\n' },
  upload: { content: '{"hello": {"message": "Ahoj!"}, "unknown": {"message": "x"}, "menu": {"message": "Soubor"}}', result: { not_found: 0, skipped: 1, accepted: 1, total: 3 } },
};

const goI18nRow: FormatRow = {
  format: 'go-i18n-json',
  files: {
    'sources/en.json': '[\n  {\n    "id": "hello",\n    "translation": "Hello"\n  },\n  {\n    "id": "bye",\n    "translation": "Bye"\n  }\n]\n',
    'translations/cs.json': '[\n  {\n    "id": "hello",\n    "translation": "Ahoj"\n  }\n]\n',
  },
  filemask: 'translations/*.json',
  template: 'sources/en.json',
  units: [
    { context: 'hello', source: ['Hello'], target: ['Ahoj'], state: 20 },
    { context: 'bye', source: ['Bye'], target: [''], state: 0 },
  ],
  translate: { context: 'bye', target: ['Na "shledanou"'] },
  add: { key: 'menu', value: ['File'] },
  committed: {
    'translations/cs.json': '[\n  {\n    "id": "hello",\n    "translation": "Ahoj"\n  },\n  {\n    "id": "bye",\n    "translation": "Na \\"shledanou\\""\n  }\n]\n',
    'sources/en.json': '[\n  {\n    "id": "hello",\n    "translation": "Hello"\n  },\n  {\n    "id": "bye",\n    "translation": "Bye"\n  },\n  {\n    "id": "menu",\n    "translation": "File"\n  }\n]\n',
  },
  newLanguage: { filename: 'translations/fr.json', content: '[]\n' },
  upload: { content: '[{"id": "hello", "translation": "Ahoj!"}, {"id": "unknown", "translation": "x"}, {"id": "menu", "translation": "Soubor"}]', result: { not_found: 0, skipped: 1, accepted: 1, total: 3 } },
};

const resx = (entries: string) =>
  `<?xml version="1.0" encoding="utf-8"?>\n<root>\n  <resheader name="resmimetype">\n    <value>text/microsoft-resx</value>\n  </resheader>\n${entries}</root>\n`;
const resxData = (name: string, value: string, comment?: string) =>
  `  <data name="${name}" xml:space="preserve">\n    <value>${value}</value>\n${comment ? `    <comment>${comment}</comment>\n` : ''}  </data>\n`;

const resxRow: FormatRow = {
  format: 'resx',
  files: {
    'sources/App.resx': resx(resxData('Hello', 'Hello &lt;you&gt;', 'Greeting') + resxData('Bye', 'Bye')),
    'translations/App.cs.resx': resx(resxData('Hello', 'Ahoj &lt;ty&gt;')),
  },
  filemask: 'translations/App.*.resx',
  template: 'sources/App.resx',
  units: [
    { context: 'Hello', source: ['Hello <you>'], target: ['Ahoj <ty>'], state: 20 },
    { context: 'Bye', source: ['Bye'], target: [''], state: 0 },
  ],
  translate: { context: 'Bye', target: ['Na shledanou & ahoj'] },
  add: { key: 'Menu', value: ['File'] },
  committed: { 'translations/App.cs.resx': resx(resxData('Hello', 'Ahoj &lt;ty&gt;') + resxData('Bye', 'Na shledanou &amp; ahoj')), 'sources/App.resx': resx(resxData('Hello', 'Hello &lt;you&gt;', 'Greeting') + resxData('Bye', 'Bye') + resxData('Menu', 'File')) },
  validate: 'xmllint',
  // Without new_base: the standard empty RESX document (schema and resheaders).
  newLanguage: { filename: 'translations/App.fr.resx', content: /^<\?xml version="1.0" encoding="utf-8"\?>\n<root>\n {2}<xsd:schema id="root"[\s\S]*<resheader name="writer">[\s\S]*<\/root>\n$/ },
  upload: { content: resx(resxData('Hello', 'Ahoj!') + resxData('Unknown', 'x') + resxData('Menu', 'Soubor')), result: { not_found: 0, skipped: 1, accepted: 1, total: 3 } },
};

describeFormatRows([i18nextV4Row, webextensionRow, goI18nRow, resxRow]);
