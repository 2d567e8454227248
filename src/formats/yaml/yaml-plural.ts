import { CATEGORY_ORDER, pluralCategories } from '../plural-categories';

/** Ruby plural forms by the language's categories (or the file's own, in CLDR order), nulls as "". */
export function fastPluralTexts(language: string | undefined): (forms: Map<string, string | null>) => string[] {
  return (forms) => {
    const categories = language ? pluralCategories(language) : CATEGORY_ORDER.filter((category) => forms.has(category));
    return categories.map((category) => forms.get(category) ?? '');
  };
}
