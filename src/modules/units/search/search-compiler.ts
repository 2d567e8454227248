// The search tree (search-parser.ts) as one parameterised SQL condition over `units u`. Change filters
// (`changed`, `changed_by`, `change_time`, `change_action`) that are direct members of the same AND group
// refer to the same change event, as in Weblate [latest] (checks-suggestions-search.md §7.4): they become one
// EXISTS over `changes`. The tree's size is bounded by the parser, so no expansion cap is needed here.

import { bareTerm, CHANGE_FIELDS, changeEvent, fieldCompiler, type OwnTextIds, type OwnTextLookup, type OwnTextUnion, type SearchContext } from './search-fields';
import { parseSearchQuery, type SearchNode, type SearchTerm } from './search-parser';

export interface CompiledSearch {
  sql: string;
  /** The condition evaluates a user-supplied regular expression: run it under the regex time limit. */
  usesRegex: boolean;
  /**
   * One statement per `source:`/`context:` term: the ids of the units holding their own matching text
   * (search-fields.ts throughSourceUnits). A caller may read them first and compile the condition again
   * with withOwnTextIds; `sql` does not need them.
   */
  ownTextLookups: OwnTextLookup[];
  /**
   * The same condition with the lookups' answers (by index; null where one found more than OWN_TEXT_IDS_CAP),
   * its parameters appended to `params` (which should hold what the caller's `params` held before compileSearch).
   */
  withOwnTextIds(ids: ReadonlyArray<OwnTextIds | null>, params: unknown[]): string;
  /**
   * When the whole query is one `source:`/`context:` term: that term in pieces for a statement that finds its
   * own-text units itself, without the lookup's statement (OwnTextUnion), its parameters appended to `params`
   * as for withOwnTextIds; else null.
   */
  ownTextUnion(params: unknown[]): OwnTextUnion | null;
}

const isChangeTerm = (node: SearchNode): node is SearchTerm => node.type === 'term' && node.field !== null && node.field in CHANGE_FIELDS;

function compileNode(node: SearchNode, context: SearchContext): string {
  switch (node.type) {
    case 'term':
      return node.field === null ? bareTerm(node, context) : fieldCompiler(node.field)(node, context);
    case 'not':
      return `NOT (${compileNode(node.child, context)})`;
    case 'or':
      return `(${node.children.map((child) => compileNode(child, context)).join(' OR ')})`;
    case 'and': {
      const changes = node.children.filter(isChangeTerm);
      const parts = node.children.filter((child) => !isChangeTerm(child)).map((child) => compileNode(child, context));
      if (changes.length > 0) parts.push(changeEvent(changes.map((term) => CHANGE_FIELDS[term.field as string](term, context))));
      return `(${parts.join(' AND ')})`;
    }
  }
}

/**
 * Compiles `q`, appending its parameters to `params` (placeholders continue the caller's numbering). Null for
 * an empty query. Throws SearchQueryError with Weblate's message for a bad one.
 */
export function compileSearch(q: string, params: unknown[], now: Date = new Date()): CompiledSearch | null {
  const tree = parseSearchQuery(q);
  if (tree === null) return null;
  const contextFor = (into: unknown[], ownTextIds?: ReadonlyArray<OwnTextIds | null>): SearchContext => ({
    now,
    usesRegex: false,
    ownTextLookups: [],
    ownTextIds,
    param(value) {
      into.push(value);
      return `$${into.length}`;
    },
  });
  const context = contextFor(params);
  const sql = compileNode(tree, context);
  return {
    sql,
    usesRegex: context.usesRegex,
    ownTextLookups: context.ownTextLookups,
    withOwnTextIds: (ids, into) => compileNode(tree, contextFor(into, ids)),
    ownTextUnion: (into) => {
      if (tree.type !== 'term' || context.ownTextLookups.length !== 1) return null;
      const pieces = Object.assign(contextFor(into), { wantsOwnTextUnion: true });
      compileNode(tree, pieces);
      return pieces.ownTextUnion ?? null;
    },
  };
}
