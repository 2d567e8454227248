import request from 'supertest';
import type { App } from 'supertest/types';
import { DataSource } from 'typeorm';
import { GENERATOR } from '../../src/common/app-version';
import { createGlossaApp, type GlossaApp } from '../../src/bootstrap/create-app';
import { NotificationDigests } from '../../src/modules/notifications-mail/notification-digests.service';
import { STALE_BACKLOG_DAYS } from '../../src/modules/notifications-mail/notification-feed.consumer';
import { MAX_QUEUED_MAILS_PER_USER } from '../../src/modules/notifications-mail/notification-rules';
import { FREQ_DAILY, FREQ_INSTANT, FREQ_NONE, FREQ_WEEKLY, SCOPE_ADMIN, SCOPE_ALL, SCOPE_COMPONENT, SCOPE_PROJECT, SCOPE_WATCHED } from '../../src/modules/users/notification-kinds';
import { createTranslatedComponent, type SeededContent } from '../support/content-factories';
import { authHeader } from '../support/contract';
import { withClient } from '../support/database-server';
import { eventually } from '../support/server-process';
import { SmtpSink } from '../support/smtp-sink';
import { createTestApp, TEST_ADMIN_TOKEN, type TestApp } from '../support/test-app';
import { createTeam } from '../support/team-factories';
import { createUserWithToken } from '../support/users-factories';
import { PATIENCE_MS } from '../support/wait';

// E-mail notifications (issue 14 item 3, README "E-mail notifications") against a real SMTP server: what the
// subscriptions ask for arrives with Weblate's headers, nobody hears of their own change or of a project they
// cannot see, the most specific subscription wins, digests go out once per window, and a restart neither
// repeats nor loses anything.

type User = { id: number; username: string; token: string; email: string };

