import { describeFormatRows, type FormatRow } from '../support/format-rows';

// Issue 11: UTF-8 Java properties row of the format table (test/support/format-rows.ts): raw non-ASCII,
// a continuation line kept as written.

const propertiesUtf8Row: FormatRow = {
  format: 'properties-utf8',
  files: {
    'sources/messages.properties': 'hello=Hello \\\n    world\ncafe=Café\n',
    'translations/messages_cs.properties': 'hello=Ahoj světe\n',
  },
  filemask: 'translations/messages_*.properties',
  template: 'sources/messages.properties',
  units: [
    { context: 'hello', source: ['Hello world'], target: ['Ahoj světe'], state: 20 },
    { context: 'cafe', source: ['Café'], target: [''], state: 0 },
  ],
  translate: { context: 'cafe', target: ['Kavárna = kafe'] },
  add: { key: 'menu', value: ['Soubor'] },
  // UTF-8 variant: non-ASCII written raw; '=' inside a value needs no escape.
  committed: { 'translations/messages_cs.properties': 'hello=Ahoj světe\ncafe=Kavárna = kafe\n', 'sources/messages.properties': 'hello=Hello \\\n    world\ncafe=Café\nmenu=Soubor\n' },
  newLanguage: { filename: 'translations/messages_fr.properties', content: '\n' },
  upload: { content: 'hello=Ahoj!\nunknown=x\nmenu=Nabídka\n', result: { not_found: 0, skipped: 1, accepted: 1, total: 3 } },
};

describeFormatRows([propertiesUtf8Row]);
