import type { EntityManager } from 'typeorm';

// Writes history rows for edits made through the API (unit edits, added strings, added or removed languages).
// A plain function over the caller's transaction, so the change lands atomically with the edit it records.

export interface ChangeRecord {
  action: number;
  projectId: number | null;
  componentId: number | null;
  translationId: number | null;
  languageId: number | null;
  unitId: string | null;
  /** The acting user and the content author; the API writes both as the caller (weblate-api.md §6.6). */
  userId: number | null;
  authorId: number | null;
  target: string;
  old?: string;
  details?: Record<string, unknown>;
}

/** Inserts `records` in order with one statement; ids and clock_timestamp() follow that order. */
export async function recordChanges(manager: EntityManager, records: readonly ChangeRecord[]): Promise<void> {
  if (records.length === 0) return;
  await manager.query(
    `INSERT INTO changes (action, project_id, component_id, translation_id, language_id, unit_id, user_id, author_id,
                          target, old, details)
     SELECT r.action, r.project_id, r.component_id, r.translation_id, r.language_id, r.unit_id, r.user_id, r.author_id,
            r.target, r.old, r.details::jsonb
       FROM unnest($1::smallint[], $2::int[], $3::int[], $4::int[], $5::int[], $6::bigint[], $7::int[], $8::int[],
                   $9::text[], $10::text[], $11::text[])
            WITH ORDINALITY AS r(action, project_id, component_id, translation_id, language_id, unit_id, user_id,
                                 author_id, target, old, details, ord)
      ORDER BY r.ord`,
    [
      records.map((r) => r.action),
      records.map((r) => r.projectId),
      records.map((r) => r.componentId),
      records.map((r) => r.translationId),
      records.map((r) => r.languageId),
      records.map((r) => r.unitId),
      records.map((r) => r.userId),
      records.map((r) => r.authorId),
      records.map((r) => r.target),
      records.map((r) => r.old ?? ''),
      records.map((r) => JSON.stringify(r.details ?? {})),
    ],
  );
}
