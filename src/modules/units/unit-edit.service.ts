import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { ApiValidationError, notFound, permissionDenied } from '../../common/http/api-errors';
import type { RequestContext } from '../../common/http/request-context';
import { PLURAL_SEPARATOR } from '../../common/text/word-count';
import { ACTION_STRING_REMOVE } from '../changes/change-actions';
import { recordChanges } from '../changes/change-recorder';
import { refreshTranslationStatistics } from '../../sync/translation-statistics';
import { TRANSLATE_UNIT } from './unit-translate.statement';
import { parseUnitWriteBody, UnitWriteBody } from './dto/unit-bodies';
import { UnitWriteResponse, fitPluralForms, splitPlurals } from './unit.response';
import { parseUnitId } from './units-read.service';
import { checkManageUnits } from './unit-rules';
import { expectedForms, translationBodyError, translationEditError } from './unit-translation-rules';
import { assertComponentUnlocked, componentLocked } from '../components/component-locked';
import { RepositoryOperationsService } from '../../sync/repository-operations.service';
import { editUnitLabels, foreignLabelIds, lockLabelledUnits, unitLabelIds } from '../labels/unit-labels';
import { loadUnitCheckContext, prepareTranslation, recheckUnits, storeEditedUnitChecks, translationDetails, type CheckContextRow, type PreparedTranslation } from '../../sync/unit-checks';

/** What the write rules need about a unit, its translation and its component (one joined query). */
interface EditableUnit {
  id: string;
  translation_id: number;
  id_hash: string;
  source: string;
  target: string;
  state: number;
  explanation: string;
  extra_flags: string;
  context: string;
  is_source: boolean;
  language_id: number;
  component_id: number;
  project_id: number;
  plural_number: number;
  template: string;
  manage_units: boolean;
  edit_template: boolean;
  locked: boolean;
  translated: number;
  total: number;
}

/** A write's answer and the automatic fixes applied to its text (the controller reports them in a header). */
export interface UnitWriteOutcome {
  body: UnitWriteResponse;
  fixups: string[];
}

/** `forms`: the unit's plural count (1 when singular); `target` is fitted to it as in unit reads (unit.response.ts targetSql). */
function writeResponse(unit: { target: string; state: number; explanation: string; extra_flags: string; labels: number[] }, forms: number): UnitWriteResponse {
  const target = forms > 1 ? fitPluralForms(splitPlurals(unit.target), forms) : splitPlurals(unit.target);
  return { target, state: unit.state, explanation: unit.explanation, extra_flags: unit.extra_flags, labels: unit.labels };
}

