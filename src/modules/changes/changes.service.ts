import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { changeVisibleSql } from '../../common/auth/access-sql';
import type { DetailRead } from '../../common/auth/read-with-access';
import { notFound } from '../../common/http/api-errors';
import { PreparedStatement } from '../../database/prepared-statement';
import type { ApiCaller } from '../../common/http/request-context';
import { PageRequest, resolvePage, ResolvedPage } from '../../common/pagination/page-params';
import { TranslationLookup } from '../translations/translation-lookup.service';
import { parseCursorParameters } from './change-cursor';
import { ChangeFeed, encodeFeedPosition, FEED_START, type FeedPosition } from './change-feed';
import { ChangeFilters, parseChangeFilters } from './change-filters';
import { ChangeRow } from './change.response';

/** Which changes a list covers: all, or those of one project, component or translation (§5.6–§5.10). */
export type ChangeScope =
  | { kind: 'all' }
  | { kind: 'project'; projectSlug: string }
  | { kind: 'component'; projectSlug: string; componentSlug: string }
  | { kind: 'translation'; projectSlug: string; componentSlug: string; languageCode: string };

export interface ChangePage {
  page: ResolvedPage;
  count: number;
  rows: ChangeRow[];
}

/** A page of a cursor walk: the changes after the cursor in feed order, each with its own position token. */
export interface ChangeCursorPage {
  rows: ChangeRow[];
  /** The token of the last row's position; null when the page is empty. */
  nextCursor: string | null;
}

/**
 * What a changes list or stream selects, resolved once per request: the scope's column and id (null for all
 * changes) and the query's filters. The visibility condition is added for each read (it depends on the caller).
 */
export interface ChangeSelection {
  scope: { column: 'project_id' | 'component_id' | 'translation_id'; id: number } | null;
  filters: ChangeFilters;
}

/** Adds a value to a statement's parameters and answers its placeholder. */
export type SqlParam = (value: unknown) => string;

/**
 * Changes with every link target resolved by joins: the component (and its project) and the translation (with
 * its component, project and language) for the URLs, and both users for their usernames.
 */
const CHANGE_SELECT = `
  SELECT ch.id, ch.action, ch.timestamp, ch.target, ch.unit_id,
         cp.slug AS component_project_slug, c.slug AS component_slug,
         tp.slug AS translation_project_slug, tc.slug AS translation_component_slug, tl.code AS translation_language_code,
         uu.username AS user_username, au.username AS author_username
    FROM changes ch
    LEFT JOIN components c ON c.id = ch.component_id
    LEFT JOIN projects cp ON cp.id = c.project_id
    LEFT JOIN translations t ON t.id = ch.translation_id
    LEFT JOIN components tc ON tc.id = t.component_id
    LEFT JOIN projects tp ON tp.id = tc.project_id
    LEFT JOIN languages tl ON tl.id = t.language_id
    LEFT JOIN users uu ON uu.id = ch.user_id
    LEFT JOIN users au ON au.id = ch.author_id`;

// The change detail runs on every GET /api/changes/<id>/: a named statement, planned once per connection
// (docs/performance.md, "Read floor"). Visibility is the auth guard's: the path names the change.
const CHANGE_DETAIL = new PreparedStatement<ChangeRow>(`${CHANGE_SELECT} WHERE ch.id = $1`);

/**
 * The same row read by the auth guard's statement (read-with-access.ts), through `to_json`: the bigint ids and
 * the timestamp as text, as pg answers them here (data-source-options.ts).
 */
export const CHANGE_DETAIL_READ: DetailRead = {
  kind: 'change',
  sql: (n) => `${CHANGE_SELECT.replace('SELECT ch.id, ch.action, ch.timestamp, ch.target, ch.unit_id,', 'SELECT ch.id::text AS id, ch.action, ch.timestamp::text AS timestamp, ch.target, ch.unit_id::text AS unit_id,')} WHERE ch.id = $${n}`,
};

