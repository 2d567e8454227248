import { describeFormatRows, type FormatRow } from '../support/format-rows';

// Issue 11 "Done means": one e2e row per file format through the API (the table: test/support/format-rows.ts).
// JSON rows here; the other families in the sibling formats-*.e2e-spec.ts files.

const JSON_TEMPLATE = '{"app": {"title": "Weblate", "greeting": "Hello, {name}!"}, "count": 3}\n';

const jsonRow = (format: 'json' | 'json-nested', addedCs: string): FormatRow => ({
  format,
  files: {
    'sources/app.json': JSON_TEMPLATE,
    'translations/cs/app.json': '{"app": {"title": "Weblate"}}\n',
  },
  filemask: 'translations/*/app.json',
  template: 'sources/app.json',
  units: [
    { context: 'app.title', source: ['Weblate'], target: ['Weblate'], state: 20 },
    { context: 'app.greeting', source: ['Hello, {name}!'], target: [''], state: 0 },
    { context: 'count', source: ['3'], target: [''], state: 0 },
  ],
  translate: { context: 'app.greeting', target: ['Ahoj, {name}!'] },
  add: { key: 'menu.file', value: ['File'] },
  committed: {
    // Patched in place: the file keeps its one-line layout (issue 11 item 3).
    'translations/cs/app.json': '{"app": {"title": "Weblate", "greeting": "Ahoj, {name}!"}}\n',
    'sources/app.json': `{"app": {"title": "Weblate", "greeting": "Hello, {name}!"}, "count": 3, ${addedCs}}\n`,
  },
  newLanguage: { filename: 'translations/fr/app.json', content: '{}\n' },
  // app.title is translated already (skipped without `conflicts`); `unknown` is not in the template, which the
  // file is read relative to: ignored, and `total` is the template's 4 strings (formats.md §5).
  upload: { content: '{"app": {"title": "Weblate!"}, "unknown": "x", "count": "tři"}', result: { not_found: 0, skipped: 1, accepted: 1, total: 4 } },
});

const ROWS: FormatRow[] = [
  jsonRow('json-nested', '"menu": {"file": "File"}'),
  jsonRow('json', '"menu.file": "File"'),
];

describeFormatRows(ROWS);
