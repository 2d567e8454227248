import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { changeVisibleSql } from '../../common/auth/access-sql';
import { notFound } from '../../common/http/api-errors';
import type { ApiCaller } from '../../common/http/request-context';
import { PageRequest, resolvePage, ResolvedPage } from '../../common/pagination/page-params';
import { TranslationLookup } from '../translations/translation-lookup.service';
import { parseChangeFilters } from './change-filters';
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

@Injectable()
export class ChangesService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly lookup: TranslationLookup,
  ) {}

  /**
   * A page of changes in ascending id order (the 4.x order, weblate-api.md §5.10), filtered by `user`, `action`,
   * `timestamp_after` and `timestamp_before` (§7.2): one scope lookup (for the sub-lists), one count and one
   * joined page query, whatever the page size.
   */
  async list(scope: ChangeScope, query: Record<string, unknown>, pageRequest: PageRequest, caller: ApiCaller | null): Promise<ChangePage> {
    const params: unknown[] = [];
    const param = (value: unknown): string => {
      params.push(value);
      return `$${params.length}`;
    };
    // Changes inherit the visibility of their component and project, in every list (src/common/auth/access-sql.ts).
    const conditions = [await this.scopeCondition(scope, param), changeVisibleSql(caller, 'ch')];
    // After the scope lookup, as Weblate resolves the object (404) before filtering (400).
    const filters = parseChangeFilters(query);
    if (filters.username !== undefined) conditions.push(`ch.user_id IN (SELECT id FROM users WHERE username = ${param(filters.username)})`);
    if (filters.actions !== undefined) conditions.push(`ch.action = ANY(${param(filters.actions)}::smallint[])`);
    if (filters.after !== undefined) conditions.push(`ch.timestamp >= ${param(filters.after)}::timestamptz`);
    if (filters.before !== undefined) conditions.push(`ch.timestamp <= ${param(filters.before)}::timestamptz`);
    const where = conditions.join(' AND ');
    const [{ count }]: Array<{ count: number }> = await this.dataSource.query(`SELECT count(*)::int AS count FROM changes ch WHERE ${where}`, params);
    const page = resolvePage(pageRequest, count);
    // A deep page starts at the id an index-only walk over the skipped changes finds, instead of joining
    // eight tables for every skipped row and discarding it (OFFSET on the full select).
    const start = page.offset > 0 ? ` AND ch.id >= (SELECT ch.id FROM changes ch WHERE ${where} ORDER BY ch.id OFFSET ${param(page.offset)} LIMIT 1)` : '';
    const rows: ChangeRow[] = await this.dataSource.query(`${CHANGE_SELECT} WHERE ${where}${start} ORDER BY ch.id LIMIT ${param(page.size)}`, params);
    return { page, count, rows };
  }

  async get(id: string): Promise<ChangeRow> {
    if (!/^\d{1,18}$/.test(id)) throw notFound();
    const rows: ChangeRow[] = await this.dataSource.query(`${CHANGE_SELECT} WHERE ch.id = $1`, [id]);
    if (rows.length === 0) throw notFound();
    return rows[0];
  }

  /** The translation list covers changes whose translation is this one (spec, Endpoints rule 2). */
  private async scopeCondition(scope: ChangeScope, param: (value: unknown) => string): Promise<string> {
    switch (scope.kind) {
      case 'all':
        return 'TRUE';
      case 'project':
        return `ch.project_id = ${param(await this.lookup.projectId(scope.projectSlug))}`;
      case 'component':
        return `ch.component_id = ${param((await this.lookup.component(scope.projectSlug, scope.componentSlug)).id)}`;
      case 'translation': {
        const translation = await this.lookup.translation(scope.projectSlug, scope.componentSlug, scope.languageCode);
        return `ch.translation_id = ${param(translation.id)}`;
      }
    }
  }
}
