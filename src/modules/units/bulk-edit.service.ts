import { Inject, Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { scopeQuerySql } from '../../common/auth/access-sql';
import { ApiValidationError, notFound, permissionDenied } from '../../common/http/api-errors';
import type { ApiCaller, RequestContext } from '../../common/http/request-context';
import { refreshTranslationStatistics } from '../../sync/translation-statistics';
import { lockUnitsForRecheck, recheckUnits } from '../../sync/unit-checks';
import { ACTION_BULK_EDIT } from '../changes/change-actions';
import { recordChanges } from '../changes/change-recorder';
import { editUnitLabels, lockLabelledUnits } from '../labels/unit-labels';
import { parseBulkEditBody, type BulkEditRequest, type BulkEditResponse } from './dto/bulk-bodies';
import { editFlags } from './flag-edit';
import { compileRequestSearch, runSearch } from './unit-query';

// Weblate's bulk edit (weblate/trans/bulk.py, integration.md §6.1) as a Glossa extension route over a
// project, a component or a translation: the units matching `q` get a new state, and their source strings
// get flags and labels added or removed. Weblate has no REST endpoint for it (issue #3985); its UI view asks for
// `translation.auto` on the object (4.x), then applies each part only where the caller holds the rights
// for it (`unit.edit` on the unit's translation, `unit.review` to approve or un-approve, `source.edit` on the
// component for flags and labels).


/** The path a bulk edit names: a project, optionally one of its components, optionally one language. */
export interface BulkScope {
  project: string;
  component?: string;
  language?: string;
}

/** A translation inside the scope the caller can see, with what the caller may do there. */
interface ScopedTranslation {
  id: number;
  project_id: number;
  component_id: number;
  language_id: number;
  is_source: boolean;
  locked: boolean;
  /** Permissions on the translation (its language counts) and on its component (flags, labels). */
  permissions: string[];
  component_permissions: string[];
}

interface StateChange {
  id: string;
  translation_id: number;
  state: number;
  target: string;
  source: string;
  context: string;
}

/**
 * The translations of the scope the caller can see, each with the caller's permissions on it and on its
 * component, in one statement (the per-object rules of access-sql.ts evaluated per row).
 */
function scopedTranslationsSql(caller: ApiCaller | null): string {
  const translationAccess = scopeQuerySql(caller, { project: 'bc.project_id', component: 'bc.id', language: 'bt.language_id' });
  const componentAccess = scopeQuerySql(caller, { project: 'bc.project_id', component: 'bc.id', language: 'NULL::int' });
  return `SELECT bt.id, bc.project_id, bc.id AS component_id, bt.language_id, bt.is_source, bc.locked,
                 ta.permissions, ca.permissions AS component_permissions
            FROM translations bt JOIN components bc ON bc.id = bt.component_id JOIN projects bp ON bp.id = bc.project_id
            CROSS JOIN LATERAL (${translationAccess}) ta
            CROSS JOIN LATERAL (${componentAccess}) ca
           WHERE bp.slug = $1 AND ($2::text IS NULL OR bc.slug = $2) AND ($3::text IS NULL OR bt.language_code = $3)
             AND ta.project_visible AND ta.visible
           ORDER BY bt.id`;
}

/** The translation units of the strings of these units (a flag edit rechecks every translation of a string). */
async function translationUnitsOfStrings(manager: EntityManager, unitIds: readonly string[]): Promise<string[]> {
  if (unitIds.length === 0) return [];
  const rows: Array<{ id: string }> = await manager.query(
    `SELECT u.id FROM units u JOIN translations t ON t.id = u.translation_id AND NOT t.is_source
      WHERE u.source_unit_id IN (SELECT COALESCE(m.source_unit_id, m.id) FROM units m WHERE m.id = ANY($1::bigint[]))`,
    [unitIds],
  );
  return rows.map((row) => String(row.id));
}

@Injectable()
export class BulkEditService {
  constructor(
    private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async edit(ctx: RequestContext, scope: BulkScope, body: unknown): Promise<BulkEditResponse> {
    // The object the path names was found and is visible (the auth guard); otherwise 404 before the body.
    if (!ctx.scopeFound) throw notFound();
    const request = parseBulkEditBody(body);
    // A query that does not parse is a 400 whatever the scope holds (compiled again with its parameters below).
    compileRequestSearch(request.q, []);
    if (!ctx.can('translation.auto')) throw permissionDenied();
    await this.checkLabels(scope.project, request);
    const translations: ScopedTranslation[] = await this.dataSource.query(scopedTranslationsSql(ctx.caller), [
      scope.project,
      scope.component ?? null,
      scope.language ?? null,
    ]);
    if (translations.length === 0) return { updated: 0 };
    const superuser = ctx.isSuperuser;
    const may = (t: ScopedTranslation, permission: string) => superuser || t.permissions.includes(permission);
    const mayOnComponent = (t: ScopedTranslation, permission: string) => superuser || t.component_permissions.includes(permission);
    // Source strings are edited through their translations, not by a state change (read-only there).
    const editable = request.state === -1 ? [] : translations.filter((t) => !t.is_source && !t.locked && may(t, 'unit.edit'));
    const sourceEdit = request.addFlags.trim() !== '' || request.removeFlags.trim() !== '' || request.addLabels.length > 0 || request.removeLabels.length > 0;
    const flagged = sourceEdit ? translations.filter((t) => mayOnComponent(t, 'source.edit')) : [];
    const matched = await this.search(request.q, [...new Set([...editable, ...flagged].map((t) => t.id))]);
    const inTranslations = (set: readonly ScopedTranslation[]) => {
      const ids = new Set(set.map((t) => t.id));
      return matched.filter((unit) => ids.has(unit.translation_id)).map((unit) => unit.id);
    };
    return this.dataSource.transaction(async (manager) => {
      // The lock order of check-rows.ts before anything is written: the units whose state may change and the
      // translation units of the strings whose flags may change, with their siblings (the rechecks store
      // them too), then their translation rows. Locking the translation rows first and the siblings in the
      // recheck deadlocked against unit PATCHes of those siblings.
      const stateUnits = editable.length > 0 ? inTranslations(editable) : [];
      const flagsChange = request.addFlags.trim() !== '' || request.removeFlags.trim() !== '';
      const flagUnits = flagged.length > 0 && flagsChange ? await translationUnitsOfStrings(manager, inTranslations(flagged)) : [];
      await lockUnitsForRecheck(manager, [...stateUnits, ...flagUnits]);
      let updated = 0;
      if (editable.length > 0) {
        const reviewable = editable.filter((t) => may(t, 'unit.review'));
        updated += await this.changeStates(manager, translations, inTranslations(editable), reviewable, request, ctx.caller!.id);
      }
      if (flagged.length > 0) {
        // A source string counts once, whether its flags, its labels or both changed.
        const flags = await this.changeFlags(manager, inTranslations(flagged), request);
        const labels = await this.changeLabels(manager, inTranslations(flagged), request, ctx.caller!.id);
        updated += new Set([...flags, ...labels]).size;
      }
      return { updated };
    });
  }

  /**
   * The units of these translations matching `q`, found before anything is written (as Weblate searches,
   * then edits): a regular expression runs under its own time limit (search-runner.ts), which then does not
   * apply to the writes. The writes check each unit's state again as they lock it.
   */
  private async search(q: string, translationIds: readonly number[]): Promise<Array<{ id: string; translation_id: number }>> {
    const params: unknown[] = [translationIds];
    const search = compileRequestSearch(q, params);
    if (translationIds.length === 0) return [];
    return runSearch(this.dataSource, search, this.config.searchRegexTimeoutMs, (db) =>
      db.query(`SELECT u.id, u.translation_id FROM units u WHERE u.translation_id = ANY($1::int[]) AND (${search?.sql ?? 'TRUE'}) ORDER BY u.id`, params),
    );
  }

  /**
   * The state step (bulk.py): matching units in needs editing, translated or approved, not already in the
   * target state, of translations the caller may edit — approved ones, or approving, only where the caller
   * may review, as for a single edit. One statement locks and updates them (pending: written to the files at
   * the next commit); then a 32 per string, and the touched translations' statistics recounted after their
   * rows are locked, and the strings' checks, which may depend on the state, rerun.
   */
  private async changeStates(
    manager: EntityManager,
    all: readonly ScopedTranslation[],
    unitIds: readonly string[],
    reviewable: readonly ScopedTranslation[],
    request: BulkEditRequest,
    userId: number,
  ): Promise<number> {
    if (unitIds.length === 0) return 0;
    const changed: StateChange[] = await manager.query(
      `WITH matched AS (
         SELECT u.id, u.translation_id, u.state, u.target, u.source, u.context FROM units u
          WHERE u.id = ANY($1::bigint[]) AND u.state IN (10, 20, 30) AND u.state <> $2::int
            AND (($2::int <> 30 AND u.state <> 30) OR u.translation_id = ANY($3::int[]))
          ORDER BY u.id
            FOR NO KEY UPDATE OF u
       ), updated AS (
         UPDATE units u SET state = $2::smallint, pending = true FROM matched m WHERE u.id = m.id RETURNING u.id
       )
       SELECT m.* FROM matched m JOIN updated USING (id) ORDER BY m.id`,
      [unitIds, request.state, reviewable.map((t) => t.id)],
    );
    if (changed.length === 0) return 0;
    const byId = new Map(all.map((t) => [t.id, t]));
    await recordChanges(
      manager,
      changed.map((unit) => {
        const translation = byId.get(unit.translation_id)!;
        return {
          action: ACTION_BULK_EDIT,
          projectId: translation.project_id,
          componentId: translation.component_id,
          translationId: translation.id,
          languageId: translation.language_id,
          unitId: String(unit.id),
          userId,
          authorId: userId,
          target: unit.target,
          old: unit.target,
          details: { state: request.state, old_state: unit.state, source: unit.source, context: unit.context },
        };
      }),
    );
    // The touched translations' rows are held since lockUnitsForRecheck: the recount sees every committed
    // change, and a concurrent PATCH's counter delta applies after it.
    const touched = [...new Set(changed.map((unit) => unit.translation_id))].sort((a, b) => a - b);
    await recheckUnits(manager, changed.map((unit) => String(unit.id)));
    await refreshTranslationStatistics(manager, touched, { authorId: userId });
    return changed.length;
  }

  /**
   * The flag step (bulk.py): the source strings of the matching units, in components where the caller holds
   * source.edit, get the flags merged into and removed from their `extra_flags`; as a single edit of
   * extra_flags does, every translation of a changed string is rechecked (checks-suggestions-search.md §2.2).
   * Weblate 4.x records no history for flag changes.
   */
  private async changeFlags(manager: EntityManager, unitIds: readonly string[], request: BulkEditRequest): Promise<string[]> {
    if (unitIds.length === 0 || (request.addFlags.trim() === '' && request.removeFlags.trim() === '')) return [];
    const sources: Array<{ id: string; extra_flags: string }> = await manager.query(
      `SELECT s.id, s.extra_flags FROM units s
        WHERE s.id IN (SELECT COALESCE(u.source_unit_id, u.id) FROM units u WHERE u.id = ANY($1::bigint[]))
        ORDER BY s.id
          FOR NO KEY UPDATE OF s`,
      [unitIds],
    );
    const edits = sources
      .map((source) => ({ id: String(source.id), flags: editFlags(source.extra_flags, request.addFlags, request.removeFlags) }))
      .filter((edit): edit is { id: string; flags: string } => edit.flags !== null);
    if (edits.length === 0) return [];
    await manager.query('UPDATE units u SET extra_flags = r.flags FROM unnest($1::bigint[], $2::text[]) AS r(id, flags) WHERE u.id = r.id', [
      edits.map((edit) => edit.id),
      edits.map((edit) => edit.flags),
    ]);
    const affected: Array<{ id: string }> = await manager.query('SELECT id FROM units WHERE source_unit_id = ANY($1::bigint[]) ORDER BY id', [edits.map((edit) => edit.id)]);
    await recheckUnits(manager, affected.map((row) => String(row.id)));
    return edits.map((edit) => edit.id);
  }

  /**
   * The label step (bulk.py): the source strings of the matching units, in components where the caller holds
   * source.edit, get the labels added and removed, recording 86/87 per label that changed (unit-labels.ts).
   * Answers the source units whose labels changed.
   */
  private async changeLabels(manager: EntityManager, unitIds: readonly string[], request: BulkEditRequest, userId: number): Promise<string[]> {
    if (unitIds.length === 0 || (request.addLabels.length === 0 && request.removeLabels.length === 0)) return [];
    const sourceIds: Array<{ id: string }> = await manager.query(
      'SELECT DISTINCT COALESCE(u.source_unit_id, u.id)::text AS id FROM units u WHERE u.id = ANY($1::bigint[])',
      [unitIds],
    );
    const sources = await lockLabelledUnits(manager, sourceIds.map((row) => row.id));
    return [...(await editUnitLabels(manager, sources, { add: request.addLabels, remove: request.removeLabels }, userId))];
  }

  /**
   * `add_labels`/`remove_labels` are ModelMultipleChoiceFields over the project's labels (integration.md §6.1):
   * an id of no label of this project is refused with Django's message.
   */
  private async checkLabels(projectSlug: string, request: BulkEditRequest): Promise<void> {
    const wanted = [...new Set([...request.addLabels, ...request.removeLabels])];
    if (wanted.length === 0) return;
    const rows: Array<{ id: number }> = await this.dataSource.query(
      'SELECT lb.id FROM labels lb JOIN projects p ON p.id = lb.project_id WHERE p.slug = $1 AND lb.id = ANY($2::int[])',
      [projectSlug, wanted],
    );
    const known = new Set(rows.map((row) => row.id));
    const errors: Record<string, string[]> = {};
    for (const [key, ids] of [['add_labels', request.addLabels], ['remove_labels', request.removeLabels]] as const) {
      const unknown = ids.find((id) => !known.has(id));
      if (unknown !== undefined) errors[key] = [`Select a valid choice. ${unknown} is not one of the available choices.`];
    }
    if (Object.keys(errors).length > 0) throw new ApiValidationError(errors);
  }
}
