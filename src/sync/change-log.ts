import type { EntityManager } from 'typeorm';

// History entries written by the scan. Scans have no user: `user` and `author` stay null (spec, Change).

export interface ChangeScope {
  projectId: number;
  componentId: number;
  /** Null for component-level events (merge, failed merge). */
  translationId: number | null;
  languageId: number | null;
}

export interface ChangeEntry {
  action: number;
  unitId: string | null;
  target: string;
  old: string;
  details?: Record<string, unknown>;
}

/** Rows per INSERT: a scan records one change per new string, so a big import inserts in batches. */
const BATCH = 5000;

/**
 * Inserts `entries` in order, one multi-row statement per batch of rows (never a round trip per row); ids
 * and clock_timestamp() follow that order.
 */
export async function recordChanges(manager: EntityManager, scope: ChangeScope, entries: readonly ChangeEntry[]): Promise<void> {
  for (let i = 0; i < entries.length; i += BATCH) await insertBatch(manager, scope, entries.slice(i, i + BATCH));
}

async function insertBatch(manager: EntityManager, scope: ChangeScope, entries: readonly ChangeEntry[]): Promise<void> {
  await manager.query(
    `INSERT INTO changes (action, unit_id, target, old, details, project_id, component_id, translation_id, language_id)
     SELECT r.action, r.unit_id, r.target, r.old, r.details::jsonb, $6, $7, $8, $9
       FROM unnest($1::smallint[], $2::bigint[], $3::text[], $4::text[], $5::text[])
            WITH ORDINALITY AS r(action, unit_id, target, old, details, ord)
      ORDER BY r.ord`,
    [
      entries.map((e) => e.action),
      entries.map((e) => e.unitId),
      entries.map((e) => e.target),
      entries.map((e) => e.old),
      entries.map((e) => JSON.stringify(e.details ?? {})),
      scope.projectId,
      scope.componentId,
      scope.translationId,
      scope.languageId,
    ],
  );
}
