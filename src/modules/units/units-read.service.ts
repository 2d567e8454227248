import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { visibleComponentIdsSql } from '../../common/auth/access-sql';
import { ApiValidationError, notFound } from '../../common/http/api-errors';
import type { ApiCaller } from '../../common/http/request-context';
import { PageRequest, resolvePage, ResolvedPage } from '../../common/pagination/page-params';
import { TranslationLookup } from '../translations/translation-lookup.service';
import { compileUnitQuery, UnitQueryError } from './unit-query';
import { UNIT_SELECT, UnitRow } from './unit.response';

export interface UnitPage {
  page: ResolvedPage;
  count: number;
  rows: UnitRow[];
}

/** `q` as a SQL condition, or 400 `{"q": ["Could not parse query string: ..."]}` (weblate-api.md §7.1). */
function searchCondition(query: Record<string, unknown>, params: unknown[]): string | null {
  const q = query.q;
  if (q === undefined || q === '') return null;
  try {
    if (typeof q !== 'string') throw new UnitQueryError('Expected one query string');
    return compileUnitQuery(q, params);
  } catch (error) {
    if (error instanceof UnitQueryError) throw new ApiValidationError({ q: [`Could not parse query string: ${error.message}`] });
    throw error;
  }
}

/** Path ids are positive integers; anything else cannot name a unit (DRF answers 404). */
export function parseUnitId(raw: string): string {
  if (!/^\d{1,18}$/.test(raw)) throw notFound();
  return raw;
}

/** Unit reads: every list is one count and one joined page query, whatever the page size (no N+1). */
@Injectable()
export class UnitsReadService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly lookup: TranslationLookup,
  ) {}

  /**
   * Units of one translation, ordered by position (api-spec.md: `results` is ordered by position 1..count;
   * Weblate orders by id, which agrees for imported files).
   */
  async listForTranslation(projectSlug: string, componentSlug: string, languageCode: string, query: Record<string, unknown>, pageRequest: PageRequest): Promise<UnitPage> {
    const translation = await this.lookup.translation(projectSlug, componentSlug, languageCode);
    const params: unknown[] = [translation.id];
    const search = searchCondition(query, params);
    const where = `u.translation_id = $1${search ? ` AND ${search}` : ''}`;
    return this.page(where, params, 'u.position, u.id', pageRequest);
  }

  /** `/api/units/`: every unit ordered by id (weblate-api.md §5.9), LargePagination. */
  async listAll(query: Record<string, unknown>, pageRequest: PageRequest, caller: ApiCaller | null): Promise<UnitPage> {
    const params: unknown[] = [];
    const search = searchCondition(query, params) ?? 'TRUE';
    // Only units of components the caller can see (src/common/auth/access-sql.ts).
    const where = caller?.isSuperuser
      ? search
      : `(${search}) AND u.translation_id IN (SELECT vt.id FROM translations vt WHERE vt.component_id IN (${visibleComponentIdsSql(caller)}))`;
    return this.page(where, params, 'u.id', pageRequest);
  }

  async get(id: string): Promise<UnitRow> {
    const rows: UnitRow[] = await this.dataSource.query(`${UNIT_SELECT} WHERE u.id = $1`, [parseUnitId(id)]);
    if (rows.length === 0) throw notFound();
    return rows[0];
  }

  private async page(where: string, params: unknown[], order: string, pageRequest: PageRequest): Promise<UnitPage> {
    const [{ count }]: Array<{ count: number }> = await this.dataSource.query(`SELECT count(*)::int AS count FROM units u WHERE ${where}`, params);
    const page = resolvePage(pageRequest, count);
    const rows: UnitRow[] = await this.dataSource.query(
      `${UNIT_SELECT} WHERE ${where} ORDER BY ${order} LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, page.size, page.offset],
    );
    return { page, count, rows };
  }
}
