import { describeFormatRows, type FormatRow } from '../support/format-rows';

// Issue 11: the XML rows of the format table (test/support/format-rows.ts) that had none: XLIFF with gettext
// extensions (a plural group), Qt Linguist (numerus, unfinished) and Apple stringsdict (plural dicts with the
// leading zero form). Every written file goes through `xmllint --noout`.

const poxliff = (language: string, units: string) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<xliff version="1.1" xmlns="urn:oasis:names:tc:xliff:document:1.1">\n  <file original="app.po" source-language="en" target-language="${language}" datatype="po">\n    <body>\n${units}    </body>\n  </file>\n</xliff>\n`;
const poUnit = (id: string, source: string, target?: string) =>
  `      <trans-unit id="${id}" xml:space="preserve"${target ? ' approved="yes"' : ''}>\n        <source>${source}</source>\n${target ? `        <target state="translated">${target}</target>\n` : ''}      </trans-unit>\n`;
const indented = (text: string) => text.replace(/^(?=.)/gm, '  ');
const PLURAL_GROUP = '      <group id="2" restype="x-gettext-plurals">\n' + indented(poUnit('2[0]', '%d file')) + indented(poUnit('2[1]', '%d files')) + '      </group>\n';
const POXLIFF_SOURCE = poUnit('1', 'Hello &amp; welcome') + PLURAL_GROUP + poUnit('3', 'Bye');

const poxliffRow: FormatRow = {
  format: 'poxliff',
  files: {
    'sources/app.xlf': poxliff('en', POXLIFF_SOURCE),
    'translations/cs.xlf': poxliff('cs', poUnit('1', 'Hello &amp; welcome', 'Ahoj &amp; vítej') + PLURAL_GROUP + poUnit('3', 'Bye')),
  },
  filemask: 'translations/*.xlf',
  newBase: 'sources/app.xlf',
  // poxliff strings are plain text (entities decoded); the plural group is one unit (formats.md §3.2).
  units: [
    { context: 'app.po///1', source: ['Hello & welcome'], target: ['Ahoj & vítej'], state: 20 },
    { context: 'app.po///2', source: ['%d file', '%d files'], target: ['', '', ''], state: 0 },
    { context: 'app.po///3', source: ['Bye'], target: [''], state: 0 },
  ],
  translate: { context: 'app.po///2', target: ['%d soubor', '%d soubory', '%d souborů'] },
  add: { context: 'menu', source: ['Menu & more'], target: ['Nabídka a další'] },
  addTo: 'cs',
  // The plural group gains the third Czech form (`2[2]`, on one line as translate-toolkit adds it); every
  // written target gets Weblate's `state` (5.x) and the gettext profile's approved="yes".
  committed: {
    'translations/cs.xlf': poxliff(
      'cs',
      poUnit('1', 'Hello &amp; welcome', 'Ahoj &amp; vítej') +
        '      <group id="2" restype="x-gettext-plurals" approved="yes">\n' +
        indented(poUnit('2[0]', '%d file', '%d soubor')) +
        indented(poUnit('2[1]', '%d files', '%d soubory')) +
        '        <trans-unit xml:space="preserve" id="2[2]"><source>%d files</source><target state="translated">%d souborů</target></trans-unit>\n' +
        '      </group>\n' +
        poUnit('3', 'Bye') +
        '      <trans-unit id="menu" xml:space="preserve" approved="yes"><source>Menu &amp; more</source><target state="translated">Nabídka a další</target></trans-unit>\n',
    ),
  },
  newLanguage: { filename: 'translations/fr.xlf', content: poxliff('fr', POXLIFF_SOURCE) },
  validate: 'xmllint',
  upload: { content: poxliff('cs', poUnit('1', 'Hello &amp; welcome', 'Ahoj!') + poUnit('9', 'Unknown', 'x') + poUnit('3', 'Bye', 'Nashle')), result: { not_found: 1, skipped: 1, accepted: 1, total: 3 } },
};

const ts = (language: string, messages: string) =>
  `<?xml version="1.0" encoding="utf-8"?>\n<!DOCTYPE TS>\n<TS version="2.1" language="${language}">\n<context>\n    <name>Main</name>\n${messages}</context>\n</TS>\n`;
const tsMessage = (source: string, translation: string, extra = '') =>
  `    <message${extra}>\n        <source>${source}</source>\n        ${translation}\n    </message>\n`;
const TS_SOURCE =
  '    <message>\n        <location filename="../src/main.cpp" line="10"/>\n        <source>Open &amp; close</source>\n        <translation type="unfinished"></translation>\n    </message>\n' +
  tsMessage('%n file(s)', '<translation type="unfinished">\n            <numerusform></numerusform>\n        </translation>', ' numerus="yes"') +
  tsMessage('Save', '<translation type="unfinished"></translation>');

const tsRow: FormatRow = {
  format: 'ts',
  files: {
    'i18n/app.ts': ts('en', TS_SOURCE),
    'i18n/app_cs.ts': ts(
      'cs',
      '    <message>\n        <location filename="../src/main.cpp" line="10"/>\n        <source>Open &amp; close</source>\n        <translation>Otevřít &amp; zavřít</translation>\n    </message>\n' +
        tsMessage('%n file(s)', '<translation type="unfinished">\n            <numerusform></numerusform>\n        </translation>', ' numerus="yes"') +
        tsMessage('Save', '<translation type="unfinished">Uložit</translation>'),
    ),
  },
  filemask: 'i18n/app_*.ts',
  newBase: 'i18n/app.ts',
  // A numerus source `X(s)` is shown as two forms; `unfinished` with text is needs editing (formats.md §3.16).
  units: [
    { context: 'Main', source: ['Open & close'], target: ['Otevřít & zavřít'], state: 20 },
    { context: 'Main', source: ['%n file', '%n files'], target: ['', '', ''], state: 0 },
    { context: 'Main', source: ['Save'], target: ['Uložit'], state: 10 },
  ],
  translate: { context: 'Main', source: '%n file\u001e\u001e%n files', target: ['%n soubor', '%n soubory', '%n souborů'] },
  add: { context: 'Main', source: ['Quit'], target: ['Konec'] },
  addTo: 'cs',
  // Only the edited message changes: its numerus forms (one per Czech plural form), `unfinished` dropped. The
  // added message goes at the end of its context.
  committed: {
    'i18n/app_cs.ts': ts(
      'cs',
      '    <message>\n        <location filename="../src/main.cpp" line="10"/>\n        <source>Open &amp; close</source>\n        <translation>Otevřít &amp; zavřít</translation>\n    </message>\n' +
        tsMessage('%n file(s)', '<translation>\n            <numerusform>%n soubor</numerusform>\n            <numerusform>%n soubory</numerusform>\n            <numerusform>%n souborů</numerusform>\n        </translation>', ' numerus="yes"') +
        tsMessage('Save', '<translation type="unfinished">Uložit</translation>') +
        tsMessage('Quit', '<translation>Konec</translation>'),
    ),
  },
  // From new_base: every translation emptied and `unfinished`, numerus forms fitted to French (two).
  newLanguage: { filename: 'i18n/app_fr.ts', content: ts('fr', TS_SOURCE.replace('<numerusform></numerusform>\n', '<numerusform></numerusform>\n            <numerusform></numerusform>\n')) },
  validate: 'xmllint',
  upload: { content: ts('cs', tsMessage('Open &amp; close', '<translation>Otevřít!</translation>') + tsMessage('Unknown', '<translation>x</translation>') + tsMessage('Save', '<translation>Uložit</translation>')), result: { not_found: 1, skipped: 1, accepted: 1, total: 3 } },
};

const plist = (body: string) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">\n<plist version="1.0">\n<dict>\n${body}</dict>\n</plist>\n`;
const pluralEntry = (key: string, variable: string, forms: Record<string, string>, formatKey = `%#@${variable}@`) =>
  `\t<key>${key}</key>\n\t<dict>\n\t\t<key>NSStringLocalizedFormatKey</key>\n\t\t<string>${formatKey}</string>\n\t\t<key>${variable}</key>\n\t\t<dict>\n\t\t\t<key>NSStringFormatSpecTypeKey</key>\n\t\t\t<string>NSStringPluralRuleType</string>\n\t\t\t<key>NSStringFormatValueTypeKey</key>\n\t\t\t<string>d</string>\n` +
  Object.entries(forms).map(([category, text]) => `\t\t\t<key>${category}</key>\n\t\t\t<string>${text}</string>\n`).join('') +
  '\t\t</dict>\n\t</dict>\n';

