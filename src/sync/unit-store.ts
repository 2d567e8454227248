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
            pending, file_location AS "fileLocation"
       FROM units WHERE translation_id = $1`,
    [translationId],
  );
}

/** Applies a plan to one translation; `sourceTranslationId` is the component's source translation. */
export async function applyUnitSyncPlan(
  manager: EntityManager,
  translationId: number,
  sourceTranslationId: number,
  plan: UnitSyncPlan,
): Promise<void> {
  for (let i = 0; i < plan.deletes.length; i += BATCH) {
    await manager.query('DELETE FROM units WHERE id = ANY($1::bigint[])', [plan.deletes.slice(i, i + BATCH)]);
  }
  for (let i = 0; i < plan.updates.length; i += BATCH) await updateUnits(manager, plan.updates.slice(i, i + BATCH));
  for (let i = 0; i < plan.inserts.length; i += BATCH) {
    await insertUnits(manager, translationId, sourceTranslationId, plan.inserts.slice(i, i + BATCH));
  }
  if (translationId === sourceTranslationId && plan.inserts.length > 0) {
    // Source units are their own source unit (the API's `source_unit` of a source unit links to itself).
    await manager.query('UPDATE units SET source_unit_id = id WHERE translation_id = $1 AND source_unit_id IS NULL', [
      translationId,
    ]);
  }
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
    rows.map((r) => JSON.stringify(r.location)),
  ];
}

const UNNEST_COLUMNS = `$1::bigint[], $2::bigint[], $3::text[], $4::text[], $5::text[], $6::smallint[], $7::text[],
         $8::int[], $9::int[], $10::int[], $11::text[]`;
const ROW_ALIAS = `r(id_hash, content_hash, context, source, target, state, previous_source, position, num_words,
         num_chars, file_location)`;

async function insertUnits(
  manager: EntityManager,
  translationId: number,
  sourceTranslationId: number,
  rows: readonly UnitValues[],
): Promise<void> {
  // source_unit_id: the source translation's unit with the same id_hash (null while inserting the source
  // translation itself; fixed up by the caller).
  await manager.query(
    `INSERT INTO units (translation_id, source_unit_id, id_hash, content_hash, context, source, target, state,
                        previous_source, position, num_words, num_chars, priority, file_location)
     SELECT $12, su.id, r.id_hash, r.content_hash, r.context, r.source, r.target, r.state, r.previous_source,
            r.position, r.num_words, r.num_chars, 100, r.file_location::jsonb
       FROM unnest(${UNNEST_COLUMNS}) WITH ORDINALITY AS ${ROW_ALIAS.replace(')', ', ord)')}
       LEFT JOIN units su ON su.translation_id = $13 AND su.id_hash = r.id_hash
      ORDER BY r.ord`,
    [...columns(rows), translationId, sourceTranslationId],
  );
}

async function updateUnits(manager: EntityManager, rows: readonly UnitUpdate[]): Promise<void> {
  await manager.query(
    `UPDATE units u
        SET content_hash = r.content_hash, context = r.context, source = r.source, target = r.target,
            state = r.state, previous_source = r.previous_source, position = r.position,
            num_words = r.num_words, num_chars = r.num_chars, file_location = r.file_location::jsonb
       FROM unnest(${UNNEST_COLUMNS}, $12::bigint[]) AS ${ROW_ALIAS.replace(')', ', id)')}
      WHERE u.id = r.id`,
    [...columns(rows), rows.map((r) => r.id)],
  );
}
