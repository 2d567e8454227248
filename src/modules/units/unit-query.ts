// Weblate's unit search language (`q`, checks-suggestions-search.md §7): parsed by search/search-parser.ts,
// compiled by search/search-compiler.ts with the field table of search/search-fields.ts (where modules owning
// checks, suggestions and comments register their fields), run by search/search-runner.ts.

export { compileSearch, type CompiledSearch } from './search/search-compiler';
export { SearchQueryError as UnitQueryError } from './search/search-parser';
export { compileRequestSearch, resolveSearch, runSearch } from './search/search-runner';

import { compileSearch } from './search/search-compiler';

/** `q` as a condition on `u` (parameters appended to `params`), or null for an empty query. */
export function compileUnitQuery(q: string, params: unknown[]): string | null {
  return compileSearch(q, params)?.sql ?? null;
}
