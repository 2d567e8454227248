import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { bodyFieldValue, convertDrfValue, drfFieldError, type DrfRule } from '../../common/http/drf-fields';
import { LISTED_CHECKS } from '../../checks/check-list';
import { ApiValidationError, notFound, permissionDenied } from '../../common/http/api-errors';
import type { RequestContext } from '../../common/http/request-context';
import { refreshFailingFlags } from '../../sync/check-rows';
import { refreshMultipleFailures } from '../../sync/source-unit-checks';
import { parseUnitId } from '../units/units-read.service';
import type { CheckRow } from './check.response';

const ORDER = new Map(LISTED_CHECKS.map((check, index) => [check.id, index]));

/** Engine order (the order Weblate lists checks in), unknown ids after, by id. */
function byEngineOrder(a: CheckRow, b: CheckRow): number {
  const left = ORDER.get(a.name) ?? ORDER.size;
  const right = ORDER.get(b.name) ?? ORDER.size;
  return left - right || a.name.localeCompare(b.name);
}

/**
 * The stored checks of a unit and their dismissal. Weblate dismisses checks from its editor only
 * (checks-suggestions-search.md §3.3: permission `unit.check`, reversible, enforced checks cannot be
 * dismissed); Glossa offers the same operation over the API.
 */
const DISMISSED_FIELD: DrfRule = { type: 'boolean', required: true };

@Injectable()
export class UnitChecksService {
  constructor(private readonly dataSource: DataSource) {}

  /** Failing and dismissed checks; the unit's visibility was settled by the request's access scope. */
  async list(id: string): Promise<CheckRow[]> {
    const rows: Array<{ unit_id: string | null; name: string | null; dismissed: boolean | null }> = await this.dataSource.query(
      'SELECT u.id AS unit_id, c.name, c.dismissed FROM units u LEFT JOIN checks c ON c.unit_id = u.id WHERE u.id = $1',
      [parseUnitId(id)],
    );
    if (rows.length === 0) throw notFound();
    return rows.filter((row) => row.name !== null).map((row) => ({ name: row.name!, dismissed: row.dismissed! })).sort(byEngineOrder);
  }

  /** Dismisses (`{"dismissed": true}`) or restores a stored check; the unit's flag and the counters follow. */
  async setDismissed(ctx: RequestContext, id: string, name: string, body: unknown): Promise<CheckRow> {
    const unitId = parseUnitId(id);
    const [row]: Array<{ dismissed: boolean; enforced: boolean }> = await this.dataSource.query(
      `SELECT ch.dismissed, ch.name = ANY(c.enforced_checks) AS enforced
         FROM checks ch JOIN units u ON u.id = ch.unit_id JOIN translations t ON t.id = u.translation_id
         JOIN components c ON c.id = t.component_id
        WHERE ch.unit_id = $1 AND ch.name = $2`,
      [unitId, name],
    );
    if (row === undefined) throw notFound();
    if (!ctx.can('unit.check')) throw permissionDenied();
    // A DRF BooleanField: JSON booleans and every spelling DRF accepts from a form ("true", "on", "1", ...).
    const dismissed = convertDrfValue(DISMISSED_FIELD, bodyFieldValue(body, 'dismissed', DISMISSED_FIELD));
    const error = drfFieldError(DISMISSED_FIELD, dismissed);
    if (error !== null || typeof dismissed !== 'boolean') throw new ApiValidationError({ dismissed: [error ?? 'Must be a valid boolean.'] });
    if (dismissed && row.enforced) throw new ApiValidationError({ dismissed: ['Enforced checks can not be dismissed.'] });
    await this.dataSource.transaction(async (manager) => {
      await manager.query('UPDATE checks SET dismissed = $3 WHERE unit_id = $1 AND name = $2', [unitId, name, dismissed]);
      // A string's multiple_failures follows whether its translations fail (§1.6).
      await refreshMultipleFailures(manager, await refreshFailingFlags(manager, [unitId]));
    });
    return { name, dismissed };
  }
}
