import { describeFormatRows, type FormatRow } from '../support/format-rows';

// Issue 11: monolingual rows of the format table (test/support/format-rows.ts), each with a template in
// sources/ and translations in translations/: Java properties (\uXXXX escapes), Apple strings (escaped
// quotes, comment), Android resources (plurals, apostrophe escape) and YAML (nested keys, quoting).

const propertiesRow: FormatRow = {
  format: 'properties',
  files: {
    'sources/messages.properties': '# Greeting\nhello=Hello\\tworld\ncafe=Caf\\u00e9\nbye = Bye\n',
    'translations/messages_cs.properties': 'hello=Ahoj\\tsv\\u011bte\n',
  },
  filemask: 'translations/messages_*.properties',
  template: 'sources/messages.properties',
  units: [
    { context: 'hello', source: ['Hello\tworld'], target: ['Ahoj\tsvěte'], state: 20 },
    { context: 'cafe', source: ['Café'], target: [''], state: 0 },
    { context: 'bye', source: ['Bye'], target: [''], state: 0 },
  ],
  translate: { context: 'bye', target: ['Nashledanou'] },
  add: { key: 'menu.file', value: ['File'] },
  // Only the appended entry is new; it keeps the template's spacing around `=`.
  committed: { 'translations/messages_cs.properties': 'hello=Ahoj\\tsv\\u011bte\nbye = Nashledanou\n', 'sources/messages.properties': '# Greeting\nhello=Hello\\tworld\ncafe=Caf\\u00e9\nbye = Bye\nmenu.file=File\n' },
  newLanguage: { filename: 'translations/messages_fr.properties', content: '\n' },
  upload: { content: 'hello=Ahoj!\nunknown=x\ncafe=Kav\\u00e1rna\n', result: { not_found: 0, skipped: 1, accepted: 1, total: 4 } },
};

const stringsRow: FormatRow = {
  format: 'strings-utf8',
  files: {
    'sources/Localizable.strings': '/* Greeting */\n"hello" = "Hello \\"world\\"";\n"bye" = "Bye";\n',
    'translations/cs/Localizable.strings': '"hello" = "Ahoj \\"světe\\"";\n',
  },
  filemask: 'translations/*/Localizable.strings',
  template: 'sources/Localizable.strings',
  units: [
    { context: 'hello', source: ['Hello "world"'], target: ['Ahoj "světe"'], state: 20 },
    { context: 'bye', source: ['Bye'], target: [''], state: 0 },
  ],
  translate: { context: 'bye', target: ['Na "shle"'] },
  add: { key: 'menu.file', value: ['File'] },
  committed: { 'translations/cs/Localizable.strings': '"hello" = "Ahoj \\"světe\\"";\n"bye" = "Na \\"shle\\"";\n', 'sources/Localizable.strings': '/* Greeting */\n"hello" = "Hello \\"world\\"";\n"bye" = "Bye";\n"menu.file" = "File";\n' },
  newLanguage: { filename: 'translations/fr/Localizable.strings', content: '\n' },
  upload: { content: '"hello" = "Ahoj!";\n"unknown" = "x";\n"menu.file" = "Soubor";\n', result: { not_found: 0, skipped: 1, accepted: 1, total: 3 } },
};

const ANDROID_EN =
  '<?xml version="1.0" encoding="utf-8"?>\n<resources>\n    <string name="hello">Hello\\\'s world</string>\n    <plurals name="files">\n        <item quantity="one">%d file</item>\n        <item quantity="other">%d files</item>\n    </plurals>\n    <string name="app" translatable="false">App</string>\n</resources>\n';

const aresourceRow: FormatRow = {
  format: 'aresource',
  files: {
    'sources/strings.xml': ANDROID_EN,
    'translations/cs/strings.xml': '<?xml version="1.0" encoding="utf-8"?>\n<resources>\n    <string name="hello">Ahoj světe</string>\n</resources>\n',
  },
  filemask: 'translations/*/strings.xml',
  template: 'sources/strings.xml',
  units: [
    { context: 'hello', source: ["Hello's world"], target: ['Ahoj světe'], state: 20 },
    { context: 'files', source: ['%d file', '%d files'], target: ['', '', ''], state: 0 },
    // translatable="false": read-only (formats.md §3.3).
    { context: 'app', source: ['App'], target: [''], state: 100 },
  ],
  translate: { context: 'files', target: ['%d soubor', '%d soubory', '%d souborů'] },
  add: { key: 'menu_file', value: ['File'] },
  // cs has three plural forms in Glossa's language table (one/few/other), so three items.
  committed: {
    'translations/cs/strings.xml':
      '<?xml version="1.0" encoding="utf-8"?>\n<resources>\n    <string name="hello">Ahoj světe</string>\n    <plurals name="files">\n        <item quantity="one">%d soubor</item>\n        <item quantity="few">%d soubory</item>\n        <item quantity="other">%d souborů</item>\n    </plurals>\n</resources>\n',
    'sources/strings.xml': `${ANDROID_EN.replace('</resources>', '    <string name="menu_file">File</string>\n</resources>')}`,
  },
  validate: 'xmllint',
  newLanguage: { filename: 'translations/fr/strings.xml', content: '<?xml version="1.0" encoding="utf-8"?>\n<resources></resources>' },
  upload: {
    content: '<?xml version="1.0" encoding="utf-8"?>\n<resources>\n    <string name="hello">Ahoj!</string>\n    <string name="unknown">x</string>\n    <string name="menu_file">Soubor</string>\n</resources>\n',
    result: { not_found: 0, skipped: 1, accepted: 1, total: 4 },
  },
};

const yamlRow: FormatRow = {
  format: 'yaml',
  files: {
    'sources/en.yml': '# Application strings\napp:\n  title: "Hello: world"\n  bye: Bye\n',
    'translations/cs.yml': 'app:\n  title: "Ahoj: světe"\n',
  },
  filemask: 'translations/*.yml',
  template: 'sources/en.yml',
  units: [
    { context: 'app->title', source: ['Hello: world'], target: ['Ahoj: světe'], state: 20 },
    { context: 'app->bye', source: ['Bye'], target: [''], state: 0 },
  ],
  translate: { context: 'app->bye', target: ['Na shledanou: zatím'] },
  add: { key: 'menu', value: ['File'] },
  // The new value is quoted (it holds `: `); the rest of the file is untouched.
  committed: { 'translations/cs.yml': 'app:\n  title: "Ahoj: světe"\n  bye: \'Na shledanou: zatím\'\n', 'sources/en.yml': '# Application strings\napp:\n  title: "Hello: world"\n  bye: Bye\nmenu: File\n' },
  newLanguage: { filename: 'translations/fr.yml', content: '{}\n' },
  upload: { content: 'app:\n  title: Ahoj!\n  unknown: x\nmenu: Soubor\n', result: { not_found: 0, skipped: 1, accepted: 1, total: 3 } },
};

describeFormatRows([propertiesRow, stringsRow, aresourceRow, yamlRow]);
