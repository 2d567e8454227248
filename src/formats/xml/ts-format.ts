// Qt Linguist translation file, Weblate's `ts` (formats.md §3.16): bilingual or with a template ("both"),
// numerus plurals, `type="unfinished"` as needing editing, obsolete/vanished messages kept but not units.

import type { FileFormat } from '../store';
import { readTs } from './ts-reader';
import { createTs, writeTs } from './ts-writer';

export type { TsStoreUnit } from './ts-reader';

export const TS_FORMAT: FileFormat = {
  id: 'ts',
  name: 'Qt Linguist translation file',
  kind: 'both',
  extension: 'ts',
  parse(content, options) {
    const file = readTs(content, options);
    const language = file.doc.root.attributes.find((attribute) => attribute.name === 'language')?.value;
    return language ? { units: file.units, language } : { units: file.units };
  },
  write: writeTs,
  // No fixed new-file content: a new language needs `new_base` (formats.md §2.4).
  create: (base, context) => (base ? createTs(base, context) : null),
};