@Injectable()
export class ChangesService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly lookup: TranslationLookup,
    private readonly feed: ChangeFeed,
  ) {}

  /**
   * A page of changes in ascending id order (the 4.x order, weblate-api.md §5.10), filtered by `user`, `action`,
   * `timestamp_after` and `timestamp_before` (§7.2): one scope lookup (for the sub-lists), one count and one
   * joined page query, whatever the page size.
   */
  async list(scope: ChangeScope, query: Record<string, unknown>, pageRequest: PageRequest, caller: ApiCaller | null): Promise<ChangePage> {
    const selection = await this.select(scope, query);
    const params: unknown[] = [];
    const param: SqlParam = (value) => {
      params.push(value);
      return `$${params.length}`;
    };
    const where = this.conditions(selection, caller, 'ch', param).join(' AND ');
    const [{ count }]: Array<{ count: number }> = await this.dataSource.query(`SELECT count(*)::int AS count FROM changes ch WHERE ${where}`, params);
    const page = resolvePage(pageRequest, count);
    // A deep page starts at the id an index-only walk over the skipped changes finds, instead of joining
    // eight tables for every skipped row and discarding it (OFFSET on the full select).
    const start = page.offset > 0 ? ` AND ch.id >= (SELECT ch.id FROM changes ch WHERE ${where} ORDER BY ch.id OFFSET ${param(page.offset)} LIMIT 1)` : '';
    const rows: ChangeRow[] = await this.dataSource.query(`${CHANGE_SELECT} WHERE ${where}${start} ORDER BY ch.id LIMIT ${param(page.size)}`, params);
    return { page, count, rows };
  }

  /**
   * The cursor position a list request names (`cursor` or `id__gt`, change-cursor.ts), or undefined when it names
   * none and the list keeps its page numbers. Read after the scope lookup, as the filters are (404 before 400).
   */
  cursorOf(query: Record<string, unknown>, extraNames: readonly string[] = []): Promise<FeedPosition | undefined> {
    return parseCursorParameters(query, (id) => this.feed.positionOf(id), extraNames);
  }

  /**
   * Up to `size` changes after the request's cursor (or `id__gt`) in feed order (by writing transaction, each
   * handed out only once every older transaction has ended, so none is skipped: change-feed.ts), with the list's
   * scope, filters and the caller's visibility: one feed read and one joined query for the page.
   */
  async listAfter(scope: ChangeScope, query: Record<string, unknown>, size: number, caller: ApiCaller | null): Promise<ChangeCursorPage> {
    const selection = await this.select(scope, query);
    const after = (await this.cursorOf(query)) ?? FEED_START;
    const changes = await this.readFeed(selection, caller, after, size);
    if (changes.length === 0) return { rows: [], nextCursor: null };
    const rows = await this.rowsByIds(changes.map((change) => change.id));
    return { rows, nextCursor: encodeFeedPosition(changes[changes.length - 1]) };
  }

  /** Resolves a list's scope (404 when it does not exist) and then reads its filters (400), as Weblate does. */
  async select(scope: ChangeScope, query: Record<string, unknown>): Promise<ChangeSelection> {
    const resolved = await this.scopeOf(scope);
    return { scope: resolved, filters: parseChangeFilters(query) };
  }

  /** The feed's next finished changes for a selection, with visibility for `caller` evaluated in the same read. */
  readFeed(selection: ChangeSelection, caller: ApiCaller | null, after: FeedPosition, limit: number) {
    // The feed's own parameters are $1–$3; the filter's start at $4.
    const params: unknown[] = [];
    const param: SqlParam = (value) => {
      params.push(value);
      return `$${params.length + 3}`;
    };
    return this.feed.read(after, limit, { conditions: this.conditions(selection, caller, 'c', param), params });
  }

  /** The API rows of these changes, in the order given (one joined query). */
  async rowsByIds(ids: string[]): Promise<ChangeRow[]> {
    const rows: ChangeRow[] = await this.dataSource.query(`${CHANGE_SELECT} WHERE ch.id = ANY($1::bigint[])`, [ids]);
    const byId = new Map(rows.map((row) => [String(row.id), row]));
    return ids.map((id) => byId.get(id)).filter((row): row is ChangeRow => row !== undefined);
  }

  /** `prefetched`: the row the auth guard read (CHANGE_DETAIL_READ), if any. */
  async get(id: string, prefetched?: unknown): Promise<ChangeRow> {
    if (prefetched !== undefined) return prefetched as ChangeRow;
    if (!/^\d{1,18}$/.test(id)) throw notFound();
    const rows = await CHANGE_DETAIL.run(this.dataSource, [id]);
    if (rows.length === 0) throw notFound();
    return rows[0];
  }

  /** The SQL conditions of a selection on changes alias `alias`: scope, visibility and filters. */
  private conditions(selection: ChangeSelection, caller: ApiCaller | null, alias: string, param: SqlParam): string[] {
    // Changes inherit the visibility of their component and project, in every list (src/common/auth/access-sql.ts).
    const conditions = [changeVisibleSql(caller, alias)];
    if (selection.scope !== null) conditions.push(`${alias}.${selection.scope.column} = ${param(selection.scope.id)}`);
    const { filters } = selection;
    if (filters.username !== undefined) conditions.push(`${alias}.user_id IN (SELECT id FROM users WHERE username = ${param(filters.username)})`);
    if (filters.actions !== undefined) conditions.push(`${alias}.action = ANY(${param(filters.actions)}::smallint[])`);
    if (filters.after !== undefined) conditions.push(`${alias}.timestamp >= ${param(filters.after)}::timestamptz`);
    if (filters.before !== undefined) conditions.push(`${alias}.timestamp <= ${param(filters.before)}::timestamptz`);
    return conditions;
  }

  /** The translation list covers changes whose translation is this one (spec, Endpoints rule 2). */
  private async scopeOf(scope: ChangeScope): Promise<ChangeSelection['scope']> {
    switch (scope.kind) {
      case 'all':
        return null;
      case 'project':
        return { column: 'project_id', id: await this.lookup.projectId(scope.projectSlug) };
      case 'component':
        return { column: 'component_id', id: (await this.lookup.component(scope.projectSlug, scope.componentSlug)).id };
      case 'translation': {
        const translation = await this.lookup.translation(scope.projectSlug, scope.componentSlug, scope.languageCode);
        return { column: 'translation_id', id: translation.id };
      }
    }
  }
}
