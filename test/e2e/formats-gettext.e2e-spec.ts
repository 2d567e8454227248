import { describeFormatRows, type FormatRow } from '../support/format-rows';

// Issue 11: the gettext rows of the format table (test/support/format-rows.ts): `po` with a POT as
// new_base (plural, escape, fuzzy entry) and `po-mono` with its template.

const HEADER = (language: string, plural: string) =>
  `msgid ""\nmsgstr ""\n"Language: ${language}\\n"\n"MIME-Version: 1.0\\n"\n"Content-Type: text/plain; charset=UTF-8\\n"\n"Content-Transfer-Encoding: 8bit\\n"\n"Plural-Forms: ${plural}\\n"\n`;
const CS_PLURAL = 'nplurals=3; plural=(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2;';

const COMMITTED_HEADER = (slug: string, plural: string) =>
  `msgid ""\nmsgstr ""\n"PO-Revision-Date: DATE\\n"\n"Last-Translator: admin <admin@localhost>\\n"\n"Language-Team: Czech <http://glossa.test/projects/fmt-${slug}/app/cs/>\\n"\n"Language: cs\\n"\n"MIME-Version: 1.0\\n"\n"Content-Type: text/plain; charset=UTF-8\\n"\n"Content-Transfer-Encoding: 8bit\\n"\n"Plural-Forms: ${plural}\\n"\n"X-Generator: Glossa 0.1.0\\n"\n`;

const POT = `msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\nmsgid "Hello"\nmsgstr ""\n\n#, c-format\nmsgid "%d file"\nmsgid_plural "%d files"\nmsgstr[0] ""\nmsgstr[1] ""\n\nmsgid "Tab\\there"\nmsgstr ""\n`;
const CS_PO = `${HEADER('cs', CS_PLURAL)}\nmsgid "Hello"\nmsgstr "Ahoj"\n\n#, c-format\nmsgid "%d file"\nmsgid_plural "%d files"\nmsgstr[0] ""\nmsgstr[1] ""\nmsgstr[2] ""\n\n#, fuzzy\nmsgid "Tab\\there"\nmsgstr "Tab\\tzde"\n`;

const poRow: FormatRow = {
  format: 'po',
  files: { 'po/app.pot': POT, 'po/cs.po': CS_PO },
  filemask: 'po/*.po',
  newBase: 'po/app.pot',
  units: [
    { context: '', source: ['Hello'], target: ['Ahoj'], state: 20 },
    { context: '', source: ['%d file', '%d files'], target: ['', '', ''], state: 0 },
    { context: '', source: ['Tab\there'], target: ['Tab\tzde'], state: 10 },
  ],
  translate: { context: '', source: '%d file\u001e\u001e%d files', target: ['%d soubor', '%d soubory', '%d souborů'] },
  add: { source: ['Bye'], target: ['Nashle'] },
  addTo: 'cs',
  // Weblate's header update (formats.md §3.1): revision date, translator, team and generator; the rest unchanged.
  committed: {
    'po/cs.po': `${COMMITTED_HEADER('po', CS_PLURAL)}\nmsgid "Hello"\nmsgstr "Ahoj"\n\n#, c-format\nmsgid "%d file"\nmsgid_plural "%d files"\nmsgstr[0] "%d soubor"\nmsgstr[1] "%d soubory"\nmsgstr[2] "%d souborů"\n\n#, fuzzy\nmsgid "Tab\\there"\nmsgstr "Tab\\tzde"\n\nmsgid "Bye"\nmsgstr "Nashle"\n`,
  },
  validate: 'msgfmt',
  newLanguage: {
    filename: 'po/fr.po',
    content: `msgid ""\nmsgstr ""\n"Last-Translator: Automatically generated\\n"\n"Language-Team: French <http://glossa.test/projects/fmt-po/app/fr/>\\n"\n"Language: fr\\n"\n"Content-Type: text/plain; charset=UTF-8\\n"\n"Plural-Forms: nplurals=2; plural=n > 1;\\n"\n\nmsgid "Hello"\nmsgstr ""\n\n#, c-format\nmsgid "%d file"\nmsgid_plural "%d files"\nmsgstr[0] ""\nmsgstr[1] ""\n\nmsgid "Tab\\there"\nmsgstr ""\n`,
  },
  upload: { content: `${HEADER('cs', CS_PLURAL)}\nmsgid "Hello"\nmsgstr "Ahoj!"\n\nmsgid "Tab\\there"\nmsgstr "Tab\\ttady"\n\nmsgid "Unknown"\nmsgstr "Neznámý"\n`, result: { not_found: 1, skipped: 1, accepted: 1, total: 3 } },
};

const MONO_EN = `${HEADER('en', 'nplurals=2; plural=(n != 1);')}\n#. Greeting\nmsgid "hello"\nmsgstr "Hello \\"you\\""\n\nmsgid "files"\nmsgid_plural "files_plural"\nmsgstr[0] "%d file"\nmsgstr[1] "%d files"\n`;
const MONO_CS = `${HEADER('cs', CS_PLURAL)}\nmsgid "hello"\nmsgstr "Ahoj \\"ty\\""\n`;

const poMonoRow: FormatRow = {
  format: 'po-mono',
  files: { 'po/en.po': MONO_EN, 'po/cs.po': MONO_CS },
  filemask: 'po/*.po',
  template: 'po/en.po',
  units: [
    { context: 'hello', source: ['Hello "you"'], target: ['Ahoj "ty"'], state: 20 },
    { context: 'files', source: ['%d file', '%d files'], target: ['', '', ''], state: 0 },
  ],
  translate: { context: 'files', target: ['%d soubor', '%d soubory', '%d souborů'] },
  add: { key: 'bye', value: ['Bye'] },
  committed: {
    'po/cs.po': `${COMMITTED_HEADER('po-mono', CS_PLURAL)}\nmsgid "hello"\nmsgstr "Ahoj \\"ty\\""\n\nmsgid "files"\nmsgid_plural "files_plural"\nmsgstr[0] "%d soubor"\nmsgstr[1] "%d soubory"\nmsgstr[2] "%d souborů"\n`,
    'po/en.po': `${COMMITTED_HEADER('po-mono', 'nplurals=2; plural=n != 1;').replace(/Czech/, 'English').replace(/cs/g, 'en')}\n#. Greeting\nmsgid "hello"\nmsgstr "Hello \\"you\\""\n\nmsgid "files"\nmsgid_plural "files_plural"\nmsgstr[0] "%d file"\nmsgstr[1] "%d files"\n\nmsgid "bye"\nmsgstr "Bye"\n`,
  },
  // Weblate's fixed new file for monolingual PO (no template copy, formats.md §3.1).
  validate: 'msgfmt',
  newLanguage: {
    filename: 'po/fr.po',
    content: 'msgid ""\nmsgstr ""\n"X-Generator: Weblate\\n"\n"MIME-Version: 1.0\\n"\n"Content-Type: text/plain; charset=UTF-8\\n"\n"Content-Transfer-Encoding: 8bit\\n"\n',
  },
  upload: { content: `${HEADER('cs', CS_PLURAL)}\nmsgid "hello"\nmsgstr "Ahoj!"\n\nmsgid "unknown"\nmsgstr "x"\n\nmsgid "bye"\nmsgstr "Nashle"\n`, result: { not_found: 0, skipped: 1, accepted: 1, total: 3 } },
};

describeFormatRows([poRow, poMonoRow]);
