import { Inject, Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { translationIdVisibleSql } from '../../common/auth/access-sql';
import type { DetailRead } from '../../common/auth/read-with-access';
import { notFound } from '../../common/http/api-errors';
import type { ApiCaller } from '../../common/http/request-context';
import type { LinkBuilder } from '../../common/links/link-builder';
import { RawJson } from '../../common/serialization/json-writer';
import { PreparedStatement, runNamed } from '../../database/prepared-statement';
import { PageRequest, parsePageRequest, resolvePage, ResolvedPage } from '../../common/pagination/page-params';
import { storedUnitCount } from '../../sync/translation-statistics';
import { TranslationLookup } from '../translations/translation-lookup.service';
import { columnsOf, matchingUnits, ownTextUnionFrom } from './search/matching-units';
import { compileRequestSearch, resolveSearch, runSearch, type CompiledSearch } from './unit-query';
import { translationPathSql, unitJsonSql, unitLinkParams, unitLinkSql, unitPageJsonSql, unitsByIdSql, unitVersionSql, type UnitLinkSql } from './unit.response';

export interface UnitPage {
  page: ResolvedPage;
  count: number;
  /** The page's units as one JSON array (unit.response.ts unitPageJsonSql), written as it is. */
  results: RawJson;
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

/**
 * A position range's units aggregated in unit order: their JSON array (`units_json`, null for none), and each
 * one's position and `id:xmin` row version, which the dense-positions check and the entity tag use (densePage).
 * `translation`: the translation row's alias with its `path` and `plural_number` (translationPathSql).
 */
const rangeAggregates = (translation: string, links: UnitLinkSql): string => {
  const unit = unitJsonSql('u', { path: `${translation}.path`, pluralNumber: `${translation}.plural_number` }, links);
  return `'[' || string_agg(${unit}::text, ',' ORDER BY u.position, u.id) || ']' AS units_json,
          array_agg(u.position ORDER BY u.position, u.id) FILTER (WHERE u.id IS NOT NULL) AS positions,
          array_agg(u.id::text || ':' || u.xmin::text ORDER BY u.position, u.id) FILTER (WHERE u.id IS NOT NULL) AS versions`;
};

/**
 * A page's position bound as the planner must leave it unknown: an initplan's output, which even a custom plan
 * cannot look into. With the bare parameter, each request's custom plan expected the page's 50 rows and the
 * generic plan the default range share of a translation (250 of 50,000), whose per-row JSON looked five times
 * dearer, so PostgreSQL planned the statement again on every request (about 1 ms, more than its execution:
 * docs/performance.md "Unit JSON from PostgreSQL"). Both plans now expect the same rows, and after its five
 * custom plans PostgreSQL keeps the generic one; the index range scan takes the bound as before.
 */
const planFree = (parameter: string): string => `(SELECT ${parameter}::int)`;

/** A translation found by its path's slugs `$first`…`$first + 2`, with what its units' JSON needs. */
const translationByPath = (first: number): string => `
  SELECT t.id, t.total, (SELECT max(position) FROM units WHERE translation_id = t.id) AS last_position,
         COALESCE(t.plural_number, l.plural_number) AS plural_number, ${translationPathSql('p.slug', 'c.slug', 'l.code')} AS path
    FROM translations t JOIN components c ON c.id = t.component_id JOIN projects p ON p.id = c.project_id
    JOIN languages l ON l.id = t.language_id
   WHERE p.slug = $${first} AND c.slug = $${first + 1} AND l.code = $${first + 2}`;

/** A translation's position range read by POSITION_RANGE or UNITS_PAGE_READ. */
interface PositionRangeRow {
  translation_total: number;
  last_position: number | null;
  plural_number: number;
  units_json: string | null;
  positions: number[] | null;
  versions: string[] | null;
}

// The unfiltered page of a translation, the busiest read of the API, is one prepared statement: the
// translation found by its path, its stored total, its highest position (the end of the (translation_id,
// position) index, read once: MATERIALIZED keeps the planner from running it per unit row) and the units of
// the page's position range ($4, $5), with the links' pieces as $6…$8. The LEFT JOIN keeps one row when the
// range is empty, so a missing translation (no row) and an empty page stay apart.
const POSITION_RANGE = new PreparedStatement<PositionRangeRow>(
  `WITH tr AS MATERIALIZED (${translationByPath(1)})
   SELECT tr.total AS translation_total, tr.last_position, tr.plural_number, ${rangeAggregates('tr', unitLinkSql(6))}
     FROM tr LEFT JOIN units u ON u.translation_id = tr.id AND u.position BETWEEN ${planFree('$4')} AND ${planFree('$5')}
    GROUP BY tr.id, tr.total, tr.last_position, tr.plural_number, tr.path`,
);

/**
 * The plain units page read by the auth guard's statement (read-with-access.ts; docs/performance.md, "Units
 * pages read with the access statement"): POSITION_RANGE's row, with the path's slugs as `$n..$n+2`, the
 * range as `$n+3`, `$n+4` (from `page`/`page_size`) and the links' pieces after them. Only a plain page is
 * read so: a search (`q`) or `page=last` (which needs the total first) is left to listForTranslation's other
 * paths, and so is anything parsePageRequest would refuse, which the handler then answers with its 404 after
 * the guard's checks. The units' JSON reaches the handler as its text (DetailRead.rawColumn).
 */
export const UNITS_PAGE_READ: DetailRead = {
  kind: 'translation',
  sql: (n) => `SELECT tr.total AS translation_total, tr.last_position, tr.plural_number, range.*
                 FROM (${translationByPath(n)}) tr
                CROSS JOIN LATERAL (
                  SELECT ${rangeAggregates('tr', unitLinkSql(n + 5))}
                    FROM units u WHERE u.translation_id = tr.id AND u.position BETWEEN ${planFree(`$${n + 3}`)} AND ${planFree(`$${n + 4}`)}
                ) range`,
  queryParams: (query, links) => {
    if (query.q !== undefined && query.q !== '') return null;
    const request = parsePageRequest(query);
    if (request.page === 'last') return null;
    const offset = (request.page - 1) * request.size;
    return [offset + 1, offset + request.size, ...unitLinkParams(links)];
  },
  rawColumn: 'units_json',
};

// The unit detail, a named statement like the page (docs/performance.md, "Read floor"): the unit's JSON, with
// the links' pieces as $2…$4. Visibility is the auth guard's (the path names the unit).
const UNIT_DETAIL = new PreparedStatement<{ id: string; unit_json: string }>(unitsByIdSql('= $1', unitLinkSql(2)));

/**
 * The same row read by the auth guard's statement (read-with-access.ts), the links' pieces after the unit id.
 * It names the unit's project, component and language too, so the statement finds the unit once, and the version
 * of its rows: the answer is kept, and while the rows stay as they were the guard reads the version alone
 * (docs/performance.md, "Kept answers checked by their version alone, session 26").
 */
export const UNIT_DETAIL_READ: DetailRead = {
  kind: 'unit',
  sql: (n) => unitsByIdSql(`= $${n}`, unitLinkSql(n + 1), true),
  queryParams: (_query, links) => unitLinkParams(links),
  rawColumn: 'unit_json',
  selectsScope: true,
  version: unitVersionSql,
};

/**
 * The page from its position range, or null when the numbering is not dense (positionPage): the largest
 * position must equal the stored total and the units must hold exactly the range's positions.
 */
function densePage(pageRequest: PageRequest, range: PositionRangeRow): UnitPage | null {
  const total = range.translation_total;
  const positions = range.positions ?? [];
  const resolved = resolvePage(pageRequest, total);
  const expected = Math.max(0, Math.min(resolved.size, total - resolved.offset));
  const dense =
    positions.length > 0 && range.last_position === total && positions.length === expected && positions.every((position, index) => position === resolved.offset + 1 + index);
  if (!dense) return null;
  // Every wire field of a unit comes from its row, the translation's plural (targets are fitted to it) and the
  // request's links (part of every tag, RequestContext.useVersionTag), so the row versions, the plural and the
  // count name the page.
  return { page: resolved, count: total, results: new RawJson(range.units_json ?? '[]'), versions: [total, range.plural_number, ...(range.versions ?? [])] };
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
    links: LinkBuilder,
    prefetched?: unknown,
  ): Promise<UnitPage> {
    const q = query.q;
    if (pageRequest.page !== 'last' && (q === undefined || q === '')) {
      // The guard read the page (UNITS_PAGE_READ) only for a plain page, which this is; when the numbering
      // is not dense, the general path below answers, as after POSITION_RANGE.
      const read = prefetched as PositionRangeRow | undefined;
      const fast = read !== undefined ? densePage(pageRequest, read) : await this.positionPage(projectSlug, componentSlug, languageCode, pageRequest, links);
      if (fast !== null) return fast;
    }
    const translation = await this.lookup.translation(projectSlug, componentSlug, languageCode);
    const params: unknown[] = [translation.id];
    const search = compileRequestSearch(query.q, params);
    return this.page('u.translation_id = $1', 't.id = $1', [translation.id], params, ['position', 'id'], pageRequest, search, unitLinkParams(links));
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
  private async positionPage(projectSlug: string, componentSlug: string, languageCode: string, pageRequest: PageRequest, links: LinkBuilder): Promise<UnitPage | null> {
    const page = pageRequest.page as number;
    const offset = (page - 1) * pageRequest.size;
    const found = await POSITION_RANGE.run(this.dataSource, [projectSlug, componentSlug, languageCode, offset + 1, offset + pageRequest.size, ...unitLinkParams(links)]);
    if (found.length === 0) throw notFound();
    return densePage(pageRequest, found[0]);
  }

  /** `/api/units/`: every unit ordered by id (weblate-api.md §5.9), LargePagination. */
  async listAll(query: Record<string, unknown>, pageRequest: PageRequest, caller: ApiCaller | null, links: LinkBuilder): Promise<UnitPage> {
    const params: unknown[] = [];
    const search = compileRequestSearch(query.q, params);
    // Only units of components the caller can see (src/common/auth/access-sql.ts), as a filter on units
    // against the visible translation ids computed once per statement, never a join the planner could
    // repeat per component (issue 10 item 5).
    const scope = translationIdVisibleSql(caller, 'u.translation_id');
    return this.page(scope, translationIdVisibleSql(caller, 't.id'), [], params, ['id'], pageRequest, search, unitLinkParams(links));
  }

  /** The unit's JSON (unit.response.ts unitJsonSql). `prefetched`: the row the auth guard read (UNIT_DETAIL_READ), if any. */
  async get(id: string, links: LinkBuilder, prefetched?: unknown): Promise<RawJson> {
    if (prefetched !== undefined) return new RawJson((prefetched as { unit_json: string }).unit_json);
    const rows = await UNIT_DETAIL.run(this.dataSource, [parseUnitId(id), ...unitLinkParams(links)]);
    if (rows.length === 0) throw notFound();
    return new RawJson(rows[0].unit_json);
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
   * statistics keep (readCountedPage). `linkValues`: the response's link pieces (unitLinkParams), which the
   * statements that build the page's JSON take after their other parameters (withLinks).
   */
  private page(
    scope: string,
    translations: string,
    baseParams: readonly unknown[],
    params: unknown[],
    order: readonly string[],
    pageRequest: PageRequest,
    search: CompiledSearch | null,
    linkValues: readonly string[],
  ): Promise<UnitPage> {
    return runSearch(this.dataSource, search, this.config.searchRegexTimeoutMs, async (db) => {
      if (search === null) return this.readPage(unnamedQuery(db), matchingUnits(null, scope), params, linkValues, order, pageRequest);
      // A search that added no parameter of its own (`has:check`, `state:<translated`: its values are inlined
      // codes) is a handful of statement texts per caller kind, run as named statements: parsed once per
      // connection and, with PostgreSQL's generic plan, no longer planned per request (the anonymous
      // caller's team rules made planning about 1.5 ms of a request). User text (a pattern, a word, the
      // own-text ids of `source:`) stays in unnamed statements, whose plans see its values, except in a one-term
      // `source:`/`context:` search, which hides its text from every plan (search-fields.ts ownTextUnion). Only
      // first pages: their LIMIT and OFFSET are written as literals
      // (with them as parameters PostgreSQL kept planning the page statement, its generic plan being costed for
      // an unknown LIMIT), and deeper pages are rarer.
      const firstPage = pageRequest.page === 1 && !search.usesRegex;
      const named = firstPage && params.length === baseParams.length && search.ownTextLookups.length === 0;
      const query = named ? namedQuery(db) : unnamedQuery(db);
      const counted = search.ownTextLookups.length === 0 && !search.usesRegex ? storedUnitCount(search.sql, 't') : null;
      if (counted !== null) {
        const countSql = `SELECT COALESCE(sum(${counted}), 0)::int AS count FROM translations t WHERE ${translations}`;
        return this.readCountedPage(query, matchingUnits(search.sql, scope), countSql, params, linkValues, order, pageRequest);
      }
      // A query that is one `source:`/`context:` term finds its own-text units in the page's statement; other
      // queries with such terms read them first, one statement each (resolveSearch).
      const unionParams = [...baseParams];
      const union = search.ownTextUnion(unionParams);
      if (union !== null) {
        return this.readSearch(firstPage ? namedQuery(db) : query, ownTextUnionFrom(union, scope, order), unionParams, linkValues, order, pageRequest);
      }
      const resolved = await resolveSearch(db, search, baseParams, params);
      return this.readSearch(query, matchingUnits(resolved.sql, scope), resolved.params, linkValues, order, pageRequest);
    });
  }

  /** A search's page: count and page in one statement where readSmallSearch can, else readPage. */
  private async readSearch(query: Query, from: string, params: unknown[], linkValues: readonly string[], order: readonly string[], pageRequest: PageRequest): Promise<UnitPage> {
    return (await this.readSmallSearch(query, from, params, linkValues, order, pageRequest)) ?? this.readPage(query, from, params, linkValues, order, pageRequest);
  }

  /** `from`: the matching units (matchingUnits). */
  private async readPage(query: Query, from: string, params: unknown[], linkValues: readonly string[], order: readonly string[], pageRequest: PageRequest): Promise<UnitPage> {
    const count = await countMatches(query, from, params);
    const page = resolvePage(pageRequest, count);
    const { all, links } = withLinks(params, linkValues);
    const orderBy = columnsOf('u', order);
    const sql = `WITH page AS MATERIALIZED (
                   SELECT u.id FROM ${from} ORDER BY ${orderBy} ${limitOffset(query, all, page.size, page.offset)}
                 )
                 SELECT ${unitPageJsonSql(orderBy, links)} AS units`;
    const [{ units }] = (await query(sql, pageParams(query, all, page.size, page.offset))) as Array<{ units: string }>;
    return { page, count, results: new RawJson(units) };
  }

  /**
   * The page of a search whose count the translations' statistics keep (storedUnitCount: `state:<translated`,
   * `has:check`, `is:translated`, …), with that count, in one statement: the page's ids are an index range of
   * the search's order (the partial indexes of SearchFilterIndexes), and the count is a sum over the scope's
   * translations instead of a walk over every matching unit, 50,000 index entries for `state:<translated`
   * over 300,000 units (issue 13). A page without rows (past the end, or nothing matches) and `page=last`
   * read the count first, as readPage does.
   */
  private async readCountedPage(query: Query, from: string, countSql: string, params: unknown[], linkValues: readonly string[], order: readonly string[], pageRequest: PageRequest): Promise<UnitPage> {
    const { all, links } = withLinks(params, linkValues);
    const orderBy = columnsOf('u', order);
    const pageSql = (size: number, offset: number, extraColumns: string) => `WITH page AS MATERIALIZED (
                   SELECT u.id FROM ${from} ORDER BY ${orderBy} ${limitOffset(query, all, size, offset)}
                 )
                 SELECT ${unitPageJsonSql(orderBy, links)} AS units${extraColumns}`;
    if (pageRequest.page !== 'last') {
      const offset = (pageRequest.page - 1) * pageRequest.size;
      const sql = pageSql(pageRequest.size, offset, `, (${countSql}) AS stored_count`);
      const [row] = (await query(sql, pageParams(query, all, pageRequest.size, offset))) as Array<{ units: string; stored_count: number }>;
      if (row.units !== EMPTY_PAGE) return { page: resolvePage(pageRequest, row.stored_count), count: row.stored_count, results: new RawJson(row.units) };
    }
    const [{ count }] = (await query(countSql, params)) as Array<{ count: number }>;
    const page = resolvePage(pageRequest, count);
    if (pageRequest.page !== 'last' || count === 0) return { page, count, results: new RawJson(EMPTY_PAGE) };
    const [{ units }] = (await query(pageSql(page.size, page.offset, ''), pageParams(query, all, page.size, page.offset))) as Array<{ units: string }>;
    return { page, count, results: new RawJson(units) };
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
  private async readSmallSearch(query: Query, from: string, params: unknown[], linkValues: readonly string[], order: readonly string[], pageRequest: PageRequest): Promise<UnitPage | null> {
    if (pageRequest.page === 'last') return null;
    const offset = (pageRequest.page - 1) * pageRequest.size;
    if (offset + pageRequest.size > SEARCH_SET_CAP) return null;
    const { all, links } = withLinks(params, linkValues);
    const sql = `WITH matched AS MATERIALIZED (
                   SELECT ${columnsOf('u', order)} FROM ${from} ORDER BY ${columnsOf('u', order)} LIMIT ${SEARCH_SET_CAP + 1}
                 ), page AS MATERIALIZED (
                   SELECT m.id FROM matched m ORDER BY ${columnsOf('m', order)} ${limitOffset(query, all, pageRequest.size, offset)}
                 )
                 SELECT ${unitPageJsonSql(columnsOf('u', order), links)} AS units, (SELECT count(*) FROM matched)::int AS matched_count`;
    const [row] = (await query(sql, pageParams(query, all, pageRequest.size, offset))) as Array<{ units: string; matched_count: number }>;
    // No unit on page 1: nothing matches. On a later page: past the end (404) or past the cap; readPage decides.
    if (row.units === EMPTY_PAGE) return offset === 0 ? { page: resolvePage(pageRequest, 0), count: 0, results: new RawJson(EMPTY_PAGE) } : null;
    const count = row.matched_count <= SEARCH_SET_CAP ? row.matched_count : await countMatches(query, from, params);
    return { page: resolvePage(pageRequest, count), count, results: new RawJson(row.units) };
  }
}

/**
 * The parameters of a statement that builds units' JSON: `params`, then the response's link pieces, which the
 * JSON's SQL (`links`) reads from there; a page's LIMIT and OFFSET parameters follow them (limitOffset).
 */
function withLinks(params: readonly unknown[], linkValues: readonly string[]): { all: unknown[]; links: UnitLinkSql } {
  return { all: [...params, ...linkValues], links: unitLinkSql(params.length + 1) };
}

/** A page without units as unitPageJsonSql writes it (its COALESCE), so an empty page needs no count of its own. */
const EMPTY_PAGE = '[]';

/** How many units `from` holds (matchingUnits). */
async function countMatches(query: Query, from: string, params: unknown[]): Promise<number> {
  const [{ count }] = (await query(`SELECT count(*)::int AS count FROM ${from}`, params)) as Array<{ count: number }>;
  return count;
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
