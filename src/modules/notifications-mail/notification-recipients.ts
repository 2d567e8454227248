import type { EntityManager } from 'typeorm';
import { componentIdVisibleSql, groupSelectsProjectSql, parameterizedCaller, projectIdVisibleSql } from '../../common/auth/access-sql';
import { CONTENT_CHANGE_ACTIONS } from '../changes/change-actions';
import { SCOPE_ADMIN, SCOPE_ALL, SCOPE_COMPONENT, SCOPE_PROJECT, SCOPE_WATCHED } from '../users/notification-kinds';
import { KIND_RULES } from './notification-rules';

// Who is told about a change (integration.md §4.3), for a batch of changes in one statement:
// * subscriptions of a kind the change's action triggers, by scope: All (0), Watched (10: projects in the user's
//   watched list, or anywhere for kinds that ignore it), Administered (20: a team of the user grants
//   `project.edit` on the project, Weblate's project admins), Project (30), Component (40);
// * per user and kind only the most specific subscription counts (highest scope): a component-level
//   "no notification" (frequency 0) silences a watched-level instant one;
// * never the acting user, inactive users, bots, users without an e-mail address, or users who cannot see the
//   change's project and component (the API's own visibility rules, src/common/auth/access-sql.ts);
// * a user gets one notification per change and frequency, of the first kind in KIND_RULES that selects
//   them (Weblate's skip_when_notify).
// Profile languages: Glossa keeps none, so language-filtered kinds are not filtered by language (README).

export interface Recipient {
  changeId: string;
  userId: number;
  notification: string;
  frequency: number;
  /** The subscription when it is a onetime one (deleted after its first instant mail). */
  onetimeSubscriptionId: number | null;
  email: string;
  username: string;
}

/** Condition: user `userId` administers project `projectId` (a team of theirs grants `project.edit` on it). */
function projectAdminSql(userId: string, projectId: string): string {
  return `EXISTS (SELECT 1 FROM group_members gm
                    JOIN groups g ON g.id = gm.group_id
                    JOIN group_roles gr ON gr.group_id = g.id
                    JOIN roles ar ON ar.id = gr.role_id
                    JOIN projects ap ON ap.id = ${projectId}
                   WHERE gm.user_id = ${userId} AND 'project.edit' = ANY (ar.permissions) AND ${groupSelectsProjectSql('g', 'ap')})`;
}

/**
 * Condition: subscription `s` covers an event of project `projectId` and component `componentId` (SQL
 * expressions) by its scope; `ignoresWatched` (SQL boolean) makes the Watched scope cover every project.
 */
export function subscriptionCoversSql(s: string, projectId: string, componentId: string, ignoresWatched = 'false'): string {
  return `(${s}.scope = ${SCOPE_ALL}
         OR (${s}.scope = ${SCOPE_WATCHED} AND (${ignoresWatched} OR EXISTS (
               SELECT 1 FROM watched_projects w WHERE w.user_id = ${s}.user_id AND w.project_id = ${projectId})))
         OR (${s}.scope = ${SCOPE_ADMIN} AND ${projectAdminSql(`${s}.user_id`, projectId)})
         OR (${s}.scope = ${SCOPE_PROJECT} AND ${s}.project_id = ${projectId})
         OR (${s}.scope = ${SCOPE_COMPONENT} AND ${s}.component_id = ${componentId}))`;
}

/** The rules as a VALUES list; every value is a constant of this code base, never user input. */
function rulesValuesSql(): string {
  const rows: string[] = [];
  KIND_RULES.forEach((rule, priority) => {
    for (const action of rule.actions) {
      rows.push(`('${rule.kind}', ${Number(action)}, ${priority}, ${Boolean(rule.ignoresWatched)}, ${Boolean(rule.mentionedOnly)}, ${Boolean(rule.lastAuthorOnly)})`);
    }
  });
  return rows.join(',\n           ');
}

/**
 * Condition: the user row `u` may see the change row `ch` (its component and project), by the API's rules
 * with the user's id taken from the row; superusers see everything.
 */
export function userSeesChangeSql(u: string, ch: string): string {
  const user = parameterizedCaller({ id: 0, username: '', isSuperuser: false }, `${u}.id`);
  return `(${u}.is_superuser OR ((${ch}.component_id IS NULL OR ${componentIdVisibleSql(user, `${ch}.component_id`)})
            AND (${ch}.project_id IS NULL OR ${projectIdVisibleSql(user, `${ch}.project_id`)})))`;
}

