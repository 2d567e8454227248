import type { EntityManager } from 'typeorm';
import { ACTION_LABEL_ADD, ACTION_LABEL_REMOVE } from '../changes/change-actions';
import { recordChanges, type ChangeRecord } from '../changes/change-recorder';

// The labels of units: the one SQL fragment every unit read selects, and the writes (unit PATCH, bulk edit,
// the report-comment side effect) that add and remove them and record Weblate's changes 86/87.
//
// Which labels a unit shows: its OWN labels (weblate-api.md §6.5 `labels`: "own labels of the unit (source
// units carry them)"; Weblate's UnitSerializer serialises `unit.labels`, not `all_labels`). Glossa stores
// labels on source units only (the API sets them there, §10.2, and bulk edits label the source strings,
// integration.md §6.1), so a translation unit answers []; the search's `label:`/`has:label`/`labels_count:`
// look at the source string's labels ([latest] checks-suggestions-search.md §7.4), so a translation unit is
// found by its source string's labels.

/**
 * The JSON array of a unit's labels, `[{id, name, description, color}, …]` (LabelResponse) ordered by id, as a
 * scalar subquery over `alias` (a units alias), written compact as the API writes it (json_agg would separate
 * the objects with `, `). The unit mapper selects it (unit.response.ts): one index probe on unit_labels'
 * primary key per unit of the page, no join that could multiply the page's rows.
 */
export const unitLabelsJson = (alias = 'u'): string =>
  `COALESCE((SELECT ('[' || string_agg(row_to_json(lbl)::text, ',' ORDER BY lbl.id) || ']')::json
               FROM (SELECT lb.id, lb.name, lb.description, lb.color FROM unit_labels ul JOIN labels lb ON lb.id = ul.label_id WHERE ul.unit_id = ${alias}.id) lbl), '[]'::json)`;

/** What a label change record needs about the (source) unit. */
export interface LabelledUnit {
  id: string;
  translation_id: number;
  language_id: number;
  component_id: number;
  project_id: number;
  source: string;
  context: string;
}

export interface LabelEdit {
  add: readonly number[];
  remove: readonly number[];
}

/**
 * Adds and removes labels on units (labels of the units' project; the callers check that), recording 86
 * "Added label <name>" / 87 "Removed label <name>" per pair that actually changed (weblate-api.md §8.1, §10.2).
 * The changed units' rows are touched so their row version — which the units page's ETag is made of — moves.
 * Answers the ids of the units whose labels changed.
 */
export async function editUnitLabels(manager: EntityManager, units: readonly LabelledUnit[], edit: LabelEdit, userId: number | null): Promise<Set<string>> {
  if (units.length === 0 || (edit.add.length === 0 && edit.remove.length === 0)) return new Set();
  const ids = units.map((unit) => unit.id);
  const removed: Array<{ unit_id: string; name: string }> = edit.remove.length === 0 ? [] : (
    await manager.query(
      `WITH gone AS (DELETE FROM unit_labels ul WHERE ul.unit_id = ANY($1::bigint[]) AND ul.label_id = ANY($2::int[]) RETURNING ul.unit_id, ul.label_id)
       SELECT gone.unit_id::text AS unit_id, lb.name FROM gone JOIN labels lb ON lb.id = gone.label_id ORDER BY gone.unit_id, lb.id`,
      [ids, edit.remove],
    )
  );
  const added: Array<{ unit_id: string; name: string }> = edit.add.length === 0 ? [] : (
    await manager.query(
      `WITH made AS (
         INSERT INTO unit_labels (unit_id, label_id)
         SELECT u.id, l.id FROM unnest($1::bigint[]) AS u(id) CROSS JOIN unnest($2::int[]) AS l(id)
         ORDER BY 1, 2
         ON CONFLICT DO NOTHING RETURNING unit_id, label_id
       )
       SELECT made.unit_id::text AS unit_id, lb.name FROM made JOIN labels lb ON lb.id = made.label_id ORDER BY made.unit_id, lb.id`,
      [ids, edit.add],
    )
  );
  const byId = new Map(units.map((unit) => [String(unit.id), unit]));
  const record = (action: number, verb: string) => (row: { unit_id: string; name: string }): ChangeRecord => {
    const unit = byId.get(String(row.unit_id))!;
    return {
      action,
      projectId: unit.project_id,
      componentId: unit.component_id,
      translationId: unit.translation_id,
      languageId: unit.language_id,
      unitId: String(unit.id),
      userId,
      authorId: userId,
      target: `${verb} label ${row.name}`,
      details: { source: unit.source, context: unit.context },
    };
  };
  await recordChanges(manager, [...added.map(record(ACTION_LABEL_ADD, 'Added')), ...removed.map(record(ACTION_LABEL_REMOVE, 'Removed'))]);
  const changed = new Set([...added, ...removed].map((row) => String(row.unit_id)));
  if (changed.size > 0) await manager.query('UPDATE units SET pending = pending WHERE id = ANY($1::bigint[])', [[...changed]]);
  return changed;
}

