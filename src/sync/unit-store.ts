import type { EntityManager } from 'typeorm';
import type { StoredUnit, UnitSyncPlan, UnitUpdate, UnitValues } from './unit-sync-plan';

// Set-based unit writes (architecture.md "Imports use set-based inserts"): one statement per batch of rows,
// the rows travelling as parallel arrays expanded by unnest(), so a 100k-string component costs a few dozen
// statements instead of 100k round trips.

const BATCH = 5000;

export async function loadStoredUnits(manager: EntityManager, translationId: number): Promise<StoredUnit[]> {
  return manager.query(
    `SELECT id, id_hash AS "idHash", context, source, target, state, previous_source AS "previousSource",
            position, content_hash AS "contentHash", num_words AS "numWords", num_chars AS "numChars",
            pending, note, location, flags
       FROM units WHERE translation_id = $1`,
    [translationId],
  );
}

/** Source unit ids of a translation, by id_hash; `self` for the source translation (its units link to themselves). */
export type SourceUnitIds = ReadonlyMap<string, string> | 'self';

/** id_hash → id of the source translation's units. */
export async function loadUnitIdsByHash(manager: EntityManager, translationId: number): Promise<Map<string, string>> {
  const rows: Array<{ id: string; idHash: string }> = await manager.query(
    'SELECT id, id_hash AS "idHash" FROM units WHERE translation_id = $1',
    [translationId],
  );
  return new Map(rows.map((row) => [row.idHash, row.id]));
}

/**
 * The change each inserted unit records (issue 12: Weblate records a change for every string a scan creates),
 * written by the statement that inserts the units: one data-modifying INSERT per batch stores units and their
 * history together, with no ids travelling back and no per-row work in this process.
 */
export interface NewUnitHistory {
  action: number;
  projectId: number;
  componentId: number;
  languageId: number;
}

/**
 * Applies a plan to one translation. For the source translation (`self`) it resolves with the ids given
 * to the inserted units, by id_hash; otherwise with an empty map. With `history`, every inserted unit
 * records that change (unit, its text as target), in file order.
 */
export async function applyUnitSyncPlan(
  manager: EntityManager,
  translationId: number,
  plan: UnitSyncPlan,
  sourceUnitIds: SourceUnitIds,
  history: NewUnitHistory | null = null,
): Promise<Map<string, string>> {
  for (let i = 0; i < plan.deletes.length; i += BATCH) {
    await manager.query('DELETE FROM units WHERE id = ANY($1::bigint[])', [plan.deletes.slice(i, i + BATCH)]);
  }
  for (let i = 0; i < plan.updates.length; i += BATCH) await updateUnits(manager, plan.updates.slice(i, i + BATCH));
  const inserted = new Map<string, string>();
  for (let i = 0; i < plan.inserts.length; i += BATCH) {
    const rows = plan.inserts.slice(i, i + BATCH);
    if (sourceUnitIds === 'self') {
      // Source units name themselves as their source unit: their ids are drawn first so one INSERT can
      // store both (instead of a second pass updating every row).
      const ids = await allocateUnitIds(manager, rows.length);
      rows.forEach((row, index) => inserted.set(row.idHash, ids[index]));
      await insertUnits(manager, translationId, rows, ids, ids, history);
    } else {
      // Other translations link to the source units by id_hash; their own ids come from the column default.
      const sources = rows.map((row) => sourceUnitIds.get(row.idHash) ?? null);
      await insertUnits(manager, translationId, rows, null, sources, history);
    }
  }
  return inserted;
}

async function allocateUnitIds(manager: EntityManager, count: number): Promise<string[]> {
  const rows: Array<{ id: string }> = await manager.query(
    `SELECT nextval(pg_get_serial_sequence('units', 'id')) AS id FROM generate_series(1, $1)`,
    [count],
  );
  return rows.map((row) => row.id);
}

function columns(rows: readonly UnitValues[]): unknown[] {
  return [
    rows.map((r) => r.idHash),
    rows.map((r) => r.contentHash),
    rows.map((r) => r.context),
    rows.map((r) => r.source),
    rows.map((r) => r.target),
    rows.map((r) => r.state),
    rows.map((r) => r.previousSource),
    rows.map((r) => r.position),
    rows.map((r) => r.numWords),
    rows.map((r) => r.numChars),
    rows.map((r) => r.note),
    rows.map((r) => r.location),
    rows.map((r) => r.flags),
  ];
}

const UNNEST_ARRAYS = `$1::bigint[], $2::bigint[], $3::text[], $4::text[], $5::text[], $6::smallint[], $7::text[],
         $8::int[], $9::int[], $10::int[], $11::text[], $12::text[], $13::text[], $14::bigint[]`;

function rowAlias(last: string): string {
  return `r(id_hash, content_hash, context, source, target, state, previous_source, position, num_words, num_chars,
         note, location, flags, ${last})`;
}

async function insertUnits(
  manager: EntityManager,
  translationId: number,
  rows: readonly UnitValues[],
  ids: readonly string[] | null,
  sourceUnitIds: ReadonlyArray<string | null>,
  history: NewUnitHistory | null,
): Promise<void> {
  const insert = `INSERT INTO units (${ids ? 'id, ' : ''}translation_id, source_unit_id, id_hash, content_hash, context, source, target, state,
                        previous_source, position, num_words, num_chars, priority, note, location, flags)
     SELECT ${ids ? 'r.id, ' : ''}$15, r.source_unit_id, r.id_hash, r.content_hash, r.context, r.source, r.target, r.state,
            r.previous_source, r.position, r.num_words, r.num_chars, 100, r.note, r.location, r.flags
       FROM unnest(${UNNEST_ARRAYS}, $16::bigint[]) AS ${rowAlias('id, source_unit_id')}`;
  const parameters = [...columns(rows), ids ?? rows.map(() => null), translationId, sourceUnitIds];
  if (!history) {
    await manager.query(insert, parameters);
    return;
  }
  // Change ids (and clock_timestamp()) follow the units' file order; scans have no user or author.
  await manager.query(
    `WITH inserted AS (${insert} RETURNING id, target, position)
     INSERT INTO changes (action, unit_id, target, old, details, project_id, component_id, translation_id, language_id)
     SELECT $17, i.id, i.target, '', '{}'::jsonb, $18, $19, $15, $20 FROM inserted i ORDER BY i.position, i.id`,
    [...parameters, history.action, history.projectId, history.componentId, history.languageId],
  );
}

async function updateUnits(manager: EntityManager, rows: readonly UnitUpdate[]): Promise<void> {
  await manager.query(
    `UPDATE units u
        SET content_hash = r.content_hash, context = r.context, source = r.source, target = r.target,
            state = r.state, previous_source = r.previous_source, position = r.position,
            num_words = r.num_words, num_chars = r.num_chars, note = r.note, location = r.location, flags = r.flags
       FROM unnest(${UNNEST_ARRAYS}) AS ${rowAlias('id')}
      WHERE u.id = r.id`,
    [...columns(rows), rows.map((r) => r.id)],
  );
}
