import { registerHasLookup, registerUnitSearchField, type FieldCompiler } from '../units/search/search-fields';

// The search fields the checks table answers (checks-suggestions-search.md §7.4, §7.6), registered into the
// unit search's extension point (search-fields.ts) when the module loads.

/** `check:<id>` / `dismissed_check:<id>`: Weblate 4.x matches the check id exactly, ignoring case. */
function checkRows(dismissed: boolean): FieldCompiler {
  return (term, context) => {
    const state = dismissed ? 'ch.dismissed' : 'NOT ch.dismissed';
    if (term.value.kind === 'regex') {
      context.usesRegex = true;
      return `EXISTS (SELECT 1 FROM checks ch WHERE ch.unit_id = u.id AND ${state} AND ch.name ~ ${context.param(term.value.pattern)})`;
    }
    if (term.value.kind !== 'text') return 'FALSE';
    return `EXISTS (SELECT 1 FROM checks ch WHERE ch.unit_id = u.id AND ${state} AND lower(ch.name) = ${context.param(term.value.text.toLowerCase())})`;
  };
}

const DISMISSED = (): string => 'EXISTS (SELECT 1 FROM checks ch WHERE ch.unit_id = u.id AND ch.dismissed)';

export function registerCheckSearch(): void {
  registerUnitSearchField('check', checkRows(false));
  registerUnitSearchField('dismissed_check', checkRows(true));
  registerHasLookup('dismissed-check', DISMISSED);
  registerHasLookup('ignored-check', DISMISSED);
}
