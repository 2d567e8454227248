import { renderDigestMail, renderInstantMail, type ChangeDetails } from './notification-mail.renderer';

const site = { siteUrl: 'https://l10n.example.org', siteTitle: 'Example', subjectPrefix: '[Example] ' };

const change = (overrides: Partial<ChangeDetails> = {}): ChangeDetails => ({
  id: '42',
  action: 2,
  timestamp: new Date('2026-05-01T10:00:00Z'),
  target: 'Nový <b>text</b>',
  old: 'Starý',
  comment: '',
  projectName: 'Demo',
  projectSlug: 'demo',
  componentName: 'App',
  componentSlug: 'app',
  languageName: 'Czech',
  languageCode: 'cs',
  unitId: '7',
  unitSource: 'New text',
  unitContext: 'menu.new',
  unitIdHash: '-1',
  actorUsername: 'ada',
  actorFullName: 'Ada\r\nBcc: x@example.org',
  ...overrides,
});

describe('notification mails', () => {
  it('renders an instant mail: prefixed subject, escaped HTML, text alternative, threading headers', () => {
    const mail = renderInstantMail(change(), 'ChangedStringNotificaton', 'reader', site);
    expect(mail.subject).toBe('[Example] String changed in Demo/App — Czech');
    expect(mail.html).toContain('Nový &#60;b&#62;text&#60;/b&#62;');
    expect(mail.html).not.toContain('<b>text');
    expect(mail.text).toContain('New: Nový <b>text</b>');
    expect(mail.text).toContain('Previous: Starý');
    expect(mail.text).toContain('https://l10n.example.org/translate/demo/app/cs/?checksum=');
    expect(mail.headers).toMatchObject({
      'X-Weblate-Notification': 'ChangedStringNotificaton',
      'X-Weblate-Recipient-Username': 'reader',
      'In-Reply-To': '<demo/app/cs/7@l10n.example.org>',
      References: '<demo/app/cs/7@l10n.example.org>',
    });
    expect(mail.headers['Message-ID']).toMatch(/^<[0-9a-f-]{36}@l10n\.example\.org>$/);
    expect(mail.fromName).toBe('Ada\r\nBcc: x@example.org');
  });

  it('threads only string events and falls back to the site title as sender', () => {
    const mail = renderInstantMail(change({ action: 14, unitId: null, unitIdHash: null, unitSource: null, languageName: null, languageCode: null, actorUsername: null, actorFullName: null, target: '', old: '' }), 'LockNotification', 'reader', site);
    expect(mail.subject).toBe('[Example] Component lock changed in Demo/App');
    expect(mail.headers).not.toHaveProperty('In-Reply-To');
    expect(mail.fromName).toBe('Example');
  });

  it('renders a digest, newest first as given, and says how many were left out', () => {
    const mail = renderDigestMail([{ notification: 'NewSuggestionNotificaton', change: change({ action: 4 }) }], 150, [], 3, 'reader', site);
    expect(mail.subject).toBe('[Example] Weekly digest: 151 changes');
    expect(mail.text).toContain('150 more changes were left out of this digest.');
    expect(mail.headers['X-Weblate-Notification']).toBe('NewSuggestionNotificaton');
  });

  it('lists summary counts per translation with a total and a search link', () => {
    const row = { notification: 'ToDoStringsNotification', projectName: 'Demo', projectSlug: 'demo', componentName: 'App', componentSlug: 'app', languageName: 'Czech', languageCode: 'cs', count: 3, translations: 2 };
    const mail = renderDigestMail([], 0, [row, { ...row, languageName: 'German', languageCode: 'de', count: 4 }], 3, 'reader', site);
    expect(mail.subject).toBe('[Example] Weekly digest');
    expect(mail.text).toContain('== Unfinished strings\nDemo/App — Czech: 3\n  https://l10n.example.org/translate/demo/app/cs/?q=state%3A%3Ctranslated\nDemo/App — German: 4');
    expect(mail.text).toContain('Total: 7');
    expect(mail.headers['X-Weblate-Notification']).toBe('ToDoStringsNotification');
  });
});
