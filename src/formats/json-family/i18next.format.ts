import { nestedPathFromContext } from '../json/json-paths';
import { isCategoryName, pluralCategories } from '../plural-categories';
import { categoryFormIndex } from './family-units';
import type { FileFormat } from '../store';
import { keyedJsonFormat, type PluralStyle } from './keyed-json';

// i18next JSON (formats.md §3.9): nested JSON as §3.8 whose sibling keys form plurals by suffix. Neither
// version recognizes the other's suffixes.

// Plain keys like `step_1` are plural forms in v3 too (translate-toolkit groups every `_<n>` suffix); the
// bound keeps a key like `id_123456789` from creating a huge sparse form list.
const MAX_V3_FORM = 99;
const V3_NUMBERED = /^(.+)_(\d{1,2})$/s;

/** v3: `k` + `k_plural` (two-form languages) or `k_0` … `k_n` (numeric order). */
export const I18NEXT_V3_PLURALS: PluralStyle = {
  formOf(key, siblings) {
    if (key.endsWith('_plural') && key.length > 7 && siblings.has(key.slice(0, -7))) return { base: key.slice(0, -7), index: 1 };
    if (siblings.has(`${key}_plural`)) return { base: key, index: 0 };
    const numbered = V3_NUMBERED.exec(key);
    if (numbered && Number(numbered[2]) <= MAX_V3_FORM && String(Number(numbered[2])) === numbered[2]) return { base: numbered[1], index: Number(numbered[2]) };
    return undefined;
  },
  slotKeys(base, context) {
    const count = Math.max(context.plural.number, 1);
    if (count === 2) return [base, `${base}_plural`];
    return Array.from({ length: count }, (_, index) => `${base}_${index}`);
  },
};

const V4_CATEGORY = /^(.+)_(zero|one|two|few|many|other)$/s;

/**
 * v4: `k_<CLDR category>`. Read by the translation's category list when the language is known (forms map by
 * position onto it, §2.3; categories outside the list follow, in CLDR order), else in CLDR order of the
 * categories the object has; written with the language's list.
 */
export const I18NEXT_V4_PLURALS: PluralStyle = {
  formOf(key, siblings, language) {
    const match = V4_CATEGORY.exec(key);
    if (!match || !isCategoryName(match[2])) return undefined;
    return { base: match[1], index: categoryFormIndex(match[2], (category) => siblings.has(`${match[1]}_${category}`), language) };
  },
  slotKeys(base, context) {
    return pluralCategories(context.languageCode).map((category) => `${base}_${category}`);
  },
};

export const I18NEXT_V3_FORMAT: FileFormat = keyedJsonFormat({
  id: 'i18next',
  name: 'i18next JSON file v3',
  extension: 'json',
  kind: 'both',
  defaultIndent: '    ',
  pathFromContext: nestedPathFromContext,
  plural: I18NEXT_V3_PLURALS,
});

export const I18NEXT_V4_FORMAT: FileFormat = keyedJsonFormat({
  id: 'i18nextv4',
  name: 'i18next JSON file v4',
  extension: 'json',
  kind: 'both',
  defaultIndent: '    ',
  pathFromContext: nestedPathFromContext,
  plural: I18NEXT_V4_PLURALS,
});
