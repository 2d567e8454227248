import type { EntityManager } from 'typeorm';
import type { ChangeDetails } from './notification-mail.renderer';

/** What mails say about changes, for a batch of change ids in one query (ids missing from the answer are gone). */
export async function loadChangeDetails(manager: Pick<EntityManager, 'query'>, changeIds: readonly string[]): Promise<Map<string, ChangeDetails>> {
  if (changeIds.length === 0) return new Map();
  const rows: Array<Record<string, unknown>> = await manager.query(
    `SELECT c.id::text AS id, c.action, c.timestamp, c.target, c.old, COALESCE(c.details->>'comment', '') AS comment,
            p.name AS project_name, p.slug AS project_slug, co.name AS component_name, co.slug AS component_slug,
            l.name AS language_name, l.code AS language_code,
            un.id::text AS unit_id, un.source AS unit_source, un.context AS unit_context, un.id_hash::text AS unit_id_hash,
            au.username AS actor_username, au.full_name AS actor_full_name
       FROM changes c
       LEFT JOIN projects p ON p.id = c.project_id
       LEFT JOIN components co ON co.id = c.component_id
       LEFT JOIN languages l ON l.id = c.language_id
       LEFT JOIN units un ON un.id = c.unit_id
       LEFT JOIN users au ON au.id = c.user_id
      WHERE c.id = ANY($1::bigint[])`,
    [changeIds],
  );
  const details = new Map<string, ChangeDetails>();
  for (const row of rows) {
    details.set(row.id as string, {
      id: row.id as string,
      action: Number(row.action),
      timestamp: new Date(row.timestamp as string | Date),
      target: row.target as string,
      old: row.old as string,
      comment: row.comment as string,
      projectName: row.project_name as string | null,
      projectSlug: row.project_slug as string | null,
      componentName: row.component_name as string | null,
      componentSlug: row.component_slug as string | null,
      languageName: row.language_name as string | null,
      languageCode: row.language_code as string | null,
      unitId: row.unit_id as string | null,
      unitSource: row.unit_source as string | null,
      unitContext: row.unit_context as string | null,
      unitIdHash: row.unit_id_hash as string | null,
      actorUsername: row.actor_username as string | null,
      actorFullName: row.actor_full_name as string | null,
    });
  }
  return details;
}
