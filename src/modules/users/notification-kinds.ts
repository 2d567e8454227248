/**
 * Notification subscriptions: the kinds, scopes and frequencies a subscription may take
 * (weblate-api.md §8.3, §8.4) and the subscriptions every new user starts with (§8.5).
 */

/**
 * The notification kinds Weblate 4.x registers, in its registration order (weblate/accounts/notifications.py).
 * The values are class names, misspellings ("Notificaton") included: clients send and receive them as is.
 * The 5.x additions (LanguageTranslatedNotificaton, ComponentTranslatedNotificaton,
 * TranslationActivitySummaryNotification) are not part of the spec era.
 */
export const NOTIFICATION_KINDS = [
  'MergeFailureNotification',
  'RepositoryNotification',
  'LockNotification',
  'LicenseNotification',
  'ParseErrorNotification',
  'NewStringNotificaton',
  'NewContributorNotificaton',
  'NewSuggestionNotificaton',
  'LastAuthorCommentNotificaton',
  'MentionCommentNotificaton',
  'NewCommentNotificaton',
  'ChangedStringNotificaton',
  'TranslatedStringNotificaton',
  'ApprovedStringNotificaton',
  'NewTranslationNotificaton',
  'NewComponentNotificaton',
  'NewAnnouncementNotificaton',
  'NewAlertNotificaton',
  'PendingSuggestionsNotification',
  'ToDoStringsNotification',
] as const;

export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/** SCOPE_ALL, SCOPE_WATCHED, SCOPE_ADMIN, SCOPE_PROJECT, SCOPE_COMPONENT. */
export const SCOPE_ALL = 0;
export const SCOPE_WATCHED = 10;
export const SCOPE_ADMIN = 20;
export const SCOPE_PROJECT = 30;
export const SCOPE_COMPONENT = 40;
export const NOTIFICATION_SCOPES = [SCOPE_ALL, SCOPE_WATCHED, SCOPE_ADMIN, SCOPE_PROJECT, SCOPE_COMPONENT] as const;

/** FREQ_NONE, FREQ_INSTANT, FREQ_DAILY, FREQ_WEEKLY, FREQ_MONTHLY. */
export const FREQ_NONE = 0;
export const FREQ_INSTANT = 1;
export const FREQ_DAILY = 2;
export const FREQ_WEEKLY = 3;
export const FREQ_MONTHLY = 4;
export const NOTIFICATION_FREQUENCIES = [FREQ_NONE, FREQ_INSTANT, FREQ_DAILY, FREQ_WEEKLY, FREQ_MONTHLY] as const;

export interface DefaultSubscription {
  scope: number;
  frequency: number;
  notification: NotificationKind;
}

/**
 * What a new user is subscribed to. The spec's observed users hold exactly these kinds (api-spec.md
 * "Events": ten for watched projects, scope 10, six for administered projects, scope 20), which is more
 * than Weblate's code default of the time (§8.5: eight entries), so the spec's lists are what Glossa
 * creates, in the spec's order (ids follow it).
 * Frequencies: instant (1) for every event kind; weekly (3) for the two summary kinds, which Weblate only
 * sends as digests (its SummaryNotification offers no instant frequency). Those are the two frequencies the
 * spec observed.
 */
export const DEFAULT_SUBSCRIPTIONS: readonly DefaultSubscription[] = [
  { scope: SCOPE_WATCHED, frequency: FREQ_INSTANT, notification: 'LastAuthorCommentNotificaton' },
  { scope: SCOPE_WATCHED, frequency: FREQ_INSTANT, notification: 'MentionCommentNotificaton' },
  { scope: SCOPE_WATCHED, frequency: FREQ_INSTANT, notification: 'NewAnnouncementNotificaton' },
  { scope: SCOPE_WATCHED, frequency: FREQ_INSTANT, notification: 'NewStringNotificaton' },
  { scope: SCOPE_WATCHED, frequency: FREQ_INSTANT, notification: 'NewContributorNotificaton' },
  { scope: SCOPE_WATCHED, frequency: FREQ_INSTANT, notification: 'NewSuggestionNotificaton' },
  { scope: SCOPE_WATCHED, frequency: FREQ_INSTANT, notification: 'NewCommentNotificaton' },
  { scope: SCOPE_WATCHED, frequency: FREQ_INSTANT, notification: 'ChangedStringNotificaton' },
  { scope: SCOPE_WATCHED, frequency: FREQ_WEEKLY, notification: 'PendingSuggestionsNotification' },
  { scope: SCOPE_WATCHED, frequency: FREQ_WEEKLY, notification: 'ToDoStringsNotification' },
  { scope: SCOPE_ADMIN, frequency: FREQ_INSTANT, notification: 'MergeFailureNotification' },
  { scope: SCOPE_ADMIN, frequency: FREQ_INSTANT, notification: 'ParseErrorNotification' },
  { scope: SCOPE_ADMIN, frequency: FREQ_INSTANT, notification: 'NewTranslationNotificaton' },
  { scope: SCOPE_ADMIN, frequency: FREQ_INSTANT, notification: 'NewComponentNotificaton' },
  { scope: SCOPE_ADMIN, frequency: FREQ_INSTANT, notification: 'NewAlertNotificaton' },
  { scope: SCOPE_ADMIN, frequency: FREQ_INSTANT, notification: 'NewAnnouncementNotificaton' },
];