describe('e-mail notifications', () => {
  let sink: SmtpSink;
  let app: TestApp;
  let glossa: GlossaApp;
  let ds: DataSource;
  let content: SeededContent;
  let secret: SeededContent;
  const users: Record<string, User> = {};

  const http = () => request(glossa.app.getHttpServer() as App);

  const makeUser = async (username: string, options: { isSuperuser?: boolean; fullName?: string } = {}): Promise<User> => {
    const user = await createUserWithToken(ds, username, options);
    users[username] = { ...user, email: `${username}@example.org` };
    return users[username];
  };

  const subscribe = async (user: User, notification: string, scope: number, frequency: number, target: { projectId?: number; componentId?: number } = {}) => {
    await ds.query(
      'INSERT INTO subscriptions (user_id, notification, scope, frequency, project_id, component_id) VALUES ($1, $2, $3, $4, $5, $6)',
      [user.id, notification, scope, frequency, target.projectId ?? null, target.componentId ?? null],
    );
  };

  /** Translates string `index` of the Czech translation of `of` as `token`; answers the unit id. */
  const translate = async (of: SeededContent, index: number, text: string, token: string): Promise<string> => {
    const unitId = of.translations.find((t) => t.languageCode === 'cs')!.unitIds[index];
    await http().patch(`/api/units/${unitId}/`).set(...authHeader(token)).send({ target: [text], state: 20 }).expect(200);
    return unitId;
  };

  /** Every queued mail has been handed to the SMTP server (or dropped): what has not arrived will not. */
  const outboxEmpty = () =>
    eventually(async () => {
      const [{ count }]: Array<{ count: number }> = await ds.query('SELECT count(*)::int AS count FROM notification_mails');
      return count === 0 ? true : undefined;
    }, PATIENCE_MS, 'the outbox to empty');

  const mentions = (mailText: string | undefined, text: string) => (mailText ?? '').includes(text);

  beforeAll(async () => {
    sink = await SmtpSink.start();
    app = await createTestApp({ EMAIL_HOST: '127.0.0.1', EMAIL_PORT: String(sink.port), DEFAULT_FROM_EMAIL: 'notify@glossa.test' });
    glossa = app.glossa;
    ds = glossa.app.get(DataSource);
    content = await createTranslatedComponent(ds, { languages: ['cs'], units: 6, component: { manageUnits: true } });
    secret = await createTranslatedComponent(ds, { languages: ['cs'], units: 2, project: { accessControl: 100 } });
    await makeUser('actor', { fullName: 'Ada Actor' });
    await makeUser('reader');
    await makeUser('outsider');
    await makeUser('watcher');
    await makeUser('silenced');
    await makeUser('digester');
    await makeUser('overseer', { isSuperuser: true });
    await makeUser('sleeper');
    await makeUser('robot');
    await makeUser('nomail');
    await makeUser('once');
    await makeUser('manager');
    await makeUser('bystander');
    await makeUser('flooded');
    await makeUser('mentioned');
    await makeUser('unmentioned');
    await ds.query(`UPDATE users SET is_active = (username <> 'sleeper'), is_bot = (username = 'robot'),
                           email = CASE WHEN username = 'nomail' THEN '' ELSE email END`);
  });

  afterAll(async () => {
    await glossa?.close();
    await app?.database.drop();
    await sink?.close();
  });

  it('mails a subscribed change with the subject prefix, both parts and the headers of Weblate, but not to the acting user', async () => {
    await subscribe(users.reader, 'ChangedStringNotificaton', SCOPE_ALL, FREQ_INSTANT);
    await subscribe(users.actor, 'ChangedStringNotificaton', SCOPE_ALL, FREQ_INSTANT);
    for (const skipped of [users.sleeper, users.robot, users.nomail]) await subscribe(skipped, 'ChangedStringNotificaton', SCOPE_ALL, FREQ_INSTANT);
    const unitId = await translate(content, 1, 'Nový překlad', users.actor.token);
    const mail = await sink.waitFor((_, to) => to.includes(users.reader.email), PATIENCE_MS, 'the reader\'s mail');
    await outboxEmpty();
    expect(sink.to(users.actor.email)).toEqual([]);
    // Inactive users, bots and users without an address are never mailed.
    expect(sink.mails.map((received) => received.headers.get('x-weblate-recipient-username'))).toEqual(['reader']);

    expect(mail.subject).toBe(`[Glossa] String changed in ${content.project.name}/${content.component.name} — Czech`);
    expect(mail.from?.value).toEqual([{ name: 'Ada Actor', address: 'notify@glossa.test' }]);
    expect(mail.to && !Array.isArray(mail.to) ? mail.to.value : []).toEqual([{ name: '', address: users.reader.email }]);
    expect(mail.headers.get('x-mailer')).toBe(GENERATOR);
    expect(mail.headers.get('x-weblate-notification')).toBe('ChangedStringNotificaton');
    expect(mail.headers.get('x-weblate-recipient-username')).toBe('reader');
    expect(mail.messageId).toMatch(/^<[0-9a-f-]{36}@glossa\.test>$/);
    const thread = `<${content.project.slug}/${content.component.slug}/cs/${unitId}@glossa.test>`;
    expect(mail.inReplyTo).toBe(thread);
    expect(mail.references).toBe(thread);
    // Glossa has no unsubscribe page to link to.
    expect(mail.headers.has('list-unsubscribe')).toBe(false);
    expect(mentions(mail.text, 'Nový překlad')).toBe(true);
    expect(mentions(mail.text, content.strings[1].source)).toBe(true);
    expect(typeof mail.html).toBe('string');
    expect(mail.html as string).toContain('Nový překlad');
    expect(mail.html as string).toContain(`http://glossa.test/translate/${content.project.slug}/${content.component.slug}/cs/?checksum=`);
  });

  it('never mails about a project the recipient cannot see', async () => {
    await subscribe(users.outsider, 'ChangedStringNotificaton', SCOPE_ALL, FREQ_INSTANT);
    await subscribe(users.overseer, 'ChangedStringNotificaton', SCOPE_ALL, FREQ_INSTANT);
    await translate(secret, 1, 'Tajné', TEST_ADMIN_TOKEN);
    const seen = await sink.waitFor((mail, to) => to.includes(users.overseer.email) && mentions(mail.text, 'Tajné'), PATIENCE_MS, 'the superuser\'s mail');
    expect(seen.subject).toContain(secret.project.name);
    await outboxEmpty();
    expect(sink.to(users.outsider.email).filter((mail) => mentions(mail.text, 'Tajné'))).toEqual([]);
    // The reader (scope All) cannot see the private project either.
    expect(sink.to(users.reader.email).filter((mail) => mentions(mail.text, 'Tajné'))).toEqual([]);
  });

  it('lets the most specific subscription win: a component-level "no notification" silences a watched instant one', async () => {
    // Contributing to a project makes a user watch it (Weblate's auto_watch).
    for (const [index, user] of [[2, users.watcher], [3, users.silenced]] as const) {
      await translate(content, index, `by ${user.username}`, user.token);
    }
    await eventually(async () => {
      const rows: unknown[] = await ds.query('SELECT 1 FROM watched_projects WHERE project_id = $1 AND user_id = ANY($2::int[])', [
        content.project.id,
        [users.watcher.id, users.silenced.id],
      ]);
      return rows.length === 2 ? true : undefined;
    }, PATIENCE_MS, 'both users watching the project');
    await subscribe(users.watcher, 'ChangedStringNotificaton', SCOPE_WATCHED, FREQ_INSTANT);
    await subscribe(users.silenced, 'ChangedStringNotificaton', SCOPE_WATCHED, FREQ_INSTANT);
    await subscribe(users.silenced, 'ChangedStringNotificaton', SCOPE_COMPONENT, FREQ_NONE, { componentId: content.component.id });
    await translate(content, 4, 'Sledováno', users.actor.token);
    await sink.waitFor((mail, to) => to.includes(users.watcher.email) && mentions(mail.text, 'Sledováno'), PATIENCE_MS, 'the watcher\'s mail');
    await outboxEmpty();
    expect(sink.to(users.silenced.email).filter((mail) => mentions(mail.text, 'Sledováno'))).toEqual([]);
  });

  it('mails project admins for the Administered scope, and deletes a onetime subscription after its first mail', async () => {
    await createTeam(app, TEST_ADMIN_TOKEN, { name: 'Demo admins', roles: ['Administration'], projectIds: [content.project.id], members: ['manager'] });
    await subscribe(users.manager, 'NewSuggestionNotificaton', SCOPE_ADMIN, FREQ_INSTANT);
    await subscribe(users.bystander, 'NewSuggestionNotificaton', SCOPE_ADMIN, FREQ_INSTANT);
    await ds.query(
      'INSERT INTO subscriptions (user_id, notification, scope, frequency, project_id, onetime) VALUES ($1, $2, $3, $4, $5, true)',
      [users.once.id, 'ChangedStringNotificaton', SCOPE_PROJECT, FREQ_INSTANT, content.project.id],
    );
    const unitId = content.translations[0].unitIds[1];
    await http().post(`/api/units/${unitId}/suggestions/`).set(...authHeader(users.actor.token)).send({ target: ['Návrh'] }).expect((response) => {
      if (response.status !== 201 && response.status !== 200) throw new Error(`suggestion: ${response.status} ${JSON.stringify(response.body)}`);
    });
    const suggestion = await sink.waitFor((_, to) => to.includes(users.manager.email), PATIENCE_MS, 'the project admin\'s mail');
    expect(suggestion.headers.get('x-weblate-notification')).toBe('NewSuggestionNotificaton');

    await translate(content, 3, 'Jednou', users.actor.token);
    await sink.waitFor((mail, to) => to.includes(users.once.email) && mentions(mail.text, 'Jednou'), PATIENCE_MS, 'the onetime mail');
    await eventually(async () => {
      const rows: unknown[] = await ds.query('SELECT 1 FROM subscriptions WHERE user_id = $1', [users.once.id]);
      return rows.length === 0 ? true : undefined;
    }, PATIENCE_MS, 'the onetime subscription deleted');
    await translate(content, 3, 'Podruhé', users.actor.token);
    await sink.waitFor((mail, to) => to.includes(users.reader.email) && mentions(mail.text, 'Podruhé'), PATIENCE_MS, 'the reader\'s second mail');
    await outboxEmpty();
    expect(sink.to(users.once.email)).toHaveLength(1);
    expect(sink.to(users.bystander.email)).toEqual([]);
  });

  it('mails comments to @mentioned users and to the string\'s last author, once each', async () => {
    for (const user of [users.mentioned, users.unmentioned]) await subscribe(user, 'MentionCommentNotificaton', SCOPE_WATCHED, FREQ_INSTANT);
    // The watcher translated string 2 (above); mentioned too, but not subscribed to mentions, they get the
    // last author's mail, once. The silenced user is subscribed as well but is not the string's last author.
    await subscribe(users.watcher, 'LastAuthorCommentNotificaton', SCOPE_WATCHED, FREQ_INSTANT);
    await subscribe(users.silenced, 'LastAuthorCommentNotificaton', SCOPE_WATCHED, FREQ_INSTANT);
    const unitId = content.translations[0].unitIds[2];
    await http().post(`/api/units/${unitId}/comments/`).set(...authHeader(users.actor.token)).send({ scope: 'translation', comment: 'Hi @mentioned. Also @watcher!' }).expect(201);
    const mention = await sink.waitFor((mail, to) => to.includes(users.mentioned.email) && mentions(mail.text, 'Hi @mentioned'), PATIENCE_MS, 'the mention');
    expect(mention.headers.get('x-weblate-notification')).toBe('MentionCommentNotificaton');
    const lastAuthor = await sink.waitFor((mail, to) => to.includes(users.watcher.email) && mentions(mail.text, 'Hi @mentioned'), PATIENCE_MS, 'the last author\'s mail');
    expect(lastAuthor.headers.get('x-weblate-notification')).toBe('LastAuthorCommentNotificaton');
    await outboxEmpty();
    expect(sink.to(users.watcher.email).filter((mail) => mentions(mail.text, 'Hi @mentioned'))).toHaveLength(1);
    expect(sink.to(users.unmentioned.email)).toEqual([]);
    expect(sink.to(users.silenced.email).filter((mail) => mentions(mail.text, 'Hi @mentioned'))).toEqual([]);
  });

  it('sends a digest once per window, also after a restart, and resumes instant mails where it stopped', async () => {
    await subscribe(users.digester, 'ChangedStringNotificaton', SCOPE_COMPONENT, FREQ_DAILY, { componentId: content.component.id });
    await translate(content, 5, 'Do přehledu', users.actor.token);
    await eventually(async () => {
      const rows: unknown[] = await ds.query('SELECT 1 FROM notification_digest_items WHERE user_id = $1', [users.digester.id]);
      return rows.length === 1 ? true : undefined;
    }, PATIENCE_MS, 'the digest item');
    // Daily digests do not arrive instantly.
    await sink.waitFor((mail, to) => to.includes(users.reader.email) && mentions(mail.text, 'Do přehledu'), PATIENCE_MS, 'the reader\'s instant mail');
    await outboxEmpty();
    expect(sink.to(users.digester.email)).toEqual([]);

    const window = { start: new Date(Date.now() - 86_400_000), end: new Date(Date.now() + 60_000) };
    expect(await glossa.app.get(NotificationDigests).sendDigests(FREQ_DAILY, window)).toBe(1);
    const digest = await sink.waitFor((_, to) => to.includes(users.digester.email), PATIENCE_MS, 'the digest');
    expect(digest.subject).toBe('[Glossa] Daily digest: 1 change');
    expect(mentions(digest.text, 'Do přehledu')).toBe(true);
    expect(digest.headers.get('x-weblate-notification')).toBe('ChangedStringNotificaton');
    expect(await glossa.app.get(NotificationDigests).sendDigests(FREQ_DAILY, window)).toBe(0);

    // A restart: a new process on the same database.
    const readerMailsBefore = sink.to(users.reader.email).length;
    await glossa.close();
    // While no process runs, a change from more than STALE_BACKLOG_DAYS ago turns up unmailed: a process
    // starting now skips that backlog instead of mailing it.
    await withClient(app.database.url, (client) =>
      client.query(
        `INSERT INTO changes (action, project_id, component_id, user_id, target, timestamp) VALUES (2, $1, $2, $3, 'Stará změna', now() - $4 * interval '1 day' - interval '1 hour')`,
        [content.project.id, content.component.id, users.actor.id, STALE_BACKLOG_DAYS],
      ),
    );
    glossa = await createGlossaApp(app.config, { logger: false });
    await glossa.app.listen(0, '127.0.0.1');
    ds = glossa.app.get(DataSource);
    expect(await glossa.app.get(NotificationDigests).sendDigests(FREQ_DAILY, window)).toBe(0);

    await translate(content, 0, 'Po restartu', users.actor.token);
    await sink.waitFor((mail, to) => to.includes(users.reader.email) && mentions(mail.text, 'Po restartu'), PATIENCE_MS, 'the mail after the restart');
    await outboxEmpty();
    // Exactly one new mail: nothing from before the restart came again, and the stale change was skipped.
    expect(sink.to(users.reader.email).length).toBe(readerMailsBefore + 1);
    expect(sink.to(users.digester.email).length).toBe(1);
  });

  it('sends the summary kinds in digests: per translation, with a count, for what the user can see', async () => {
    await subscribe(users.digester, 'PendingSuggestionsNotification', SCOPE_ALL, FREQ_WEEKLY);
    const window = { start: new Date(Date.now() - 7 * 86_400_000), end: new Date(Date.now() + 60_000) };
    const before = sink.to(users.digester.email).length;
    expect(await glossa.app.get(NotificationDigests).sendDigests(FREQ_WEEKLY, window)).toBe(1);
    const digest = await sink.waitFor((mail, to) => to.includes(users.digester.email) && mentions(mail.subject, 'Weekly'), PATIENCE_MS, 'the weekly digest');
    expect(digest.subject).toBe('[Glossa] Weekly digest');
    expect(digest.headers.get('x-weblate-notification')).toBe('PendingSuggestionsNotification');
    // One string of the public component's Czech translation has a suggestion (the Administered test's).
    expect(digest.text).toContain(`== Strings with suggestions\n${content.project.name}/${content.component.name} — Czech: 1\n`);
    expect(mentions(digest.text, secret.project.name)).toBe(false);
    expect(await glossa.app.get(NotificationDigests).sendDigests(FREQ_WEEKLY, window)).toBe(0);
    await outboxEmpty();
    expect(sink.to(users.digester.email)).toHaveLength(before + 1);
  });

  it('discards instant mails for a user who already has the most mails waiting', async () => {
    // MAX_QUEUED_MAILS_PER_USER mails held back (an unreachable server would do the same).
    await ds.query(
      `INSERT INTO notification_mails (user_id, notification, frequency, recipient, from_name, subject, html, text, next_attempt)
       SELECT $1, 'ChangedStringNotificaton', 1, $2, 'Glossa', 'held', '', '', now() + interval '1 day' FROM generate_series(1, $3)`,
      [users.flooded.id, users.flooded.email, MAX_QUEUED_MAILS_PER_USER],
    );
    await subscribe(users.flooded, 'ChangedStringNotificaton', SCOPE_ALL, FREQ_INSTANT);
    await translate(content, 2, 'Příliš', users.actor.token);
    // The reader's mail was queued in the same transaction as the flooded user's would have been.
    await sink.waitFor((mail, to) => to.includes(users.reader.email) && mentions(mail.text, 'Příliš'), PATIENCE_MS, 'the reader\'s mail');
    const [{ count }]: Array<{ count: number }> = await ds.query('SELECT count(*)::int AS count FROM notification_mails WHERE user_id = $1', [users.flooded.id]);
    expect(count).toBe(MAX_QUEUED_MAILS_PER_USER);
    await ds.query('DELETE FROM notification_mails WHERE user_id = $1', [users.flooded.id]);
  });
});
