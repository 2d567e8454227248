import { describeFormatRows, type FormatRow } from '../support/format-rows';

// Issue 11: more monolingual rows of the format table (test/support/format-rows.ts): i18next (v3 plural
// suffixes), ARB (description metadata), PHP (quoting and escapes), Fluent (placeables, selector) and
// ruby-yaml (language root key, plural categories).

const i18nextRow: FormatRow = {
  format: 'i18next',
  files: {
    'sources/en.json': '{\n  "hello": "Hello {{name}}",\n  "file": "{{count}} file",\n  "file_plural": "{{count}} files"\n}\n',
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
  // i18next v3 writes the language's plural suffixes (_0, _1, _2 for cs).
  committed: {
    'translations/cs.json': '{\n  "hello": "Ahoj {{name}}",\n  "file_0": "{{count}} soubor",\n  "file_1": "{{count}} soubory",\n  "file_2": "{{count}} souborů"\n}\n',
    'sources/en.json': '{\n  "hello": "Hello {{name}}",\n  "file": "{{count}} file",\n  "file_plural": "{{count}} files",\n  "bye": "Bye"\n}\n',
  },
  newLanguage: { filename: 'translations/fr.json', content: '{}\n' },
  upload: { content: '{"hello": "Ahoj!", "unknown": "x", "bye": "Nashle"}', result: { not_found: 0, skipped: 1, accepted: 1, total: 3 } },
};

const arbRow: FormatRow = {
  format: 'arb',
  files: {
    'sources/app_en.arb': '{\n  "@@locale": "en",\n  "hello": "Hello \\"you\\"",\n  "@hello": {\n    "description": "Greeting"\n  },\n  "bye": "Bye"\n}\n',
    'translations/app_cs.arb': '{\n  "@@locale": "cs",\n  "hello": "Ahoj \\"ty\\""\n}\n',
  },
  filemask: 'translations/app_*.arb',
  template: 'sources/app_en.arb',
  units: [
    { context: 'hello', source: ['Hello "you"'], target: ['Ahoj "ty"'], state: 20 },
    { context: 'bye', source: ['Bye'], target: [''], state: 0 },
  ],
  translate: { context: 'bye', target: ['Na shledanou\nzatím'] },
  add: { key: 'menu', value: ['File'] },
  committed: { 'translations/app_cs.arb': '{\n  "@@locale": "cs",\n  "hello": "Ahoj \\"ty\\"",\n  "bye": "Na shledanou\\nzatím"\n}\n', 'sources/app_en.arb': '{\n  "@@locale": "en",\n  "hello": "Hello \\"you\\"",\n  "@hello": {\n    "description": "Greeting"\n  },\n  "bye": "Bye",\n  "menu": "File"\n}\n' },
  newLanguage: { filename: 'translations/app_fr.arb', content: '{}\n' },
  upload: { content: '{"hello": "Ahoj!", "unknown": "x", "menu": "Soubor"}', result: { not_found: 0, skipped: 1, accepted: 1, total: 3 } },
};

const phpRow: FormatRow = {
  format: 'php',
  files: {
    'sources/en.php': "<?php\n// Greeting\n$LANG['hello'] = 'Hello \\'you\\'';\n$LANG['bye'] = \"Bye\\tnow\";\n",
    'translations/cs.php': "<?php\n$LANG['hello'] = 'Ahoj \\'ty\\'';\n",
  },
  filemask: 'translations/*.php',
  template: 'sources/en.php',
  units: [
    { context: "$LANG['hello']", source: ["Hello 'you'"], target: ["Ahoj 'ty'"], state: 20 },
    { context: "$LANG['bye']", source: ['Bye\tnow'], target: [''], state: 0 },
  ],
  translate: { context: "$LANG['bye']", target: ["Na 'shle'"] },
  add: { key: "$LANG['menu']", value: ['File'] },
  // The new entry copies the template's line with the translated value in the file's quoting.
  committed: { 'translations/cs.php': "<?php\n$LANG['hello'] = 'Ahoj \\'ty\\'';\n$LANG['bye'] = 'Na \\'shle\\'';\n", 'sources/en.php': "<?php\n// Greeting\n$LANG['hello'] = 'Hello \\'you\\'';\n$LANG['bye'] = \"Bye\\tnow\";\n$LANG['menu'] = 'File';\n" },
  newLanguage: { filename: 'translations/fr.php', content: '<?php\n' },
  // Text outside <?php is inline HTML to PHP, so the table's default bad file would parse (to nothing):
  // an unterminated string instead.
  badUpload: "<?php\n$LANG['x'] = 'oops;\n",
  upload: { content: "<?php\n$LANG['hello'] = 'Ahoj!';\n$LANG['unknown'] = 'x';\n$LANG['menu'] = 'Soubor';\n", result: { not_found: 0, skipped: 1, accepted: 1, total: 3 } },
};

const fluentRow: FormatRow = {
  format: 'fluent',
  files: {
    'sources/en.ftl': '# Greeting\nhello = Hello { $name }\nbye = Bye\n',
    'translations/cs.ftl': 'hello = Ahoj { $name }\n',
  },
  filemask: 'translations/*.ftl',
  template: 'sources/en.ftl',
  units: [
    { context: 'hello', source: ['Hello { $name }'], target: ['Ahoj { $name }'], state: 20 },
    { context: 'bye', source: ['Bye'], target: [''], state: 0 },
  ],
  translate: { context: 'bye', target: ['Na shledanou'] },
  add: { key: 'menu', value: ['File'] },
  committed: { 'translations/cs.ftl': 'hello = Ahoj { $name }\nbye = Na shledanou\n', 'sources/en.ftl': '# Greeting\nhello = Hello { $name }\nbye = Bye\nmenu = File\n' },
  newLanguage: { filename: 'translations/fr.ftl', content: '' },
  upload: { content: 'hello = Ahoj!\nunknown = x\nmenu = Soubor\n', result: { not_found: 0, skipped: 1, accepted: 1, total: 3 } },
};

const rubyYamlRow: FormatRow = {
  format: 'ruby-yaml',
  files: {
    'sources/en.yml': 'en:\n  hello: Hello\n  files:\n    one: "%{count} file"\n    other: "%{count} files"\n',
    'translations/cs.yml': 'cs:\n  hello: Ahoj\n',
  },
  filemask: 'translations/*.yml',
  template: 'sources/en.yml',
  units: [
    { context: 'hello', source: ['Hello'], target: ['Ahoj'], state: 20 },
    { context: 'files', source: ['%{count} file', '%{count} files'], target: ['', '', ''], state: 0 },
  ],
  translate: { context: 'files', target: ['%{count} soubor', '%{count} soubory', '%{count} souborů'] },
  add: { key: 'menu', value: ['File'] },
  committed: { 'translations/cs.yml': "cs:\n  hello: Ahoj\n  files:\n    one: '%{count} soubor'\n    few: '%{count} soubory'\n    other: '%{count} souborů'\n", 'sources/en.yml': 'en:\n  hello: Hello\n  files:\n    one: "%{count} file"\n    other: "%{count} files"\n  menu: File\n' },
  newLanguage: { filename: 'translations/fr.yml', content: '{}\n' },
  upload: { content: 'cs:\n  hello: Ahoj!\n  unknown: x\n  menu: Soubor\n', result: { not_found: 0, skipped: 1, accepted: 1, total: 3 } },
};

describeFormatRows([i18nextRow, arbRow, phpRow, fluentRow, rubyYamlRow]);
