import type { DataSource, EntityManager } from 'typeorm';
import { ApiValidationError } from '../../../common/http/api-errors';
import { isStatementTimeout } from '../../../database/statement-timeout';
import { compileSearch, type CompiledSearch } from './search-compiler';
import { OWN_TEXT_IDS_CAP, type OwnTextIds } from './search-fields';
import { SearchQueryError } from './search-parser';

// Running a compiled search. A regular expression is the one part of a query whose cost the parser cannot
// bound (PostgreSQL's regex engine can backtrack), so a search that evaluates one runs in a transaction whose
// statement_timeout is lowered to SEARCH_REGEX_TIMEOUT_MS (never raised above the API's limit). PostgreSQL
// validates the pattern itself, as Weblate [latest] lets the database do (checks-suggestions-search.md §7.8):
// an invalid pattern (SQLSTATE 2201B) or one that runs out of time answers 400
// `Invalid regular expression: <database error>` instead of a 500 or the generic 503 of a slow request.

const INVALID_REGULAR_EXPRESSION = '2201B';

const queryError = (message: string): ApiValidationError => new ApiValidationError({ q: [`Could not parse query string: ${message}`] });

/** `q` of a request compiled, or 400 `{"q": ["Could not parse query string: …"]}`; null when absent or empty. */
export function compileRequestSearch(q: unknown, params: unknown[]): CompiledSearch | null {
  if (q === undefined || q === '') return null;
  try {
    if (typeof q !== 'string') throw new SearchQueryError('Expected one query string');
    return compileSearch(q, params);
  } catch (error) {
    if (error instanceof SearchQueryError) throw queryError(error.message);
    throw error;
  }
}

/**
 * `search`'s condition ready to run on `db`, with its parameters: when it has `source:`/`context:` terms, their
 * own-text units are read first (one small statement each) and every term that found at most OWN_TEXT_IDS_CAP
 * of them is compiled again as a condition on the unit with those ids (search-fields.ts throughSourceUnits).
 * `baseParams`: the caller's parameters before the search's own (the search's placeholders follow them).
 * Run it inside runSearch's `work`, so a regular expression in those statements has the same time limit.
 */
export interface ResolvedSearch {
  sql: string;
  params: unknown[];
}

export async function resolveSearch(db: DataSource | EntityManager, search: CompiledSearch, baseParams: readonly unknown[], searchParams: readonly unknown[]): Promise<ResolvedSearch> {
  if (search.ownTextLookups.length === 0) return { sql: search.sql, params: [...searchParams] };
  const ids: Array<OwnTextIds | null> = [];
  for (const lookup of search.ownTextLookups) {
    const [{ found, ids: text }]: Array<{ found: number; ids: OwnTextIds }> = await db.query(lookup.sql, lookup.params);
    ids.push(found <= OWN_TEXT_IDS_CAP ? text : null);
  }
  if (ids.every((found) => found === null)) return { sql: search.sql, params: [...searchParams] };
  const params = [...baseParams];
  return { sql: search.withOwnTextIds(ids, params), params };
}

function errorCode(error: unknown): unknown {
  const record = error as { code?: unknown; driverError?: { code?: unknown } } | null;
  return record?.code ?? record?.driverError?.code;
}

/**
 * Runs `work` for `search`: directly, or for a regular-expression search inside a transaction limited to
 * `regexTimeoutMs`, turning a bad or too costly pattern into a 400.
 */
export async function runSearch<T>(dataSource: DataSource, search: CompiledSearch | null, regexTimeoutMs: number, work: (db: DataSource | EntityManager) => Promise<T>): Promise<T> {
  if (!search?.usesRegex) return work(dataSource);
  try {
    return await dataSource.transaction(async (manager) => {
      // pg_settings reports the session's limit in ms; 0 means none.
      await manager.query(
        `SELECT set_config('statement_timeout', CASE WHEN s.setting::bigint = 0 OR s.setting::bigint > $1 THEN $1::text ELSE s.setting END, true)
           FROM pg_settings s WHERE s.name = 'statement_timeout'`,
        [regexTimeoutMs],
      );
      return work(manager);
    });
  } catch (error) {
    if (errorCode(error) === INVALID_REGULAR_EXPRESSION || isStatementTimeout(error)) {
      throw queryError(`Invalid regular expression: ${(error as Error).message}`);
    }
    throw error;
  }
}
