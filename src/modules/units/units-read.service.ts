import { Inject, Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { translationIdVisibleSql } from '../../common/auth/access-sql';
import type { DetailRead } from '../../common/auth/read-with-access';
import { notFound } from '../../common/http/api-errors';
import type { ApiCaller } from '../../common/http/request-context';
import { PreparedStatement, runNamed } from '../../database/prepared-statement';
import { PageRequest, parsePageRequest, resolvePage, ResolvedPage } from '../../common/pagination/page-params';
import { storedUnitCount } from '../../sync/translation-statistics';
import { TranslationLookup } from '../translations/translation-lookup.service';
import { compileRequestSearch, resolveSearch, runSearch, type CompiledSearch } from './unit-query';
import { UNIT_COLUMNS, UNIT_PAGE_SELECT, UNIT_SELECT, UNIT_TEXT_COLUMNS, UnitRow } from './unit.response';

export interface UnitPage {
  page: ResolvedPage;
  count: number;
  rows: UnitRow[];
  /**
   * What the page is made of in the database, when known without building it: the count and each unit's
   * id and row version (xmin). The response's ETag is derived from it (RequestContext.useVersionTag).
   */
  versions?: Array<string | number>;
}

/** Path ids are positive integers; anything else cannot name a unit (DRF answers 404). */
export function parseUnitId(raw: string): string {
  if (!/^\d{1,18}$/.test(raw)) throw notFound();
  return raw;
}

// The unfiltered page of a translation, the busiest read of the API, is one prepared statement: the
// translation found by its path, its stored total, its highest position (the end of the (translation_id,
// position) index, read once: MATERIALIZED keeps the planner from running it per unit row) and the units of
// the page's position range. A LEFT JOIN keeps one row (with no unit) when
// the range is empty, so a missing translation and an empty page stay apart.
type PositionRangeRow = UnitRow & { found_translation_id: number; translation_total: number; last_position: number | null; row_version: string | null };
const POSITION_RANGE = new PreparedStatement<PositionRangeRow>(
  `WITH tr AS MATERIALIZED (
     SELECT t.id, t.total, (SELECT max(position) FROM units WHERE translation_id = t.id) AS last_position,
            COALESCE(t.plural_number, l.plural_number) AS plural_number
       FROM translations t JOIN components c ON c.id = t.component_id JOIN projects p ON p.id = c.project_id
       JOIN languages l ON l.id = t.language_id
      WHERE p.slug = $1 AND c.slug = $2 AND l.code = $3
   )
   SELECT ${UNIT_COLUMNS}, $1::text AS project_slug, $2::text AS component_slug, $3::text AS language_code,
          tr.plural_number, u.xmin::text AS row_version, tr.id AS found_translation_id, tr.total AS translation_total, tr.last_position
     FROM tr LEFT JOIN units u ON u.translation_id = tr.id AND u.position BETWEEN $4 AND $5
    ORDER BY u.position, u.id`,
);

/**
 * The plain units page read by the auth guard's statement (read-with-access.ts; docs/performance.md, "Units
 * pages read with the access statement"): the translation's stored total, its highest position, its plural
 * and the units of the page's position range as one JSON array, with the path's slugs as `$n..$n+2` and the
 * range as `$n+3`, `$n+4` (from `page`/`page_size`). Only a plain page is read so: a search (`q`) or
 * `page=last` (which needs the total first) is left to listForTranslation's other paths, and so is anything
 * parsePageRequest would refuse, which the handler then answers with its 404 after the guard's checks.
 * The rows are POSITION_RANGE's, selected as text where `to_json` would change pg's answer (bigints,
 * timestamptz), and the dense-positions check runs on them as on POSITION_RANGE's (positionPage).
 */
export const UNITS_PAGE_READ: DetailRead = {
  kind: 'translation',
  sql: (n) => `SELECT t.total AS translation_total, (SELECT max(position) FROM units WHERE translation_id = t.id) AS last_position,
                      COALESCE(t.plural_number, l.plural_number) AS plural_number,
                      (SELECT json_agg(r ORDER BY r.position, r.id::bigint)
                         FROM (SELECT ${UNIT_TEXT_COLUMNS}, u.xmin::text AS row_version
                                 FROM units u WHERE u.translation_id = t.id AND u.position BETWEEN $${n + 3} AND $${n + 4}) r) AS units
                 FROM translations t JOIN components c ON c.id = t.component_id JOIN projects p ON p.id = c.project_id
                 JOIN languages l ON l.id = t.language_id
                WHERE p.slug = $${n} AND c.slug = $${n + 1} AND l.code = $${n + 2}`,
  queryParams: (query) => {
    if (query.q !== undefined && query.q !== '') return null;
    const request = parsePageRequest(query);
    if (request.page === 'last') return null;
    const offset = (request.page - 1) * request.size;
    return [offset + 1, offset + request.size];
  },
};

/** The row UNITS_PAGE_READ answers (through `to_json`): `units` is null when the range holds none. */
interface PrefetchedUnitsPage {
  translation_total: number;
  last_position: number | null;
  plural_number: number;
  units: Array<UnitRow & { row_version: string }> | null;
}

// The unit detail, a named statement like the page (docs/performance.md, "Read floor"); visibility is the
// auth guard's (the path names the unit).
const UNIT_DETAIL = new PreparedStatement<UnitRow>(`${UNIT_SELECT} WHERE u.id = $1`);

/**
 * The same row read by the auth guard's statement (read-with-access.ts). It arrives through `to_json`, so the
 * bigint and timestamptz columns are selected as text, which is what pg answers for them here (the ids and
 * hashes as strings, timestamps as text: data-source-options.ts).
 */
export const UNIT_DETAIL_READ: DetailRead = {
  kind: 'unit',
  sql: (n) => `${UNIT_SELECT.replace(UNIT_COLUMNS, UNIT_TEXT_COLUMNS)} WHERE u.id = $${n}`,
};

type VersionedUnitRow = UnitRow & { row_version: string | null };

/** The guard's page as UnitRows: the slugs are the path's (as POSITION_RANGE selects them), the plural the translation's. */
function prefetchedRows(page: PrefetchedUnitsPage, projectSlug: string, componentSlug: string, languageCode: string): VersionedUnitRow[] {
  const rows = page.units ?? [];
  for (const row of rows) {
    row.project_slug = projectSlug;
    row.component_slug = componentSlug;
    row.language_code = languageCode;
    row.plural_number = page.plural_number;
  }
  return rows;
}

/**
 * The page from the rows of its position range, or null when the numbering is not dense (positionPage): the
 * largest position must equal the stored total and the rows must be exactly the range's positions.
 */
function densePage(pageRequest: PageRequest, rows: VersionedUnitRow[], total: number, lastPosition: number | null): UnitPage | null {
  const resolved = resolvePage(pageRequest, total);
  const expected = Math.max(0, Math.min(resolved.size, total - resolved.offset));
  const dense = rows.length > 0 && lastPosition === total && rows.length === expected && rows.every((row, index) => row.position === resolved.offset + 1 + index);
  if (!dense) return null;
  // Every wire field of a unit comes from its row and the translation's plural (targets are fitted to it),
  // so the row versions, the plural and the count name the page.
  return { page: resolved, count: total, rows, versions: [total, rows[0].plural_number, ...rows.map((row) => `${row.id}:${row.row_version}`)] };
}

/** Unit reads: every list is one count and one joined page query, whatever the page size (no N+1). */
@Injectable()
export class UnitsReadService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly lookup: TranslationLookup,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * Units of one translation, ordered by position (api-spec.md: `results` is ordered by position 1..count;
   * Weblate orders by id, which agrees for imported files).
   */
  async listForTranslation(
    projectSlug: string,
    componentSlug: string,
    languageCode: string,
    query: Record<string, unknown>,
    pageRequest: PageRequest,
    prefetched?: unknown,
  ): Promise<UnitPage> {
    const q = query.q;
    if (pageRequest.page !== 'last' && (q === undefined || q === '')) {
      // The guard read the page (UNITS_PAGE_READ) only for a plain page, which this is; when the numbering
      // is not dense, the general path below answers, as after POSITION_RANGE.
      const read = prefetched as PrefetchedUnitsPage | undefined;
      const fast =
        read !== undefined
          ? densePage(pageRequest, prefetchedRows(read, projectSlug, componentSlug, languageCode), read.translation_total, read.last_position)
          : await this.positionPage(projectSlug, componentSlug, languageCode, pageRequest);
      if (fast !== null) return fast;
    }
    const translation = await this.lookup.translation(projectSlug, componentSlug, languageCode);
    const params: unknown[] = [translation.id];
    const search = compileRequestSearch(query.q, params);
    return this.page('u.translation_id = $1', 't.id = $1', [translation.id], params, ['position', 'id'], pageRequest, search);
  }

  /**
   * An unfiltered page of one translation without OFFSET or count(*) (architecture.md "Deep pages cost about
   * what the first page costs"): the count is the stored `total`, kept in the transaction of every unit
   * insert and delete, and since the units of a translation hold positions 1..count (scans number them in
   * file order, adds append, removals close the gap) page p is `position BETWEEN offset+1 AND offset+size`,
   * an index range on (translation_id, position). As a guard against a writer breaking that numbering, the
   * largest position must equal the count and the rows must come back as exactly those positions; otherwise
   * null is answered and the page is read the general way (count + OFFSET). The guard cannot see every broken
   * numbering (a duplicate balanced by a gap below the page keeps both true); a unique index on
   * (translation_id, position) would make the numbering a constraint (docs/performance.md).
   */
  private async positionPage(projectSlug: string, componentSlug: string, languageCode: string, pageRequest: PageRequest): Promise<UnitPage | null> {
    const page = pageRequest.page as number;
    const offset = (page - 1) * pageRequest.size;
    const found = await POSITION_RANGE.run(this.dataSource, [projectSlug, componentSlug, languageCode, offset + 1, offset + pageRequest.size]);
    if (found.length === 0) throw notFound();
    // The extra columns are not wire fields: toUnitResponse lists the fields it writes.
    return densePage(pageRequest, found[0].id === null ? [] : found, found[0].translation_total, found[0].last_position);
  }

  /** `/api/units/`: every unit ordered by id (weblate-api.md §5.9), LargePagination. */
  async listAll(query: Record<string, unknown>, pageRequest: PageRequest, caller: ApiCaller | null): Promise<UnitPage> {
    const params: unknown[] = [];
    const search = compileRequestSearch(query.q, params);
    // Only units of components the caller can see (src/common/auth/access-sql.ts), as a filter on units
    // against the visible translation ids computed once per statement, never a join the planner could
    // repeat per component (issue 10 item 5).
    return this.page(translationIdVisibleSql(caller, 'u.translation_id'), translationIdVisibleSql(caller, 't.id'), [], params, ['id'], pageRequest, search);
  }

  /** `prefetched`: the row the auth guard read (UNIT_DETAIL_READ), if any. */
  async get(id: string, prefetched?: unknown): Promise<UnitRow> {
    if (prefetched !== undefined) return prefetched as UnitRow;
    const rows = await UNIT_DETAIL.run(this.dataSource, [parseUnitId(id)]);
    if (rows.length === 0) throw notFound();
    return rows[0];
  }

  /**
   * The page's unit ids are chosen from units alone (a MATERIALIZED CTE: the planner may not merge it into
   * the outer query), then only those rows are joined to their translation, component, project and language.
   * Joined before the LIMIT, a misestimated join read every unit once per component (issue 10 item 5: a search
   * over 20 components took 1.2 s instead of 1 ms), and an OFFSET joined each skipped row before dropping it;
   * now a deep page walks the index of its order for the skipped ids only. `order`: unit columns, ending with
   * `id` so the order is total. `scope`: the condition on `u` around the search's (every unit without `q`), whose
   * `source:`/`context:` terms may first read their source units' ids (resolveSearch); `baseParams` are the
   * parameters `scope` itself uses, `params` those plus the search's as compiled. `translations`: the same
   * scope as a condition on the translations row `t` (it may use `baseParams`), for counts the translations'
   * statistics keep (readCountedPage).
   */
  private page(
    scope: string,
    translations: string,
    baseParams: readonly unknown[],
    params: unknown[],
    order: readonly string[],
    pageRequest: PageRequest,
    search: CompiledSearch | null,
  ): Promise<UnitPage> {
    return runSearch(this.dataSource, search, this.config.searchRegexTimeoutMs, async (db) => {
      if (search === null) return this.readPage(unnamedQuery(db), matchingUnits(null, scope, order), params, order, pageRequest);
      // A search that added no parameter of its own (`has:check`, `state:<translated`: its values are inlined
      // codes) is a handful of statement texts per caller kind, run as named statements: parsed once per
      // connection and, with PostgreSQL's generic plan, no longer planned per request (the anonymous
      // caller's team rules made planning about 1.5 ms of a request). User text (a pattern, a word, the
      // own-text ids of `source:`) stays in unnamed statements, whose plans see its values. Only first pages:
      // their LIMIT and OFFSET are written as literals (with them as parameters PostgreSQL kept planning the
      // page statement, its generic plan being costed for an unknown LIMIT), and deeper pages are rarer.
      const named = pageRequest.page === 1 && params.length === baseParams.length && search.ownTextLookups.length === 0 && !search.usesRegex;
      const query = named ? namedQuery(db) : unnamedQuery(db);
      const counted = search.ownTextLookups.length === 0 && !search.usesRegex ? storedUnitCount(search.sql, 't') : null;
      if (counted !== null) {
        const countSql = `SELECT COALESCE(sum(${counted}), 0)::int AS count FROM translations t WHERE ${translations}`;
        return this.readCountedPage(query, matchingUnits([search.sql], scope, order), countSql, params, order, pageRequest);
      }
      const resolved = await resolveSearch(db, search, baseParams, params);
      const from = matchingUnits(resolved.branches ?? [resolved.sql], scope, order);
      const found = await this.readSmallSearch(query, from, resolved.params, order, pageRequest);
      return found ?? this.readPage(query, from, resolved.params, order, pageRequest);
    });
  }

  /** `from`: the matching units (matchingUnits). */
  private async readPage(query: Query, from: string, params: unknown[], order: readonly string[], pageRequest: PageRequest): Promise<UnitPage> {
    const count = await countMatches(query, from, params);
    const page = resolvePage(pageRequest, count);
    const orderBy = columnsOf('u', order);
    const sql = `WITH page AS MATERIALIZED (
                   SELECT u.id FROM ${from} ORDER BY ${orderBy} ${limitOffset(query, params, page.size, page.offset)}
                 )${UNIT_PAGE_SELECT}
                 ORDER BY ${orderBy}`;
    const rows = (await query(sql, pageParams(query, params, page.size, page.offset))) as UnitRow[];
    return { page, count, rows };
  }

  /**
   * The page of a search whose count the translations' statistics keep (storedUnitCount: `state:<translated`,
   * `has:check`, `is:translated`, …), with that count, in one statement: the page's ids are an index range of
   * the search's order (the partial indexes of SearchFilterIndexes), and the count is a sum over the scope's
   * translations instead of a walk over every matching unit, 50,000 index entries for `state:<translated`
   * over 300,000 units (issue 13). A page without rows (past the end, or nothing matches) and `page=last`
   * read the count first, as readPage does.
   */
  private async readCountedPage(query: Query, from: string, countSql: string, params: unknown[], order: readonly string[], pageRequest: PageRequest): Promise<UnitPage> {
    const orderBy = columnsOf('u', order);
    const pageSql = (size: number, offset: number, extraColumns: string) => `WITH page AS MATERIALIZED (
                   SELECT u.id FROM ${from} ORDER BY ${orderBy} ${limitOffset(query, params, size, offset)}
                 )
                 SELECT ${pageRowsAsJson(order)} AS units${extraColumns}`;
    if (pageRequest.page !== 'last') {
      const offset = (pageRequest.page - 1) * pageRequest.size;
      const sql = pageSql(pageRequest.size, offset, `, (${countSql}) AS stored_count`);
      const [{ units, stored_count: count }] = (await query(sql, pageParams(query, params, pageRequest.size, offset))) as Array<{ units: UnitRow[] | null; stored_count: number }>;
      if (units !== null) return { page: resolvePage(pageRequest, count), count, rows: units };
    }
    const [{ count }] = (await query(countSql, params)) as Array<{ count: number }>;
    const page = resolvePage(pageRequest, count);
    if (pageRequest.page !== 'last' || count === 0) return { page, count, rows: [] };
    const [{ units }] = (await query(pageSql(page.size, page.offset, ''), pageParams(query, params, page.size, page.offset))) as Array<{ units: UnitRow[] | null }>;
    return { page, count, rows: units ?? [] };
  }

  /**
   * A search's count and page in one statement, from the first SEARCH_SET_CAP + 1 matching units in the page's
   * order. A search whose matches the database must all collect before it can order them (a text search
   * through source units: `source:"word"` finds 500 source units, then their 2,500 translations) used to do
   * that twice, for the count and for the page; now once (docs/performance.md, "Search CPU"). When more units
   * match, the page is still right (it lies within the first ones) and only the count is read again, which
   * costs an index-ordered search (`state:`, `has:check`) the walk over those ids, about 0.5 ms. Null for
   * what this cannot answer: `page=last`, a page past the cap, an empty page after the first (count and 404
   * decided by readPage).
   */
  private async readSmallSearch(query: Query, from: string, params: unknown[], order: readonly string[], pageRequest: PageRequest): Promise<UnitPage | null> {
    if (pageRequest.page === 'last') return null;
    const offset = (pageRequest.page - 1) * pageRequest.size;
    if (offset + pageRequest.size > SEARCH_SET_CAP) return null;
    const sql = `WITH matched AS MATERIALIZED (
                   SELECT ${columnsOf('u', order)} FROM ${from} ORDER BY ${columnsOf('u', order)} LIMIT ${SEARCH_SET_CAP + 1}
                 ), page AS MATERIALIZED (
                   SELECT m.id FROM matched m ORDER BY ${columnsOf('m', order)} ${limitOffset(query, params, pageRequest.size, offset)}
                 )
                 SELECT ${pageRowsAsJson(order)} AS units, (SELECT count(*) FROM matched)::int AS matched_count`;
    const [{ units, matched_count: matched }] = (await query(sql, pageParams(query, params, pageRequest.size, offset))) as Array<{ units: UnitRow[] | null; matched_count: number }>;
    const rows = units ?? [];
    // No row on page 1: nothing matches. On a later page: past the end (404) or past the cap; readPage decides.
    if (rows.length === 0) return offset === 0 ? { page: resolvePage(pageRequest, 0), count: 0, rows } : null;
    const count = matched <= SEARCH_SET_CAP ? matched : await countMatches(query, from, params);
    return { page: resolvePage(pageRequest, count), count, rows };
  }
}

