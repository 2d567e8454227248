// XLIFF 1.2 formats (formats.md §3.2): `xliff` keeps inline markup as XML text, `plainxliff` (Weblate 5.x) reads
// the same files as plain text (markup reduced to its text, entities decoded) with xliff's states, `poxliff`
// (XLIFF from po2xliff, gettext extensions) reads plain text and plural groups. All work bilingually or with a
// template.

import type { FileFormat } from '../store';
import { parseXliffStore } from './xliff-read';
import { createXliff, writeXliff } from './xliff-write';

export const XLIFF_FORMAT: FileFormat = {
  id: 'xliff',
  name: 'XLIFF translation file',
  kind: 'both',
  extension: 'xlf',
  parse: (content, options) => parseXliffStore(content, 'xliff', options),
  write: (current, changes, context) => writeXliff(current, changes, context, 'xliff'),
  create: (base, context) => createXliff(base, context, 'xliff'),
};

export const PLAINXLIFF_FORMAT: FileFormat = {
  id: 'plainxliff',
  name: 'XLIFF 1.2 translation file',
  kind: 'both',
  extension: 'xlf',
  parse: (content, options) => parseXliffStore(content, 'plainxliff', options),
  write: (current, changes, context) => writeXliff(current, changes, context, 'plainxliff'),
  create: (base, context) => createXliff(base, context, 'plainxliff'),
};

export const POXLIFF_FORMAT: FileFormat = {
  id: 'poxliff',
  name: 'XLIFF translation file with PO extensions',
  kind: 'both',
  extension: 'xlf',
  parse: (content, options) => parseXliffStore(content, 'poxliff', options),
  write: (current, changes, context) => writeXliff(current, changes, context, 'poxliff'),
  create: (base, context) => createXliff(base, context, 'poxliff'),
};
