import { registerUnitSearchField, textLookup } from '../units/search/search-fields';

// `suggestion:` and `suggestion_author:` (checks-suggestions-search.md §7.4), registered into the unit search's
// extension point (search-fields.ts) when the module loads.
export function registerSuggestionSearch(): void {
  const text = textLookup('s.target');
  registerUnitSearchField('suggestion', (term, context) => `EXISTS (SELECT 1 FROM suggestions s WHERE s.unit_id = u.id AND ${text(term, context)})`);
  const author = textLookup('a.username');
  registerUnitSearchField(
    'suggestion_author',
    (term, context) => `EXISTS (SELECT 1 FROM suggestions s JOIN users a ON a.id = s.user_id WHERE s.unit_id = u.id AND ${author(term, context)})`,
  );
}
