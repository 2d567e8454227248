import {
  DEFAULT_SUBSCRIPTIONS,
  FREQ_INSTANT,
  FREQ_WEEKLY,
  NOTIFICATION_FREQUENCIES,
  NOTIFICATION_KINDS,
  NOTIFICATION_SCOPES,
} from './notification-kinds';

describe('notification kinds and default subscriptions', () => {
  it('only subscribes new users to known kinds, scopes and frequencies, each once', () => {
    for (const entry of DEFAULT_SUBSCRIPTIONS) {
      expect(NOTIFICATION_KINDS).toContain(entry.notification);
      expect(NOTIFICATION_SCOPES).toContain(entry.scope);
      expect(NOTIFICATION_FREQUENCIES).toContain(entry.frequency);
    }
    const keys = DEFAULT_SUBSCRIPTIONS.map((entry) => `${entry.scope}:${entry.notification}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('covers the spec’s scope 10 and scope 20 kinds (api-spec.md "Events")', () => {
    const byScope = (scope: number) => DEFAULT_SUBSCRIPTIONS.filter((entry) => entry.scope === scope).map((entry) => entry.notification);
    expect(byScope(10)).toHaveLength(10);
    expect(byScope(20)).toEqual([
      'MergeFailureNotification',
      'ParseErrorNotification',
      'NewTranslationNotificaton',
      'NewComponentNotificaton',
      'NewAlertNotificaton',
      'NewAnnouncementNotificaton',
    ]);
    expect(DEFAULT_SUBSCRIPTIONS.length).toBe(16);
  });

  it('sends the digest-only summary kinds weekly and everything else instantly', () => {
    for (const entry of DEFAULT_SUBSCRIPTIONS) {
      const summary = entry.notification === 'PendingSuggestionsNotification' || entry.notification === 'ToDoStringsNotification';
      expect([entry.notification, entry.frequency]).toEqual([entry.notification, summary ? FREQ_WEEKLY : FREQ_INSTANT]);
    }
  });
});
