import { registerHasLookup, registerUnitSearchField, textLookup, type FieldCompiler } from '../units/search/search-fields';

// `comment:`, `resolved_comment:`, `comment_author:` and their `source_` variants (checks-suggestions-search.md
// §7.4, §7.6), registered into the unit search's extension point (search-fields.ts) when the module loads.
// Translation comments live on the unit; source-scope (global and report) comments on its source unit.

const ON_UNIT = 'cm.unit_id = u.id';
const ON_SOURCE = 'cm.unit_id = COALESCE(u.source_unit_id, u.id)';

function commentRows(where: string, resolved: boolean, column: 'cm.comment' | 'a.username'): FieldCompiler {
  const lookup = textLookup(column);
  const join = column === 'a.username' ? ' JOIN users a ON a.id = cm.user_id' : '';
  return (term, context) => `EXISTS (SELECT 1 FROM comments cm${join} WHERE ${where} AND cm.resolved = ${resolved} AND ${lookup(term, context)})`;
}

export function registerCommentSearch(): void {
  registerUnitSearchField('comment', commentRows(ON_UNIT, false, 'cm.comment'));
  registerUnitSearchField('resolved_comment', commentRows(ON_UNIT, true, 'cm.comment'));
  registerUnitSearchField('comment_author', commentRows(ON_UNIT, false, 'a.username'));
  registerUnitSearchField('source_comment', commentRows(ON_SOURCE, false, 'cm.comment'));
  registerUnitSearchField('resolved_source_comment', commentRows(ON_SOURCE, true, 'cm.comment'));
  registerUnitSearchField('source_comment_author', commentRows(ON_SOURCE, false, 'a.username'));
  registerHasLookup('resolved-comment', () => `EXISTS (SELECT 1 FROM comments cm WHERE ${ON_UNIT} AND cm.resolved)`);
  registerHasLookup('source-comment', () => `EXISTS (SELECT 1 FROM comments cm WHERE ${ON_SOURCE} AND NOT cm.resolved)`);
  registerHasLookup('resolved-source-comment', () => `EXISTS (SELECT 1 FROM comments cm WHERE ${ON_SOURCE} AND cm.resolved)`);
}