const RECIPIENTS_SQL = `
  WITH ch AS (
    SELECT c.id, c.action, c.project_id, c.component_id, c.unit_id, c.user_id, COALESCE(c.details->>'comment', '') AS comment
      FROM changes c WHERE c.id = ANY($1::bigint[])
  ),
  rules(kind, action, priority, ignores_watched, mentioned_only, last_author_only) AS (
    VALUES ${rulesValuesSql()}
  ),
  -- Users @mentioned in comments, by exact username (a trailing dot ends the sentence, not the name).
  mentioned AS (
    SELECT DISTINCT ch.id AS change_id, mu.id AS user_id
      FROM ch
      CROSS JOIN LATERAL regexp_matches(ch.comment, '(?:^|[^[:alnum:]_@.])@([[:alnum:]_.@+-]{1,150})', 'g') AS mention
      JOIN users mu ON mu.username = rtrim(mention[1], '.')
     WHERE ch.comment <> ''
  ),
  events AS (
    SELECT ch.id AS change_id, ch.project_id, ch.component_id, r.kind, r.priority, r.ignores_watched, r.mentioned_only, r.last_author_only
      FROM ch JOIN rules r ON r.action = ch.action
  ),
  -- Candidate subscriptions, one branch per scope so each is found by a join rather than by testing every
  -- subscription of the kind against every change (every user has Watched and Administered defaults).
  candidates AS (
    SELECT e.*, s.user_id, s.id AS subscription_id, s.scope, s.frequency, s.onetime
      FROM events e JOIN subscriptions s ON s.notification = e.kind AND s.scope = ${SCOPE_ALL}
    UNION ALL
    SELECT e.*, s.user_id, s.id, s.scope, s.frequency, s.onetime
      FROM events e
      JOIN watched_projects w ON w.project_id = e.project_id AND NOT e.ignores_watched
      JOIN subscriptions s ON s.user_id = w.user_id AND s.notification = e.kind AND s.scope = ${SCOPE_WATCHED}
    UNION ALL
    SELECT e.*, s.user_id, s.id, s.scope, s.frequency, s.onetime
      FROM events e
      JOIN mentioned mn ON mn.change_id = e.change_id AND e.ignores_watched
      JOIN subscriptions s ON s.user_id = mn.user_id AND s.notification = e.kind AND s.scope = ${SCOPE_WATCHED}
    UNION ALL
    SELECT e.*, s.user_id, s.id, s.scope, s.frequency, s.onetime
      FROM events e JOIN subscriptions s ON s.notification = e.kind AND s.scope = ${SCOPE_ADMIN}
     WHERE ${projectAdminSql('s.user_id', 'e.project_id')}
    UNION ALL
    SELECT e.*, s.user_id, s.id, s.scope, s.frequency, s.onetime
      FROM events e JOIN subscriptions s ON s.notification = e.kind AND s.scope = ${SCOPE_PROJECT} AND s.project_id = e.project_id
    UNION ALL
    SELECT e.*, s.user_id, s.id, s.scope, s.frequency, s.onetime
      FROM events e JOIN subscriptions s ON s.notification = e.kind AND s.scope = ${SCOPE_COMPONENT} AND s.component_id = e.component_id
  ),
  matched AS (
    SELECT c.*, row_number() OVER (PARTITION BY c.change_id, c.kind, c.user_id ORDER BY c.scope DESC, c.subscription_id) AS specificity
      FROM candidates c
  )
  SELECT DISTINCT ON (m.change_id, m.user_id, m.frequency)
         m.change_id::text AS change_id, m.user_id, m.kind, m.frequency,
         CASE WHEN m.onetime THEN m.subscription_id END AS onetime_subscription_id, u.email, u.username
    FROM matched m
    JOIN ch ON ch.id = m.change_id
    JOIN users u ON u.id = m.user_id
   WHERE m.specificity = 1 AND m.frequency <> 0
     AND u.is_active AND NOT u.is_bot AND u.email <> ''
     AND u.id IS DISTINCT FROM ch.user_id
     AND (NOT m.mentioned_only OR EXISTS (SELECT 1 FROM mentioned mn WHERE mn.change_id = m.change_id AND mn.user_id = m.user_id))
     AND (NOT m.last_author_only OR u.id = (
           SELECT pc.author_id FROM changes pc
            WHERE pc.unit_id = ch.unit_id AND pc.id < ch.id AND pc.action IN (${CONTENT_CHANGE_ACTIONS.join(', ')})
            ORDER BY pc.id DESC LIMIT 1))
     AND ${userSeesChangeSql('u', 'ch')}
   ORDER BY m.change_id, m.user_id, m.frequency, m.priority`;

/**
 * Everyone to notify about the changes `changeIds`, at every frequency but "none". The statement is large (one
 * branch per scope, the visibility rules) and its estimate passes jit_above_cost: with JIT, one batch of 100
 * changes for 10,000 users took 3.0 s against 0.13 s without, which is why every session runs without it
 * (src/database/session-settings.ts).
 */
export async function findRecipients(manager: Pick<EntityManager, 'query'>, changeIds: readonly string[]): Promise<Recipient[]> {
  if (changeIds.length === 0) return [];
  const rows: Array<{ change_id: string; user_id: number; kind: string; frequency: number; onetime_subscription_id: number | null; email: string; username: string }> =
    await manager.query(RECIPIENTS_SQL, [changeIds]);
  return rows.map((row) => ({
    changeId: row.change_id,
    userId: row.user_id,
    notification: row.kind,
    frequency: Number(row.frequency),
    onetimeSubscriptionId: row.onetime_subscription_id,
    email: row.email,
    username: row.username,
  }));
}

/**
 * Weblate's auto_watch: the acting users of contributions start watching the project (notification-rules.ts
 * CONTRIBUTION_ACTIONS). Bots are left out: they subscribe to nothing that Watched would widen.
 */
export async function watchContributedProjects(manager: Pick<EntityManager, 'query'>, changeIds: readonly string[], actions: readonly number[]): Promise<void> {
  if (changeIds.length === 0) return;
  await manager.query(
    `INSERT INTO watched_projects (user_id, project_id)
     SELECT DISTINCT c.user_id, c.project_id
       FROM changes c JOIN users u ON u.id = c.user_id AND NOT u.is_bot
      WHERE c.id = ANY($1::bigint[]) AND c.project_id IS NOT NULL AND c.action = ANY($2::int[])
         ON CONFLICT DO NOTHING`,
    [changeIds, actions],
  );
}