/**
 * The rows of the `page` CTE's units (UNIT_PAGE_SELECT) in `order`, as one JSON array: a search page reaches
 * Node as one value parsed at once, instead of 200 rows parsed as they arrive over several socket reads, which
 * under concurrent requests survived young-generation collections and were promoted, making old-space
 * collections every few hundred milliseconds (docs/performance.md, "Indexed search, session 10"). The
 * bigint and timestamptz columns are text (UNIT_TEXT_COLUMNS), as pg answers them, so the rows are the same.
 */
function pageRowsAsJson(order: readonly string[]): string {
  const orderBy = order.map((column) => (column === 'id' ? 'r.id::bigint' : `r.${column}`)).join(', ');
  return `(SELECT json_agg(r ORDER BY ${orderBy}) FROM (${UNIT_PAGE_SELECT.replace(UNIT_COLUMNS, UNIT_TEXT_COLUMNS)}) r)`;
}

/** How many units `from` holds (matchingUnits). */
async function countMatches(query: Query, from: string, params: unknown[]): Promise<number> {
  const [{ count }] = (await query(`SELECT count(*)::int AS count FROM ${from}`, params)) as Array<{ count: number }>;
  return count;
}

/**
 * The units in `scope` matching any of `conditions` (disjoint conditions over `u`; null: every unit of the
 * scope), as what follows FROM, named `u`, with at least the `order` columns. One condition is a plain scan of
 * units. Two are the branches of a `source:` / `context:` term (ResolvedSearch.branches), read as a UNION ALL
 * so that each uses its own index: the trigram index for the units holding the text and an index-only scan of
 * IDX_units_linked_to_source for the 2,500 units linked to them, instead of a bitmap OR that visited every
 * matching unit's table page (issue 13: `source:"word"` over 300,000 units, docs/performance.md "Indexed
 * search, session 10"). The scope is applied once to the union (OFFSET 0 keeps the planner from copying it
 * into each branch, which planned an anonymous caller's visibility rules twice).
 */
