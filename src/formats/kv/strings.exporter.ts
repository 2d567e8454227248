// The `strings` converted download (formats.md §4): monolingual components only, key = context, value =
// the first target form, the note as a comment above the entry. Weblate 5.x writes UTF-8 (4.x used a UTF-16
// store); Glossa follows 5.x (docs/formats/kv.md).

import type { Exporter } from '../store';
import { noteToStringsComment, stringsEntry } from './strings-escape';

export const STRINGS_EXPORTER: Exporter = {
  id: 'strings',
  extension: 'strings',
  contentType: 'text/plain',
  accepts: (_componentFormat, monolingual) => monolingual,
  export: (units) => {
    let text = '';
    for (const unit of units) {
      const comment = noteToStringsComment(unit.note);
      if (comment) text += comment + '\n';
      text += stringsEntry(unit.context !== '' ? unit.context : (unit.source[0] ?? ''), unit.target[0] ?? '') + '\n';
    }
    return Buffer.from(text, 'utf8');
  },
};
