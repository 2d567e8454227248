// The CLDR plural categories a category-keyed format (Android `quantity`, stringsdict, i18next v4
// suffixes, Ruby YAML, go-i18n, Fluent selectors, ICU in ARB) uses for a language, in the order their forms
// are stored. translate-toolkit maps such forms *by position* onto its own category list, which is not always
// CLDR's (formats.md §2.3: cs has no `many`, pl/ru/uk have no `other`); Weblate's files follow those lists,
// so Glossa uses the same lists to stay byte-compatible. Languages the table does not name use CLDR's
// categories from Intl.PluralRules (ICU data shipped with Node), in canonical order.

export type PluralCategory = 'zero' | 'one' | 'two' | 'few' | 'many' | 'other';

/** CLDR's canonical order; every list below is a subsequence of it. */
export const CATEGORY_ORDER: readonly PluralCategory[] = ['zero', 'one', 'two', 'few', 'many', 'other'];

// translate-toolkit 3.8.4 lists observed to differ from (or be worth pinning against) CLDR (formats.md §2.3).
const TOOLKIT_CATEGORIES: Readonly<Record<string, readonly PluralCategory[]>> = {
  en: ['one', 'other'],
  de: ['one', 'other'],
  fr: ['one', 'many', 'other'],
  pt: ['one', 'many', 'other'],
  cs: ['one', 'few', 'other'],
  sk: ['one', 'few', 'other'],
  lt: ['one', 'few', 'other'],
  pl: ['one', 'few', 'many'],
  ru: ['one', 'few', 'many'],
  uk: ['one', 'few', 'many'],
  ar: ['zero', 'one', 'two', 'few', 'many', 'other'],
  he: ['one', 'two', 'many', 'other'],
  sl: ['one', 'two', 'few', 'other'],
  ga: ['one', 'two', 'few', 'many', 'other'],
  ja: ['other'],
  zh: ['other'],
};

/** The base language of a code in any of Weblate's spellings: `pt_BR`, `pt-BR`, `sr@latin` → `pt`, `sr`. */
export function baseLanguage(code: string): string {
  return code.split(/[_\-@.]/)[0].toLowerCase();
}

/** Categories of `languageCode` in stored-form order; `['one', 'other']` for an unknown or empty code. */
export function pluralCategories(languageCode: string): readonly PluralCategory[] {
  const base = baseLanguage(languageCode);
  const pinned = TOOLKIT_CATEGORIES[base];
  if (pinned) return pinned;
  let found: readonly string[];
  try {
    found = new Intl.PluralRules(base).resolvedOptions().pluralCategories;
  } catch {
    return TOOLKIT_CATEGORIES.en;
  }
  if (new Intl.PluralRules(base).resolvedOptions().locale.toLowerCase() !== base) return TOOLKIT_CATEGORIES.en;
  return CATEGORY_ORDER.filter((category) => found.includes(category));
}

/** True when every key is a CLDR category name (Ruby YAML / go-i18n plural maps). */
export function isCategoryName(key: string): key is PluralCategory {
  return (CATEGORY_ORDER as readonly string[]).includes(key);
}