@Injectable()
export class UnitEditService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly repositoryOperations: RepositoryOperationsService,
  ) {}

  /** PUT and PATCH (weblate-api.md §10.2); both take any subset and answer with the write representation. */
  async update(ctx: RequestContext, id: string, body: unknown): Promise<UnitWriteOutcome> {
    const quick = await this.translateInOneStatement(ctx, id, body);
    if (quick !== null) return quick;
    const unit = await this.load(this.dataSource.manager, id);
    const data = parseUnitWriteBody(body);
    const doTranslate = data.target !== undefined || data.state !== undefined;
    const doSource = data.explanation !== undefined || data.extra_flags !== undefined || data.labels !== undefined;
    // The labels field only accepts the project's labels (weblate-api.md §10.2: 400 otherwise), a field rule
    // that DRF's validation applies before the view's permission checks.
    const foreign = data.labels === undefined ? [] : await foreignLabelIds(this.dataSource.manager, unit.project_id, data.labels);
    if (foreign.length > 0) throw new ApiValidationError({ labels: [`Invalid pk "${foreign[0]}" - object does not exist.`] });
    if (doSource && (!unit.is_source || !ctx.can('source.edit'))) {
      throw permissionDenied('Source strings properties can be set only on source strings');
    }
    if (doTranslate) {
      const refused = translationEditError(unit, data, { edit: ctx.can('unit.edit'), review: ctx.can('unit.review') });
      if (refused !== null) throw refused;
    }
    if (doTranslate) assertComponentUnlocked(unit);
    if (doSource) {
      await this.dataSource.query('UPDATE units SET explanation = $2, extra_flags = $3 WHERE id = $1', [
        unit.id,
        data.explanation ?? unit.explanation,
        data.extra_flags ?? unit.extra_flags,
      ]);
      // The source string's flags apply to every translation of it (checks-suggestions-search.md §2.2).
      if (data.extra_flags !== undefined && data.extra_flags !== unit.extra_flags) await this.recheckTranslationsOf(unit.id);
      if (data.labels !== undefined) await this.setLabels(unit.id, data.labels, ctx.caller!.id);
    }
    if (doTranslate) {
      const target = data.target!;
      const prepared = await this.prepare(unit.id, target, data.state!);
      if (prepared === null) throw notFound();
      // Stores the edit, its history and the counters in one statement (unit-translate.statement.ts).
      const [result] = await TRANSLATE_UNIT.run(this.dataSource, [
        unit.id,
        prepared.target.join(PLURAL_SEPARATOR),
        prepared.state,
        ctx.caller!.id,
        ctx.can('unit.review'),
        target.length,
        JSON.stringify(translationDetails(prepared)),
      ]);
      if (!result.found) throw notFound();
      // The unit changed between the checks above and the write: the rules are applied to what it is now.
      if (!result.allowed) {
        if (result.locked) throw componentLocked();
        if (result.expected_forms !== target.length) throw new ApiValidationError({ target: ['Number of plurals does not match'] });
        throw permissionDenied(result.state === 100 ? 'The string is read-only.' : 'Insufficient privileges for approving.');
      }
      if (result.changed) await storeEditedUnitChecks(this.dataSource, prepared.row, result.target, result.state);
      return { body: writeResponse(result, result.expected_forms), fixups: prepared.fixups };
    }
    const [current]: Array<{ target: string; state: number; explanation: string; extra_flags: string; labels: number[] }> = await this.dataSource.query(
      'SELECT target, state, explanation, extra_flags, ARRAY(SELECT label_id FROM unit_labels WHERE unit_id = u.id ORDER BY label_id) AS labels FROM units u WHERE id = $1',
      [unit.id],
    );
    return { body: writeResponse(current, expectedForms(unit)), fixups: [] };
  }

  /**
   * The usual edit — a valid target and state that the caller may set — in one statement, without reading the
   * unit first: the rules that need the unit (read-only, approved, locked component, number of plural forms)
   * are the statement's guards. Answers null, having changed nothing, whenever anything is not plainly
   * allowed; update() then reads the unit and answers exactly as Weblate would (404, 400, 403, 423 in its order).
   */
  private async translateInOneStatement(ctx: RequestContext, id: string, body: unknown): Promise<UnitWriteOutcome | null> {
    if (!/^\d{1,18}$/.test(id) || ctx.caller === null) return null;
    let data: UnitWriteBody;
    try {
      data = parseUnitWriteBody(body);
    } catch {
      return null;
    }
    if (data.explanation !== undefined || data.extra_flags !== undefined || data.labels !== undefined) return null;
    if (translationBodyError(data) !== null) return null;
    const target = data.target!;
    const state = data.state!;
    const mayReview = ctx.can('unit.review');
    if (!ctx.can('unit.edit') || (state === 30 && !mayReview)) return null;
    const prepared = await this.prepare(id, target, state);
    if (prepared === null) return null;
    const [result] = await TRANSLATE_UNIT.run(this.dataSource, [
      id,
      prepared.target.join(PLURAL_SEPARATOR),
      prepared.state,
      ctx.caller.id,
      mayReview,
      target.length,
      JSON.stringify(translationDetails(prepared)),
    ]);
    if (!result.allowed) return null;
    if (result.changed) await storeEditedUnitChecks(this.dataSource, prepared.row, result.target, result.state);
    return { body: writeResponse(result, result.expected_forms), fixups: prepared.fixups };
  }

  /**
   * PATCH `labels` replaces the source unit's labels with the given ones (Weblate's m2m set): the missing ones
   * are added and the others removed, each recording 86/87 (unit-labels.ts).
   */
  private async setLabels(unitId: string, labels: readonly number[], userId: number): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      const units = await lockLabelledUnits(manager, [unitId]);
      const current = await unitLabelIds(manager, unitId);
      await editUnitLabels(manager, units, { add: labels.filter((id) => !current.includes(id)), remove: current.filter((id) => !labels.includes(id)) }, userId);
    });
  }

  /** Automatic fixes and enforced checks applied to an edit, with the unit's check context (null: no such unit). */
  private async prepare(id: string, target: string[], state: number): Promise<(PreparedTranslation & { row: CheckContextRow }) | null> {
    const row = await loadUnitCheckContext(this.dataSource, id);
    return row === undefined ? null : { ...prepareTranslation(row, target, state), row };
  }

  /** The stored checks of edited units (and the translations' failing counters) follow the new text. */
  private async recheck(ids: string[]): Promise<void> {
    await this.dataSource.transaction((manager) => recheckUnits(manager, ids));
  }

  private async recheckTranslationsOf(sourceUnitId: string): Promise<void> {
    const rows: Array<{ id: string }> = await this.dataSource.query('SELECT id FROM units WHERE source_unit_id = $1', [sourceUnitId]);
    await this.recheck(rows.map((row) => row.id));
  }

  /**
   * DELETE (weblate-api.md §10.2): a source string disappears from every translation of the component, the
   * following positions move up, and 63 "Removed string" is recorded per translation. Rewriting the files in
   * the repository: see the end.
   */
  async remove(ctx: RequestContext, id: string): Promise<void> {
    const unit = await this.load(this.dataSource.manager, id);
    checkManageUnits({ isSource: unit.is_source, template: unit.template, manageUnits: unit.manage_units, editTemplate: unit.edit_template });
    if (!ctx.can('unit.delete')) throw permissionDenied('Can not remove string');
    assertComponentUnlocked(unit);
    const callerId = ctx.caller!.id;
    await this.dataSource.transaction(async (manager) => {
      // TypeORM answers a DELETE with [rows, affected count].
      const [removed]: [Array<{ translation_id: number; position: number; target: string; source: string; context: string; language_id: number }>, number] =
        await manager.query(
          `DELETE FROM units u USING translations t
            WHERE t.id = u.translation_id AND t.component_id = $1 AND (u.id = $2 OR ($3 AND u.id_hash = $4))
           RETURNING u.translation_id, u.position, u.target, u.source, u.context, t.language_id`,
          [unit.component_id, unit.id, unit.is_source, unit.id_hash],
        );
      await manager.query(
        `UPDATE units u SET position = u.position - 1
           FROM unnest($1::int[], $2::int[]) AS d(translation_id, position)
          WHERE u.translation_id = d.translation_id AND u.position > d.position`,
        [removed.map((r) => r.translation_id), removed.map((r) => r.position)],
      );
      await recordChanges(
        manager,
        removed.map((r) => ({
          action: ACTION_STRING_REMOVE,
          projectId: unit.project_id,
          componentId: unit.component_id,
          translationId: r.translation_id,
          languageId: r.language_id,
          unitId: null,
          userId: callerId,
          authorId: callerId,
          target: r.target,
          details: { source: r.source, target: r.target, context: r.context },
        })),
      );
      await refreshTranslationStatistics(manager, [...new Set(removed.map((r) => r.translation_id))]);
    });
    // The key leaves every file of the component in commits (src/sync, Weblate's delete_unit).
    await this.repositoryOperations.removeStrings(unit.component_id, [{ context: unit.context, source: splitPlurals(unit.source) }], callerId);
  }

  private async load(manager: EntityManager, id: string): Promise<EditableUnit> {
    const rows: EditableUnit[] = await manager.query(
      `SELECT u.id, u.translation_id, u.id_hash, u.source, u.target, u.state, u.explanation, u.extra_flags, u.context,
              t.is_source, t.language_id, t.component_id, c.project_id, COALESCE(t.plural_number, l.plural_number) AS plural_number, c.template, c.manage_units,
              c.edit_template, c.locked, t.translated, t.total
         FROM units u
         JOIN translations t ON t.id = u.translation_id
         JOIN components c ON c.id = t.component_id
         JOIN languages l ON l.id = t.language_id
        WHERE u.id = $1`,
      [parseUnitId(id)],
    );
    if (rows.length === 0) throw notFound();
    return rows[0];
  }
}
