import { describeFormatRows, type FormatRow } from '../support/format-rows';

// Issue 11: the key/value rows of the format table (test/support/format-rows.ts) that had none: Apple strings
// and Java properties in UTF-16 (BOM and byte order kept), simple CSV (no header) and Laravel PHP arrays.

/** UTF-16 little-endian with a BOM, as Xcode and Weblate's `strings` write it (formats.md §3.4). */
const utf16 = (text: string) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);

const stringsRow: FormatRow = {
  format: 'strings',
  files: {
    'sources/Localizable.strings': utf16('/* Greeting */\n"hello" = "Hello \\"world\\"";\n"bye" = "Bye";\n'),
    'translations/cs/Localizable.strings': utf16('"hello" = "Ahoj \\"světe\\"";\n'),
  },
  filemask: 'translations/*/Localizable.strings',
  template: 'sources/Localizable.strings',
  units: [
    { context: 'hello', source: ['Hello "world"'], target: ['Ahoj "světe"'], state: 20 },
    { context: 'bye', source: ['Bye'], target: [''], state: 0 },
  ],
  translate: { context: 'bye', target: ['Na "shle" 👋'] },
  add: { key: 'menu.file', value: ['File'] },
  committed: {
    'translations/cs/Localizable.strings': utf16('"hello" = "Ahoj \\"světe\\"";\n"bye" = "Na \\"shle\\" 👋";\n'),
    'sources/Localizable.strings': utf16('/* Greeting */\n"hello" = "Hello \\"world\\"";\n"bye" = "Bye";\n"menu.file" = "File";\n'),
  },
  newLanguage: { filename: 'translations/fr/Localizable.strings', content: utf16('\n') },
  upload: { content: utf16('"hello" = "Ahoj!";\n"unknown" = "x";\n"menu.file" = "Soubor";\n'), result: { not_found: 0, skipped: 1, accepted: 1, total: 3 } },
};

const propertiesUtf16Row: FormatRow = {
  format: 'properties-utf16',
  files: {
    'sources/messages.properties': utf16('# Greeting\nhello=Hello\ncafe=Café\n'),
    'translations/messages_cs.properties': utf16('hello=Ahoj světe\n'),
  },
  filemask: 'translations/messages_*.properties',
  template: 'sources/messages.properties',
  units: [
    { context: 'hello', source: ['Hello'], target: ['Ahoj světe'], state: 20 },
    { context: 'cafe', source: ['Café'], target: [''], state: 0 },
  ],
  translate: { context: 'cafe', target: ['Kavárna'] },
  add: { key: 'menu', value: ['Soubor'] },
  committed: {
    'translations/messages_cs.properties': utf16('hello=Ahoj světe\ncafe=Kavárna\n'),
    'sources/messages.properties': utf16('# Greeting\nhello=Hello\ncafe=Café\nmenu=Soubor\n'),
  },
  newLanguage: { filename: 'translations/messages_fr.properties', content: utf16('\n') },
  upload: { content: utf16('hello=Ahoj!\nunknown=x\nmenu=Nabídka\n'), result: { not_found: 0, skipped: 1, accepted: 1, total: 3 } },
};

const csvSimpleRow: FormatRow = {
  format: 'csv-simple',
  files: {
    'sources/app.txt': '"Hello, world",\nBye,\nLater,\n',
    'translations/cs.txt': '"Hello, world","Ahoj, světe"\nBye,\nLater,\n',
  },
  filemask: 'translations/*.txt',
  newBase: 'sources/app.txt',
  units: [
    { context: '', source: ['Hello, world'], target: ['Ahoj, světe'], state: 20 },
    { context: '', source: ['Bye'], target: [''], state: 0 },
    { context: '', source: ['Later'], target: [''], state: 0 },
  ],
  translate: { context: '', source: 'Bye', target: ['Na "shle"'] },
  add: { source: ['Menu'], target: ['Nabídka'] },
  addTo: 'cs',
  // The file's first cell is quoted, so new cells are quoted too (Weblate quotes every cell, docs/formats/kv.md).
  committed: { 'translations/cs.txt': '"Hello, world","Ahoj, světe"\nBye,"Na ""shle"""\nLater,\n"Menu","Nabídka"\n' },
  newLanguage: { filename: 'translations/fr.txt', content: '"Hello, world",\nBye,\nLater,\n' },
  badUpload: '"Hello,\n',
  upload: { content: '"Hello, world",Ahoj!\nUnknown,x\nLater,Později\n', result: { not_found: 1, skipped: 1, accepted: 1, total: 3 } },
};

const LARAVEL_EN = "<?php\n\nreturn [\n    // Greeting\n    'hello' => 'Hello',\n    'apples' => 'There is one apple|There are many apples',\n    'nested' => [\n        'bye' => \"Bye\\tnow\",\n    ],\n];\n";

const laravelRow: FormatRow = {
  format: 'laravel',
  files: {
    'lang/en/app.php': LARAVEL_EN,
    'lang/cs/app.php': "<?php\n\nreturn [\n    'hello' => 'Ahoj',\n];\n",
  },
  filemask: 'lang/*/app.php',
  template: 'lang/en/app.php',
  // translate-toolkit's key paths (formats.md §3.15); `a|b` is a plural of two forms.
  units: [
    { context: "return[]->'hello'", source: ['Hello'], target: ['Ahoj'], state: 20 },
    { context: "return[]->'apples'", source: ['There is one apple', 'There are many apples'], target: ['', '', ''], state: 0 },
    { context: "return[]->'nested'[]->'bye'", source: ['Bye\tnow'], target: [''], state: 0 },
  ],
  translate: { context: "return[]->'apples'", target: ['Jedno jablko', 'Pár jablek', 'Mnoho jablek'] },
  add: { key: 'menu', value: ['File'] },
  committed: {
    'lang/cs/app.php': "<?php\n\nreturn [\n    'hello' => 'Ahoj',\n    'apples' => 'Jedno jablko|Pár jablek|Mnoho jablek',\n];\n",
    'lang/en/app.php': LARAVEL_EN.replace('];\n', "    'menu' => 'File',\n];\n"),
  },
  newLanguage: { filename: 'lang/fr/app.php', content: '<?php\n' },
  badUpload: "<?php\nreturn ['x' => 'oops;\n",
  upload: { content: "<?php\nreturn [\n    'hello' => 'Ahoj!',\n    'unknown' => 'x',\n    'menu' => 'Soubor',\n];\n", result: { not_found: 0, skipped: 1, accepted: 1, total: 4 } },
};

describeFormatRows([stringsRow, propertiesUtf16Row, csvSimpleRow, laravelRow]);
