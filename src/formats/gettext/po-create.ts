// New translation files (formats.md §2.4, §3.1): from `new_base` (a POT, or the po-mono template) every
// target is emptied (plural entries get the language's number of forms), fuzzy marks and `#|` lines go, and
// the header gets `Last-Translator: Automatically generated`, `Language-Team`, `Language` and the language's
// `Plural-Forms`, losing its own `#, fuzzy`. Without a base `po` cannot start a file; `po-mono` writes its
// fixed header-only content.

import type { StoreWriteContext } from '../store';
import { encodePo } from './po-charset';
import { editEntryLines, targetForms } from './po-entry-edit';
import { formatPluralForms } from './po-header';
import { isUnitEntry } from './po-parser';
import { loadPo, type PoFlavour } from './po-units';
import { assemblePo, headerReplacement, type EntryReplacements } from './po-writer';

/** po-mono's fixed new-file content (formats.md §3.1 "Identity"). */
export const PO_MONO_NEW_FILE =
  'msgid ""\n' +
  'msgstr ""\n' +
  '"X-Generator: Weblate\\n"\n' +
  '"MIME-Version: 1.0\\n"\n' +
  '"Content-Type: text/plain; charset=UTF-8\\n"\n' +
  '"Content-Transfer-Encoding: 8bit\\n"\n';

export function createPo(base: Buffer | null, context: StoreWriteContext, flavour: PoFlavour): Buffer | null {
  if (!base) return flavour === 'monolingual' ? Buffer.from(PO_MONO_NEW_FILE, 'utf8') : null;
  const loaded = loadPo(base);
  const { document } = loaded;
  const replacements: EntryReplacements = new Map();
  document.entries.forEach((entry, index) => {
    if (!isUnitEntry(entry)) return;
    const target = targetForms([], entry.msgidPlural !== null, context.plural.number);
    const lines = editEntryLines(document, entry, { target, fuzzy: false });
    if (lines) replacements.set(index, lines);
  });
  const header = headerReplacement(
    loaded,
    () => {
      const changes = new Map<string, string>();
      if (context.reportMsgidBugsTo) changes.set('Report-Msgid-Bugs-To', context.reportMsgidBugsTo);
      changes.set('Last-Translator', 'Automatically generated');
      changes.set('Language-Team', context.languageTeam ?? 'none');
      changes.set('Language', context.languageCode);
      changes.set('Plural-Forms', formatPluralForms(context.plural));
      return changes;
    },
    true,
  );
  if (header.index >= 0) replacements.set(header.index, header.lines);
  const text = assemblePo(document, replacements, header.index === -1 ? header.lines : [], []);
  return encodePo(text, loaded.encoding);
}