const stringsdictRow: FormatRow = {
  format: 'stringsdict',
  files: {
    'sources/en.stringsdict': plist(pluralEntry('files_count', 'files', { one: '%d file', other: '%d files' }) + pluralEntry('days_left', 'days', { one: '%d day &amp; night', other: '%d days' })),
    'translations/cs.stringsdict': plist(pluralEntry('files_count', 'files', { one: '%d soubor', few: '%d soubory', other: '%d souborů' })),
  },
  filemask: 'translations/*.stringsdict',
  template: 'sources/en.stringsdict',
  // Each entry is its format key and one plural per variable; plurals lead with the zero form (formats.md §3.5).
  units: [
    { context: 'files_count', source: ['%#@files@'], target: ['%#@files@'], state: 20 },
    { context: 'files_count:files', source: ['', '%d file', '%d files'], target: ['', '%d soubor', '%d soubory', '%d souborů'], state: 20 },
    { context: 'days_left', source: ['%#@days@'], target: [''], state: 0 },
    { context: 'days_left:days', source: ['', '%d day & night', '%d days'], target: ['', '', '', ''], state: 0 },
  ],
  translate: { context: 'days_left:days', target: ['', '%d den & noc', '%d dny', '%d dní'] },
  // The entry cs lacked is added with the template's format key and value type; the empty zero form is left
  // out (formats.md §3.5). Czech plurals have four forms here: zero + one, few, other.
  committed: {
    'translations/cs.stringsdict': plist(
      pluralEntry('files_count', 'files', { one: '%d soubor', few: '%d soubory', other: '%d souborů' }) + pluralEntry('days_left', 'days', { one: '%d den &amp; noc', few: '%d dny', other: '%d dní' }),
    ),
  },
  // Weblate's fixed new stringsdict (no new_base).
  newLanguage: {
    filename: 'translations/fr.stringsdict',
    content: '<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">\n<plist version="1.0">\n    <dict>\n    </dict>\n</plist>\n',
  },
  validate: 'xmllint',
  upload: {
    content: plist(pluralEntry('files_count', 'files', { one: 'jeden', few: 'pár', other: 'mnoho' }) + pluralEntry('unknown', 'x', { other: 'x' }) + pluralEntry('days_left', 'days', { one: '%d den', few: '%d dny', other: '%d dní' })),
    // `unknown` (format key and plural) is not in the template; files_count's two units and days_left's plural
    // are translated already; days_left's format key takes the file's.
    result: { not_found: 0, skipped: 3, accepted: 1, total: 4 },
  },
};

describeFormatRows([poxliffRow, tsRow, stringsdictRow]);
