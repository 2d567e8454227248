import type { EntityManager } from 'typeorm';
import type { DigestSummary } from './notification-mail.renderer';
import { subscriptionCoversSql, userSeesChangeSql } from './notification-recipients';

// The digest-only summary kinds (integration.md §4.2, §4.5): PendingSuggestionsNotification counts the strings
// with suggestions of each translation, ToDoStringsNotification its unfinished strings (total − translated,
// Weblate's "todo"). Like Weblate, one pass over all translations per digest run; the counts come from the
// statistics kept on each translation, so the pass reads no strings. The recipient rules are those of change
// notifications: scope, the most specific subscription per user and kind, active users with an address, and
// visibility of the translation's component.

export const SUMMARY_KINDS = ['PendingSuggestionsNotification', 'ToDoStringsNotification'] as const;
/** Translations listed per user and kind; the rest are counted. */
export const SUMMARY_LIMIT = 50;

/** A summary row of the renderer's shape (DigestSummary), for one user. */
export interface SummaryRow extends DigestSummary {
  userId: number;
}

const SUMMARY_SQL = `
  WITH tr AS (
    SELECT t.id, co.project_id, t.component_id, t.have_suggestion AS pending, t.total - t.translated AS todo,
           p.name AS project_name, p.slug AS project_slug, co.name AS component_name, co.slug AS component_slug,
           l.name AS language_name, t.language_code
      FROM translations t
      JOIN components co ON co.id = t.component_id
      JOIN projects p ON p.id = co.project_id
      JOIN languages l ON l.id = t.language_id
     WHERE NOT t.is_source AND (t.have_suggestion > 0 OR t.total > t.translated)
  ),
  matched AS (
    SELECT tr.id AS translation_id, s.notification AS kind, s.user_id, s.frequency,
           row_number() OVER (PARTITION BY tr.id, s.notification, s.user_id ORDER BY s.scope DESC, s.id) AS specificity
      FROM tr
      JOIN subscriptions s ON s.notification = ANY ($2::text[]) AND ${subscriptionCoversSql('s', 'tr.project_id', 'tr.component_id')}
     WHERE (s.notification = 'PendingSuggestionsNotification' AND tr.pending > 0)
        OR (s.notification = 'ToDoStringsNotification' AND tr.todo > 0)
  ),
  listed AS (
    SELECT m.user_id, m.kind, tr.*,
           CASE WHEN m.kind = 'PendingSuggestionsNotification' THEN tr.pending ELSE tr.todo END AS count,
           row_number() OVER (PARTITION BY m.user_id, m.kind ORDER BY tr.project_name, tr.component_name, tr.language_name, tr.id) AS position,
           count(*) OVER (PARTITION BY m.user_id, m.kind) AS translations
      FROM matched m
      JOIN tr ON tr.id = m.translation_id
      JOIN users u ON u.id = m.user_id
     WHERE m.specificity = 1 AND m.frequency = $1
       AND u.is_active AND NOT u.is_bot AND u.email <> '' AND ${userSeesChangeSql('u', 'tr')}
  )
  SELECT user_id, kind, project_name, project_slug, component_name, component_slug, language_name, language_code,
         count::int AS count, translations::int AS translations
    FROM listed WHERE position <= $3
   ORDER BY user_id, kind, position`;

/** The summary rows of every user subscribed to a summary kind at `frequency`, by user id. */
export async function loadSummaries(manager: Pick<EntityManager, 'query'>, frequency: number): Promise<Map<number, SummaryRow[]>> {
  const rows: Array<Record<string, unknown>> = await manager.query(SUMMARY_SQL, [frequency, SUMMARY_KINDS, SUMMARY_LIMIT]);
  const byUser = new Map<number, SummaryRow[]>();
  for (const row of rows) {
    const userId = row.user_id as number;
    const list = byUser.get(userId) ?? [];
    list.push({
      userId,
      notification: row.kind as string,
      projectName: row.project_name as string,
      projectSlug: row.project_slug as string,
      componentName: row.component_name as string,
      componentSlug: row.component_slug as string,
      languageName: row.language_name as string,
      languageCode: row.language_code as string,
      count: row.count as number,
      translations: row.translations as number,
    });
    byUser.set(userId, list);
  }
  return byUser;
}