/** The units, locked, with what their label change records need. */
export async function lockLabelledUnits(manager: EntityManager, unitIds: readonly string[]): Promise<LabelledUnit[]> {
  if (unitIds.length === 0) return [];
  return manager.query(
    `SELECT u.id::text AS id, u.translation_id, t.language_id, t.component_id, c.project_id, u.source, u.context
       FROM units u JOIN translations t ON t.id = u.translation_id JOIN components c ON c.id = t.component_id
      WHERE u.id = ANY($1::bigint[]) ORDER BY u.id FOR NO KEY UPDATE OF u`,
    [unitIds],
  );
}

/** Of `labelIds`, those that are not labels of the project (a unit PATCH answers 400 for them). */
export async function foreignLabelIds(manager: EntityManager, projectId: number, labelIds: readonly number[]): Promise<number[]> {
  if (labelIds.length === 0) return [];
  const rows: Array<{ id: number }> = await manager.query('SELECT id FROM labels WHERE project_id = $1 AND id = ANY($2::int[])', [projectId, labelIds]);
  const own = new Set(rows.map((row) => row.id));
  return labelIds.filter((id) => !own.has(id));
}

/** The ids of a unit's own labels, ordered as unitLabelsJson orders them (the write representation's `labels`). */
export async function unitLabelIds(manager: EntityManager, unitId: string): Promise<number[]> {
  const rows: Array<{ label_id: number }> = await manager.query('SELECT label_id FROM unit_labels WHERE unit_id = $1 ORDER BY label_id', [unitId]);
  return rows.map((row) => row.label_id);
}

/**
 * Weblate's built-in label of a reported source string (checks-suggestions-search.md §6 `report` scope:
 * "Source needs review"), created in the project on first use with Weblate's colour for it, red.
 */
export const SOURCE_REVIEW_LABEL = 'Source needs review';

export async function sourceReviewLabel(manager: EntityManager, projectId: number): Promise<number> {
  const [row]: Array<{ id: number }> = await manager.query(
    `WITH made AS (
       INSERT INTO labels (project_id, name, description, color) VALUES ($1, $2, '', 'red') ON CONFLICT (project_id, name) DO NOTHING RETURNING id
     )
     SELECT id FROM made UNION ALL SELECT id FROM labels WHERE project_id = $1 AND name = $2 LIMIT 1`,
    [projectId, SOURCE_REVIEW_LABEL],
  );
  if (row !== undefined) return row.id;
  // Another transaction created it after this statement's snapshot: it is committed now (ON CONFLICT waited).
  const [created]: Array<{ id: number }> = await manager.query('SELECT id FROM labels WHERE project_id = $1 AND name = $2', [projectId, SOURCE_REVIEW_LABEL]);
  return created.id;
}
