import { DataSource } from 'typeorm';
import { Language } from '../../src/modules/languages/language.entity';
import { apiLink, authHeader, expectApiHeaders } from '../support/contract';
import { createComponent, createProject } from '../support/factories';
import { createTestApp, TEST_ADMIN_TOKEN, TestApp } from '../support/test-app';
import { createTranslation, createUserWithToken } from '../support/users-factories';
import { SCOPE_10_KINDS, SCOPE_20_KINDS } from '../support/spec-shapes';

const FULL_USER_KEYS = [
  'email', 'full_name', 'username', 'groups', 'notifications', 'is_superuser', 'is_active', 'is_bot', 'date_joined', 'url',
  'statistics_url',
];
const BASIC_USER_KEYS = ['full_name', 'username'];
const SUBSCRIPTION_KEYS = ['id', 'notification', 'scope', 'frequency', 'project', 'component'];
const LIST_ALLOW = 'GET, POST, HEAD, OPTIONS';
const DETAIL_ALLOW = 'GET, PUT, PATCH, DELETE, HEAD, OPTIONS';
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

interface Subscription {
  id: number;
  notification: string;
  scope: number;
  frequency: number;
  project: unknown;
  component: unknown;
}

describe('users and notification subscriptions', () => {
  let app: TestApp;
  let origin: string;
  let dataSource: DataSource;
  let translator: { id: number; username: string; token: string };
  let other: { id: number; username: string; token: string };

  beforeAll(async () => {
    app = await createTestApp();
    origin = `http://127.0.0.1:${(app.glossa.app.getHttpServer().address() as { port: number }).port}`;
    dataSource = app.glossa.app.get(DataSource);
    translator = await createUserWithToken(dataSource, 'translator', { fullName: 'Tran Slator' });
    other = await createUserWithToken(dataSource, 'other');
  });
  afterAll(async () => {
    await app.close();
  });

  const admin = authHeader(TEST_ADMIN_TOKEN);
  const as = (user: { token: string }) => authHeader(user.token);

  /** API URL of a team by name, as the admin lists them. */
  async function teamUrls(): Promise<(name: string) => string> {
    const teams: Array<{ name: string; url: string }> = (await app.http().get('/api/groups/').set(...admin).expect(200)).body.results;
    return (name) => teams.find((team) => team.name === name)!.url;
  }

  /** Checks the spec's rules for a notifications list and returns the subscriptions. */
  async function expectDefaultSubscriptions(username: string): Promise<Subscription[]> {
    const response = await app.http().get(`/api/users/${username}/notifications/`).set(...admin).expect(200);
    expectApiHeaders(response, LIST_ALLOW);
    expect(Object.keys(response.body)).toEqual(['count', 'next', 'previous', 'results']);
    const results: Subscription[] = response.body.results;
    expect(response.body.count).toBe(results.length);
    expect(results).toHaveLength(16);
    for (const item of results) {
      expect(Object.keys(item)).toEqual(SUBSCRIPTION_KEYS);
      expect(item).toMatchObject({ project: null, component: null });
      expect([1, 3]).toContain(item.frequency);
    }
    expect(results.filter((s) => s.scope === 10).map((s) => s.notification)).toEqual(SCOPE_10_KINDS);
    expect(results.filter((s) => s.scope === 20).map((s) => s.notification)).toEqual(SCOPE_20_KINDS);
    const ids = results.map((s) => s.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    return results;
  }

  describe('users', () => {
    it('lists every user to everyone: basic fields for non-superusers, full ones for superusers', async () => {
      const anonymous = await app.http().get('/api/users/').expect(200);
      expectApiHeaders(anonymous, LIST_ALLOW);
      // Weblate lists its inactive `anonymous` account too (issue 12 item 3); the migration creates it first.
      expect(anonymous.body.count).toBe(4);
      expect(anonymous.body.results).toEqual([
        { full_name: 'Anonymous', username: 'anonymous' },
        { full_name: 'admin', username: 'admin' },
        { full_name: 'Tran Slator', username: 'translator' },
        { full_name: 'other', username: 'other' },
      ]);
      const asUser = await app.http().get('/api/users/').set(...as(translator)).expect(200);
      expect(Object.keys(asUser.body.results[2])).toEqual(BASIC_USER_KEYS);

      const full = await app.http().get('/api/users/').set(...admin).expect(200);
      expect(full.body.count).toBe(4);
      const entry = full.body.results[2];
      expect(Object.keys(entry)).toEqual(FULL_USER_KEYS);
      // `groups` lists the user's teams as Weblate does: every user is in Users, the anonymous account in Guests.
      const teamUrl = await teamUrls();
      expect(entry).toEqual({
        email: 'translator@example.org',
        full_name: 'Tran Slator',
        username: 'translator',
        groups: [teamUrl('Users')],
        notifications: apiLink(origin, '/api/users/translator/notifications/'),
        is_superuser: false,
        is_active: true,
        is_bot: false,
        date_joined: expect.stringMatching(TIMESTAMP),
        url: apiLink(origin, '/api/users/translator/'),
        statistics_url: apiLink(origin, '/api/users/translator/statistics/'),
      });
      expect(full.body.results[1]).toMatchObject({ username: 'admin', is_superuser: true, groups: [teamUrl('Users')] });
      expect(full.body.results[0]).toMatchObject({ username: 'anonymous', groups: [teamUrl('Guests')] });
    });

    it('lists a user’s teams in `groups`, by team id, and follows membership changes', async () => {
      const teamUrl = await teamUrls();
      const teams: Array<{ id: number; name: string }> = (await app.http().get('/api/groups/').set(...admin).expect(200)).body.results;
      const reviewers = teams.find((team) => team.name === 'Reviewers')!.id;
      const joined = await app.http().post('/api/users/other/groups/').set(...admin).send({ group_id: reviewers }).expect(200);
      expect(joined.body.groups).toEqual([teamUrl('Users'), teamUrl('Reviewers')]);
      expect((await app.http().get('/api/users/other/').set(...admin).expect(200)).body.groups).toEqual([teamUrl('Users'), teamUrl('Reviewers')]);
      const left = await app.http().delete('/api/users/other/groups/').set(...admin).send({ group_id: reviewers }).expect(200);
      expect(left.body.groups).toEqual([teamUrl('Users')]);
    });

    it('filters by username prefix, id and is_active, and pages by id', async () => {
      const prefix = await app.http().get('/api/users/?username=tr').expect(200);
      expect(prefix.body.results.map((u: { username: string }) => u.username)).toEqual(['translator']);
      const caseSensitive = await app.http().get('/api/users/?username=TR').expect(200);
      expect(caseSensitive.body.count).toBe(0);
      const underscore = await app.http().get('/api/users/?username=_').expect(200);
      expect(underscore.body.count).toBe(0);
      const byId = await app.http().get(`/api/users/?id=${other.id}`).expect(200);
      expect(byId.body.results).toEqual([{ full_name: 'other', username: 'other' }]);
      const badId = await app.http().get('/api/users/?id=abc').expect(400);
      expectApiHeaders(badId, LIST_ALLOW);
      expect(badId.body).toEqual({ id: ['Enter a number.'] });
      expect((await app.http().get('/api/users/?is_active=false').expect(200)).body.count).toBe(1);
      expect((await app.http().get('/api/users/?is_active=true').expect(200)).body.count).toBe(3);

      const page = await app.http().get('/api/users/?page_size=2&page=2').expect(200);
      expect(page.body).toEqual({
        count: 4,
        next: null,
        previous: `${origin}/api/users/?format=api&page_size=2`,
        results: [{ full_name: 'Tran Slator', username: 'translator' }, { full_name: 'other', username: 'other' }],
      });
      await app.http().get('/api/users/?page=3&page_size=2').expect(404, { detail: 'Invalid page.' });
    });

    it('shows one user; unknown users are 404', async () => {
      const basic = await app.http().get('/api/users/translator/').expect(200);
      expectApiHeaders(basic, DETAIL_ALLOW);
      expect(basic.body).toEqual({ full_name: 'Tran Slator', username: 'translator' });
      const full = await app.http().get('/api/users/translator/').set(...admin).expect(200);
      expect(Object.keys(full.body)).toEqual(FULL_USER_KEYS);
      await app.http().get(full.body.url.replace(origin, '')).expect(200);
      const missing = await app.http().get('/api/users/nobody/').expect(404);
      expectApiHeaders(missing, DETAIL_ALLOW);
      expect(missing.body).toEqual({ detail: 'Not found.' });
    });

    it('creates users as superuser (201, Location) with the default subscriptions', async () => {
      const created = await app
        .http()
        .post('/api/users/')
        .set(...admin)
        .send({ username: 'new.user', full_name: 'New User', email: 'new@example.org', is_bot: true })
        .expect(201);
      expectApiHeaders(created, LIST_ALLOW);
      expect(created.headers['location']).toBe(apiLink(origin, '/api/users/new.user/'));
      expect(Object.keys(created.body)).toEqual(FULL_USER_KEYS);
      expect(created.body).toMatchObject({
        email: 'new@example.org',
        full_name: 'New User',
        username: 'new.user',
        groups: [(await teamUrls())('Users')],
        is_superuser: false,
        is_active: true,
        is_bot: true,
        url: apiLink(origin, '/api/users/new.user/'),
      });
      expect(created.body.date_joined).toMatch(TIMESTAMP);
      await app.http().get('/api/users/new.user/').expect(200);
      await app.http().get('/api/users/new.user/statistics/').expect(200);

      const subscriptions = await expectDefaultSubscriptions('new.user');
      expect(subscriptions.map((s) => [s.scope, s.frequency, s.notification])).toEqual([
        ...SCOPE_10_KINDS.map((kind) => [10, kind.endsWith('Notification') ? 3 : 1, kind]),
        ...SCOPE_20_KINDS.map((kind) => [20, 1, kind]),
      ]);
    });

    it('gives the bootstrap administrator the default subscriptions too', async () => {
      await expectDefaultSubscriptions('admin');
    });

    it('validates new users with DRF messages', async () => {
      const post = (body: object) => app.http().post('/api/users/').set(...admin).send(body);
      expect((await post({}).expect(400)).body).toEqual({
        username: ['This field is required.'],
        full_name: ['This field is required.'],
        email: ['This field is required.'],
      });
      expect((await post({ username: 'bad name', full_name: ' padded', email: 'nope', is_active: 'maybe' }).expect(400)).body).toEqual({
        username: ['Username may only contain letters, numbers or the following characters: @ . + - _'],
        full_name: ['Please avoid using special characters in the full name.'],
        email: ['Enter a valid email address.'],
        is_active: ['Must be a valid boolean.'],
      });
      expect((await post({ username: '.dot', full_name: '', email: 'a@b.c' }).expect(400)).body).toEqual({
        username: ['The username can not start with a full stop.'],
        full_name: ['This field may not be blank.'],
      });
      expect((await post({ username: 'translator', full_name: 'X', email: 'translator@example.org' }).expect(400)).body).toEqual({
        username: ['A user with that username already exists.'],
        email: ['User with this E-mail already exists.'],
      });
      expect((await post({ username: 'x'.repeat(151), full_name: 'X', email: 'x@example.org' }).expect(400)).body).toEqual({
        username: ['Ensure this field has no more than 150 characters.'],
      });
    });

    it('refuses user writes to anonymous (401) and non-superusers (403)', async () => {
      const body = { username: 'sneaky', full_name: 'Sneaky', email: 'sneaky@example.org' };
      const anonymous = await app.http().post('/api/users/').send(body).expect(401);
      expect(anonymous.body).toEqual({ detail: 'Authentication credentials were not provided.' });
      const denied = await app.http().post('/api/users/').set(...as(translator)).send(body).expect(403);
      expectApiHeaders(denied, LIST_ALLOW);
      expect(denied.body).toEqual({ detail: 'Can not manage Users' });
      // Not even on oneself, and not on unknown users (the permission is checked first, as in Weblate 4.x).
      await app.http().patch('/api/users/translator/').set(...as(translator)).send({ full_name: 'Me' }).expect(403);
      await app.http().put('/api/users/nobody/').set(...as(translator)).send(body).expect(403);
      await app.http().delete('/api/users/other/').set(...as(translator)).expect(403);
      await app.http().delete('/api/users/other/').expect(401);
    });

    it('updates users with PATCH and PUT', async () => {
      const patched = await app.http().patch('/api/users/new.user/').set(...admin).send({ full_name: 'Renamed', is_bot: false }).expect(200);
      expectApiHeaders(patched, DETAIL_ALLOW);
      expect(patched.body).toMatchObject({ full_name: 'Renamed', is_bot: false, username: 'new.user' });

      const current = (await app.http().get('/api/users/new.user/').set(...admin).expect(200)).body;
      const put = await app
        .http()
        .put('/api/users/new.user/')
        .set(...admin)
        .send({ ...current, username: 'renamed.user', email: 'renamed@example.org' })
        .expect(200);
      expect(put.body).toEqual({
        ...current,
        username: 'renamed.user',
        email: 'renamed@example.org',
        notifications: apiLink(origin, '/api/users/renamed.user/notifications/'),
        url: apiLink(origin, '/api/users/renamed.user/'),
        statistics_url: apiLink(origin, '/api/users/renamed.user/statistics/'),
      });
      await app.http().get('/api/users/new.user/').expect(404);
      expect((await app.http().patch('/api/users/renamed.user/').set(...admin).send({ username: 'other' }).expect(400)).body).toEqual({
        username: ['A user with that username already exists.'],
      });
      expect((await app.http().put('/api/users/renamed.user/').set(...admin).send({ full_name: 'Only' }).expect(400)).body).toEqual({
        username: ['This field is required.'],
        email: ['This field is required.'],
      });
      await app.http().patch('/api/users/nobody/').set(...admin).send({ full_name: 'X' }).expect(404);
    });

    it('DELETE deactivates and anonymises the user (204); its token stops working', async () => {
      const victim = await createUserWithToken(dataSource, 'victim');
      const removed = await app.http().delete('/api/users/victim/').set(...admin).expect(204);
      expect(removed.text).toBe('');
      await app.http().get('/api/users/victim/').expect(404);
      const deleted = await app.http().get(`/api/users/deleted-${victim.id}/`).set(...admin).expect(200);
      expect(deleted.body).toMatchObject({ username: `deleted-${victim.id}`, full_name: 'Deleted User', email: '', is_active: false });
      expect((await app.http().get(`/api/users/deleted-${victim.id}/notifications/`).set(...admin).expect(200)).body.count).toBe(0);
      const rejected = await app.http().get('/api/users/').set(...as(victim)).expect(401);
      expect(rejected.body).toEqual({ detail: 'Invalid token.' });
      expect((await app.http().get('/api/users/?is_active=false').expect(200)).body.results).toEqual([
        { full_name: 'Anonymous', username: 'anonymous' },
        { full_name: 'Deleted User', username: `deleted-${victim.id}` },
      ]);
    });

    it('counts user statistics from the change history', async () => {
      const empty = await app.http().get('/api/users/translator/statistics/').expect(200);
      expectApiHeaders(empty, 'GET, HEAD, OPTIONS');
      expect(Object.keys(empty.body)).toEqual(['translated', 'suggested', 'uploaded', 'commented', 'languages']);
      expect(empty.body).toEqual({ translated: 0, suggested: 0, uploaded: 0, commented: 0, languages: 0 });

      const languages = dataSource.getRepository(Language);
      const cs = await languages.findOneByOrFail({ code: 'cs' });
      const de = await languages.findOneByOrFail({ code: 'de' });
      const component = await createComponent(dataSource, await createProject(dataSource));
      const csTranslation = await createTranslation(dataSource, component, cs);
      const deTranslation = await createTranslation(dataSource, component, de);
      const change = (action: number, translationId: number, languageId: number, userId: number | null, authorId: number | null, timestamp?: string) =>
        dataSource.query(
          `INSERT INTO changes (action, translation_id, component_id, language_id, user_id, author_id, timestamp)
           VALUES ($1, $2, $3, $4, $5, $6, COALESCE($7::timestamptz, clock_timestamp()))`,
          [action, translationId, component.id, languageId, userId, authorId, timestamp ?? null],
        );
      const t = translator.id;
      await change(2, csTranslation.id, cs.id, t, t); // translation changed
      await change(5, deTranslation.id, de.id, t, t); // new translation
      await change(7, csTranslation.id, cs.id, other.id, t); // other accepted the translator's suggestion
      await change(2, csTranslation.id, cs.id, other.id, other.id); // someone else's edit
      await change(4, csTranslation.id, cs.id, t, t); // suggestion
      await change(3, csTranslation.id, cs.id, t, t); // comment
      await change(3, deTranslation.id, de.id, t, t);
      // One upload of two strings, then another upload.
      await change(9, csTranslation.id, cs.id, t, t, '2024-01-01T10:00:00.100000Z');
      await change(9, csTranslation.id, cs.id, t, t, '2024-01-01T10:00:00.200000Z');
      await change(9, csTranslation.id, cs.id, t, t, '2024-01-02T10:00:00Z');
      await change(59, csTranslation.id, cs.id, null, null); // repository update, nobody's work

      const counted = await app.http().get('/api/users/translator/statistics/').expect(200);
      expect(counted.body).toEqual({ translated: 6, suggested: 1, uploaded: 2, commented: 2, languages: 2 });
      await app.http().get('/api/users/nobody/statistics/').expect(404);
    });

    it('answers 405 with Allow for unsupported methods', async () => {
      const list = await app.http().delete('/api/users/').set(...admin).expect(405);
      expectApiHeaders(list, LIST_ALLOW);
      expect(list.body).toEqual({ detail: 'Method "DELETE" not allowed.' });
      const detail = await app.http().post('/api/users/translator/').set(...admin).expect(405);
      expectApiHeaders(detail, DETAIL_ALLOW);
      const statistics = await app.http().post('/api/users/translator/statistics/').set(...admin).expect(405);
      expectApiHeaders(statistics, 'GET, HEAD, OPTIONS');
    });
  });

  describe('notifications', () => {
    let created: Subscription;

    it('lists a user’s subscriptions to the user and admins only; others and unknown users are 404', async () => {
      await expectDefaultSubscriptions('admin');
      const missing = await app.http().get('/api/users/nobody/notifications/').set(...admin).expect(404);
      expectApiHeaders(missing, LIST_ALLOW);
      const paged = await app.http().get('/api/users/admin/notifications/?page_size=10&page=2').set(...admin).expect(200);
      // Issue 3: subscriptions are visible only to their owner and admins; anyone else gets 404 (GHSA-3pmh-24wp-xpf4).
      await app.http().get('/api/users/admin/notifications/').set(...as(other)).expect(404);
      await app.http().get('/api/users/admin/notifications/').expect(404);
      expect(paged.body).toMatchObject({
        count: 16,
        next: null,
        previous: `${origin}/api/users/admin/notifications/?format=api&page_size=10`,
      });
      expect(paged.body.results).toHaveLength(6);
    });

    it('lets the user themself and superusers subscribe (201); others get 404, anonymous 401', async () => {
      // createUserWithToken inserts rows directly, so "translator" has no subscriptions yet.
      const own = await app
        .http()
        .post('/api/users/translator/notifications/')
        .set(...as(translator))
        .send({ notification: 'RepositoryNotification', scope: 10, frequency: 1 })
        .expect(201);
      expectApiHeaders(own, LIST_ALLOW);
      expect(Object.keys(own.body)).toEqual(SUBSCRIPTION_KEYS);
      expect(own.body).toEqual({ id: expect.any(Number), notification: 'RepositoryNotification', scope: 10, frequency: 1, project: null, component: null });
      created = own.body;

      // Form bodies carry strings; DRF's choice fields accept them.
      const byAdmin = await app
        .http()
        .post('/api/users/translator/notifications/')
        .set(...admin)
        .type('form')
        .send('notification=LockNotification&scope=20&frequency=2')
        .expect(201);
      expect(byAdmin.body).toMatchObject({ notification: 'LockNotification', scope: 20, frequency: 2 });

      const denied = await app
        .http()
        .post('/api/users/translator/notifications/')
        .set(...as(other))
        .send({ notification: 'LockNotification', scope: 10, frequency: 1 })
        .expect(404);
      // Issue 3: another user's subscriptions do not exist for the caller (404, GHSA-3pmh-24wp-xpf4), not 403.
      expect(denied.body).toEqual({ detail: 'Not found.' });
      await app.http().post('/api/users/translator/notifications/').send({ notification: 'LockNotification', scope: 10, frequency: 1 }).expect(401);
      await app.http().post('/api/users/nobody/notifications/').set(...admin).send({ notification: 'LockNotification', scope: 10, frequency: 1 }).expect(404);

      const list = await app.http().get('/api/users/translator/notifications/').set(...admin).expect(200);
      expect(list.body.count).toBe(2);
      expect(list.body.results.map((s: Subscription) => s.notification)).toEqual(['RepositoryNotification', 'LockNotification']);
    });

    it('validates subscriptions against the known kinds, scopes and frequencies', async () => {
      const post = (body: object) => app.http().post('/api/users/translator/notifications/').set(...admin).send(body);
      expect((await post({}).expect(400)).body).toEqual({
        notification: ['This field is required.'],
        scope: ['This field is required.'],
        frequency: ['This field is required.'],
      });
      expect((await post({ notification: 'Bogus', scope: 99, frequency: 7 }).expect(400)).body).toEqual({
        notification: ['"Bogus" is not a valid choice.'],
        scope: ['"99" is not a valid choice.'],
        frequency: ['"7" is not a valid choice.'],
      });
      // Weblate's class names are exact: the correctly spelt name is not a kind.
      expect((await post({ notification: 'NewStringNotification', scope: 10, frequency: 1 }).expect(400)).body).toEqual({
        notification: ['"NewStringNotification" is not a valid choice.'],
      });
      expect((await post({ notification: 'RepositoryNotification', scope: 10, frequency: 3 }).expect(400)).body).toEqual({
        non_field_errors: ['The fields notification, scope must make a unique set.'],
      });
    });

    it('shows, updates and deletes one subscription', async () => {
      const path = `/api/users/translator/notifications/${created.id}/`;
      const detail = await app.http().get(path).set(...as(translator)).expect(200);
      expectApiHeaders(detail, DETAIL_ALLOW);
      expect(detail.body).toEqual(created);
      // Issue 3: owner and admins only (GHSA-3pmh-24wp-xpf4).
      await app.http().get(path).expect(404);

      const patched = await app.http().patch(path).set(...as(translator)).send({ frequency: 3 }).expect(200);
      expectApiHeaders(patched, DETAIL_ALLOW);
      expect(patched.body).toEqual({ ...created, frequency: 3 });
      const put = await app.http().put(path).set(...admin).send({ notification: 'NewAlertNotificaton', scope: 0, frequency: 4 }).expect(200);
      expect(put.body).toEqual({ ...created, notification: 'NewAlertNotificaton', scope: 0, frequency: 4 });
      expect((await app.http().put(path).set(...admin).send({ frequency: 4 }).expect(400)).body).toEqual({
        notification: ['This field is required.'],
        scope: ['This field is required.'],
      });
      expect((await app.http().patch(path).set(...admin).send({ notification: 'LockNotification', scope: 20 }).expect(400)).body).toEqual({
        non_field_errors: ['The fields notification, scope must make a unique set.'],
      });

      await app.http().patch(path).set(...as(other)).send({ frequency: 1 }).expect(404);
      await app.http().delete(path).set(...as(other)).expect(404);
      await app.http().delete(path).expect(401);

      // Another user's subscription, unknown and malformed ids are 404.
      const adminSubscription = (await app.http().get('/api/users/admin/notifications/').set(...admin).expect(200)).body.results[0];
      await app.http().get(`/api/users/translator/notifications/${adminSubscription.id}/`).set(...admin).expect(404);
      await app.http().get('/api/users/translator/notifications/999999/').set(...admin).expect(404, { detail: 'Not found.' });
      const malformed = await app.http().get('/api/users/translator/notifications/abc/').set(...admin).expect(404);
      expectApiHeaders(malformed, DETAIL_ALLOW);

      const removed = await app.http().delete(path).set(...as(translator)).expect(204);
      expect(removed.text).toBe('');
      await app.http().get(path).expect(404);
      expect((await app.http().get('/api/users/translator/notifications/').set(...admin).expect(200)).body.count).toBe(1);
    });

    it('nests the project or component of project- and component-scoped subscriptions', async () => {
      const project = await createProject(dataSource, { name: 'Watched', slug: 'watched' });
      const component = await createComponent(dataSource, project, { name: 'Strings', slug: 'strings' });
      await dataSource.query(
        `INSERT INTO subscriptions (user_id, notification, scope, frequency, project_id, component_id)
         VALUES ($1, 'NewStringNotificaton', 30, 1, $2, NULL), ($1, 'NewStringNotificaton', 40, 2, NULL, $3)`,
        [other.id, project.id, component.id],
      );
      const list = await app.http().get('/api/users/other/notifications/').set(...admin).expect(200);
      expect(list.body.count).toBe(2);
      const [byProject, byComponent] = list.body.results;
      expect(Object.keys(byProject)).toEqual(SUBSCRIPTION_KEYS);
      expect(byProject.component).toBeNull();
      expect(byProject.project).toMatchObject({ slug: 'watched', url: apiLink(origin, '/api/projects/watched/') });
      expect(byComponent.project).toBeNull();
      expect(byComponent.component).toMatchObject({
        slug: 'strings',
        url: apiLink(origin, '/api/components/watched/strings/'),
        project: { slug: 'watched' },
        source_language: { code: 'en' },
      });
    });

    it('answers 405 with Allow for unsupported methods', async () => {
      const list = await app.http().put('/api/users/admin/notifications/').set(...admin).send({}).expect(405);
      expectApiHeaders(list, LIST_ALLOW);
      expect(list.body).toEqual({ detail: 'Method "PUT" not allowed.' });
      const detail = await app.http().post('/api/users/admin/notifications/1/').set(...admin).send({}).expect(405);
      expectApiHeaders(detail, DETAIL_ALLOW);
      const options = await app.http().options('/api/users/admin/notifications/').expect(200);
      expectApiHeaders(options, LIST_ALLOW);
    });
  });
});
