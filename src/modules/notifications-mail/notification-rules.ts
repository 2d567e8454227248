import { CONTENT_CHANGE_ACTIONS } from '../changes/change-actions';
import { FREQ_DAILY, FREQ_MONTHLY, FREQ_WEEKLY, type NotificationKind } from '../users/notification-kinds';

// Which change actions each notification kind reports (integration.md §4.2, from Weblate's
// accounts/notifications.py). Only kinds whose triggering actions Glossa records are listed; the README
// ("E-mail notifications") names the others and why they are never sent.

export interface KindRule {
  kind: NotificationKind;
  actions: readonly number[];
  /**
   * Weblate's `ignore_watched` (MentionCommentNotificaton): a Watched-scope subscription applies to every
   * project, because being mentioned matters wherever it happens.
   */
  ignoresWatched?: boolean;
  /** Only @mentioned users (MentionCommentNotificaton). */
  mentionedOnly?: boolean;
  /** Only the author of the string's last content change (LastAuthorCommentNotificaton). */
  lastAuthorOnly?: boolean;
}

/**
 * In priority order: a user gets at most one mail per change and frequency, of the first kind here that
 * selects them. That is Weblate's `skip_when_notify` (§4.2, §4.3): the comment kinds skip a user whom
 * NewCommentNotificaton (then MentionCommentNotificaton) already notifies, and ChangedStringNotificaton skips
 * a user whom TranslatedStringNotificaton or ApprovedStringNotificaton already notify.
 */
export const KIND_RULES: readonly KindRule[] = [
  { kind: 'RepositoryNotification', actions: [17, 18, 19, 21, 20] },
  { kind: 'LockNotification', actions: [14, 15] },
  { kind: 'ParseErrorNotification', actions: [24] },
  { kind: 'MergeFailureNotification', actions: [22, 23, 28] },
  { kind: 'NewAlertNotificaton', actions: [47] },
  { kind: 'NewTranslationNotificaton', actions: [48, 49] },
  { kind: 'NewContributorNotificaton', actions: [45] },
  { kind: 'NewSuggestionNotificaton', actions: [4] },
  { kind: 'NewCommentNotificaton', actions: [3] },
  { kind: 'MentionCommentNotificaton', actions: [3], ignoresWatched: true, mentionedOnly: true },
  { kind: 'LastAuthorCommentNotificaton', actions: [3], lastAuthorOnly: true },
  { kind: 'NewStringNotificaton', actions: [31, 71, 73, 37, 30] },
  { kind: 'TranslatedStringNotificaton', actions: [2, 5, 7] },
  { kind: 'ApprovedStringNotificaton', actions: [36] },
  { kind: 'ChangedStringNotificaton', actions: CONTENT_CHANGE_ACTIONS },
];

/** Every action some kind reports: the change feed is read with this filter. */
export const NOTIFIED_ACTIONS: readonly number[] = [...new Set(KIND_RULES.flatMap((rule) => rule.actions))].sort((a, b) => a - b);

/**
 * Actions that count as contributing to a project: Weblate's profile option "automatically watch projects on
 * contribution" (auto_watch, on by default) adds the project to the acting user's watched projects. Glossa has
 * no profile page to watch a project by hand, so this is how the Watched scope gets its projects.
 */
export const CONTRIBUTION_ACTIONS: readonly number[] = [...new Set([...CONTENT_CHANGE_ACTIONS, 3, 4])].sort((a, b) => a - b);

/** The digest frequencies and their pg-boss crons (UTC, §4.5: daily 01:00, weekly Monday 02:00, monthly day 1 03:00). */
export const DIGEST_SCHEDULES: ReadonlyArray<{ frequency: number; name: string; cron: string }> = [
  { frequency: FREQ_DAILY, name: 'daily', cron: '0 1 * * *' },
  { frequency: FREQ_WEEKLY, name: 'weekly', cron: '0 2 * * 1' },
  { frequency: FREQ_MONTHLY, name: 'monthly', cron: '0 3 1 * *' },
];

export interface DigestWindow {
  start: Date;
  end: Date;
}

/**
 * The window a digest run at `now` covers: the last whole UTC day, the last whole week (Monday to Monday) or
 * the last whole calendar month before `now`. Aligned windows give every run a stable identity, so a job run
 * twice (a retry, a second process, a restart) finds the window already sent.
 */
export function digestWindow(frequency: number, now: Date): DigestWindow {
  const day = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const DAY = 86_400_000;
  if (frequency === FREQ_DAILY) return { start: new Date(day - DAY), end: new Date(day) };
  if (frequency === FREQ_WEEKLY) {
    const monday = day - ((now.getUTCDay() + 6) % 7) * DAY;
    return { start: new Date(monday - 7 * DAY), end: new Date(monday) };
  }
  if (frequency === FREQ_MONTHLY) {
    const first = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1);
    return { start: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1)), end: new Date(first) };
  }
  throw new Error(`Not a digest frequency: ${frequency}`);
}

/** The most changes one digest lists (Weblate: 100, the rest is flagged as "overlimit", §4.5). */
export const DIGEST_LIMIT = 100;

/**
 * When a mail that failed on a connection error is tried again: Weblate's send_mails backs off exponentially
 * from 600 s, capped at 3600 s (§4.6). `attempts` counts the failed tries so far (1 after the first).
 */
export function retryDelaySeconds(attempts: number): number {
  return Math.min(3600, 600 * 2 ** Math.max(0, attempts - 1));
}

/** After this many failed tries (about a day of retries) a mail is dropped and the drop is logged. */
export const MAX_SEND_ATTEMPTS = 25;

/**
 * The most instant mails one user may have waiting in the outbox. Past it further instant mails for that user
 * are discarded (and logged) until the queue drains, like Weblate's per-address rate limit that drops
 * notifications (integration.md §4.4): a bulk edit or a flood of edits by another user must not bury anyone's
 * mailbox, nor grow the outbox without bound while the SMTP server is unreachable.
 */
export const MAX_QUEUED_MAILS_PER_USER = 500;
