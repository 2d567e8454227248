// Apple stringsdict, Weblate's `stringsdict` (formats.md §3.5): "both" (used with a template in practice);
// plural variables keyed by CLDR category, with the extra leading `zero` form (§2.3).

import type { FileFormat, PluralDeclaration } from '../store';
import { readStringsdict, stringsdictCategories } from './stringsdict-reader';
import { createStringsdict, writeStringsdict } from './stringsdict-writer';

/** Weblate's fixed content of a new stringsdict file (formats.md §3.5 "Identity"). */
export const STRINGSDICT_NEW_FILE = `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">
    <dict>
    </dict>
</plist>
`;

/**
 * Weblate gives a stringsdict translation the language's plural with an extra leading zero form (formats.md
 * §2.3), so its plural units have one form per category of the file, `zero` first: the count edits are checked
 * against. The formula sends 0 to the zero form and shifts the language's formula by one. A language whose
 * categories include `zero` already (ar) keeps its own plural.
 */
export function stringsdictPlural(languageCode: string, languagePlural: PluralDeclaration): PluralDeclaration {
  const number = stringsdictCategories(languageCode).length;
  if (number === languagePlural.number) return languagePlural;
  return { number, formula: `(n == 0) ? 0 : (${languagePlural.formula}) + 1` };
}

export const STRINGSDICT_FORMAT: FileFormat = {
  id: 'stringsdict',
  name: 'Stringsdict file',
  kind: 'both',
  extension: 'stringsdict',
  parse: (content, options) => ({ units: readStringsdict(content, options).units }),
  write: writeStringsdict,
  create: (base, context) => (base ? createStringsdict(base, context) : Buffer.from(STRINGSDICT_NEW_FILE, 'utf8')),
  translationPlural: stringsdictPlural,
};
