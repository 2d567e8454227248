import { FREQ_DAILY, FREQ_MONTHLY, FREQ_WEEKLY, NOTIFICATION_KINDS } from '../users/notification-kinds';
import { CONTRIBUTION_ACTIONS, digestWindow, KIND_RULES, NOTIFIED_ACTIONS, retryDelaySeconds } from './notification-rules';

describe('notification rules', () => {
  it('names only kinds subscriptions can take, each once, and feeds on their actions', () => {
    const kinds = KIND_RULES.map((rule) => rule.kind);
    expect(new Set(kinds).size).toBe(kinds.length);
    for (const kind of kinds) expect(NOTIFICATION_KINDS).toContain(kind);
    expect(NOTIFIED_ACTIONS).toEqual(expect.arrayContaining([2, 3, 4, 5, 7, 14, 15, 17, 24, 36, 45, 47, 48]));
    expect(CONTRIBUTION_ACTIONS).toEqual(expect.arrayContaining([2, 3, 4, 5]));
  });

  it('puts the kinds Weblate skips behind the ones that already notify (skip_when_notify)', () => {
    const position = (kind: string) => KIND_RULES.findIndex((rule) => rule.kind === kind);
    expect(position('NewCommentNotificaton')).toBeLessThan(position('MentionCommentNotificaton'));
    expect(position('MentionCommentNotificaton')).toBeLessThan(position('LastAuthorCommentNotificaton'));
    expect(position('TranslatedStringNotificaton')).toBeLessThan(position('ChangedStringNotificaton'));
    expect(position('ApprovedStringNotificaton')).toBeLessThan(position('ChangedStringNotificaton'));
  });

  it('covers the last whole day, Monday-to-Monday week and calendar month before the run', () => {
    const run = new Date('2026-03-04T01:00:00Z'); // a Wednesday
    expect(digestWindow(FREQ_DAILY, run)).toEqual({ start: new Date('2026-03-03T00:00:00Z'), end: new Date('2026-03-04T00:00:00Z') });
    expect(digestWindow(FREQ_WEEKLY, run)).toEqual({ start: new Date('2026-02-23T00:00:00Z'), end: new Date('2026-03-02T00:00:00Z') });
    expect(digestWindow(FREQ_MONTHLY, run)).toEqual({ start: new Date('2026-02-01T00:00:00Z'), end: new Date('2026-03-01T00:00:00Z') });
    // The cron slots themselves: Monday 02:00 and the 1st at 03:00, across a year boundary.
    expect(digestWindow(FREQ_WEEKLY, new Date('2026-03-02T02:00:00Z'))).toEqual({ start: new Date('2026-02-23T00:00:00Z'), end: new Date('2026-03-02T00:00:00Z') });
    expect(digestWindow(FREQ_MONTHLY, new Date('2027-01-01T03:00:00Z'))).toEqual({ start: new Date('2026-12-01T00:00:00Z'), end: new Date('2027-01-01T00:00:00Z') });
    expect(() => digestWindow(1, run)).toThrow('Not a digest frequency: 1');
  });

  it('backs off exponentially from 600 s, capped at 3600 s (Weblate send_mails)', () => {
    expect([1, 2, 3, 4, 5, 20].map(retryDelaySeconds)).toEqual([600, 1200, 2400, 3600, 3600, 3600]);
  });
});
