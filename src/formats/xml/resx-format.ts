// .NET resource file, Weblate's `resx` (formats.md §3.13): monolingual (needs a template), no plurals, no
// states; `<data name>` is the context, `<value>` the text, `<comment>` the note.

import type { FileFormat } from '../store';
import { readResx } from './resx-reader';
import { RESX_NEW_FILE } from './resx-skeleton';
import { createResx, writeResx } from './resx-writer';

export { RESX_NEW_FILE } from './resx-skeleton';

export const RESX_FORMAT: FileFormat = {
  id: 'resx',
  name: '.NET resource file',
  kind: 'mono',
  extension: 'resx',
  parse: (content, options) => ({ units: readResx(content, options).units }),
  write: writeResx,
  create: (base) => (base ? createResx(base) : Buffer.from(RESX_NEW_FILE, 'utf8')),
};
