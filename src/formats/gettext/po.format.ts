// The gettext PO formats under Weblate's ids (formats.md §1, §3.1): `po` (bilingual, never a template) and
// `po-mono` (monolingual, keyed by msgid / msgctxt.msgid, needs a template).

import { FormatParseError } from '../format';
import type { FileFormat, ParsedStore, PluralDeclaration } from '../store';
import { createPo } from './po-create';
import { parsePoStore } from './po-units';
import { writePo } from './po-writer';

export const PO_FORMAT: FileFormat = {
  id: 'po',
  name: 'gettext PO file',
  kind: 'bi',
  extension: 'po',
  parse: (content, options) => parsePoStore(content, 'bilingual', options),
  write: (current, changes, context) => writePo(current, changes, context, 'bilingual'),
  writeWithinLimits: (current, changes, context, limits) => writePo(current, changes, context, 'bilingual', limits),
  create: (base, context) => createPo(base, context, 'bilingual'),
};

export const PO_MONO_FORMAT: FileFormat = {
  id: 'po-mono',
  name: 'gettext PO file (monolingual)',
  kind: 'mono',
  extension: 'po',
  parse: (content, options) => parsePoStore(content, 'monolingual', options),
  write: (current, changes, context) => writePo(current, changes, context, 'monolingual'),
  writeWithinLimits: (current, changes, context, limits) => writePo(current, changes, context, 'monolingual', limits),
  create: (base, context) => createPo(base, context, 'monolingual'),
};

function normaliseFormula(formula: string): string {
  return formula.replace(/\s+/g, '').replace(/;+$/, '');
}

/**
 * Weblate refuses an uploaded PO whose `Plural-Forms` differs from the translation's plural (formats.md
 * §3.1 "Plurals": "Plural forms do not match the language"). A file without the header passes. Formulas
 * are compared with whitespace removed.
 */
export function assertUploadPluralMatches(parsed: ParsedStore, plural: PluralDeclaration): void {
  if (!parsed.plural) return;
  if (parsed.plural.number === plural.number && normaliseFormula(parsed.plural.formula) === normaliseFormula(plural.formula)) {
    return;
  }
  throw new FormatParseError('Plural forms do not match the language.');
}