function matchingUnits(conditions: readonly string[] | null, scope: string, order: readonly string[]): string {
  if (conditions === null) return `units u WHERE ${scope}`;
  if (conditions.length === 1) return `units u WHERE (${conditions[0]}) AND ${scope}`;
  const columns = `${columnsOf('u', order)}, u.translation_id`;
  return `(${conditions.map((condition) => `SELECT ${columns} FROM units u WHERE ${condition}`).join(' UNION ALL ')} OFFSET 0) u WHERE ${scope}`;
}

/** Runs one statement of a unit list and answers its rows. */
interface Query {
  (sql: string, params: unknown[]): Promise<unknown[]>;
  /** Named statements (prepared-statement.ts runNamed: a few per connection); unnamed otherwise. */
  named: boolean;
}

const unnamedQuery = (db: DataSource | EntityManager): Query => Object.assign((sql: string, params: unknown[]) => db.query(sql, params), { named: false });

const namedQuery = (db: DataSource | EntityManager): Query => Object.assign((sql: string, params: unknown[]) => runNamed(db, sql, params), { named: true });

/**
 * The page's LIMIT and OFFSET: parameters after `params`, or for a named statement literals (integers from
 * parsePageRequest), so that its generic plan is the plan of this page.
 */
function limitOffset(query: Query, params: readonly unknown[], size: number, offset: number): string {
  return query.named ? `LIMIT ${Math.trunc(size)} OFFSET ${Math.trunc(offset)}` : `LIMIT $${params.length + 1} OFFSET $${params.length + 2}`;
}

/** The parameters of a statement whose page limitOffset wrote: `params`, then the size and offset unless they are literals. */
function pageParams(query: Query, params: readonly unknown[], size: number, offset: number): unknown[] {
  return query.named ? [...params] : [...params, size, offset];
}

/** How many matching units readSmallSearch collects to count a search and take its page in one statement. */
const SEARCH_SET_CAP = 5000;

const columnsOf = (alias: string, columns: readonly string[]): string => columns.map((column) => `${alias}.${column}`).join(', ');
