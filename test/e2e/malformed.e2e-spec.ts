import { DataSource } from 'typeorm';
import { createTranslatedComponent, SeededContent } from '../support/content-factories';
import { authHeader } from '../support/contract';
import { createTestApp, TEST_ADMIN_TOKEN, TestApp } from '../support/test-app';

// Issue 3 "Done means": malformed bodies (bad JSON, wrong types, unknown enum values, oversized values,
// missing fields) get 400 with DRF-style bodies, change nothing, and never reach a 500 (weblate-api.md §4).

describe('malformed request bodies', () => {
  let app: TestApp;
  let ds: DataSource;
  let content: SeededContent;
  const admin = authHeader(TEST_ADMIN_TOKEN);
  let groupId: number;
  let roleId: number;
  let subscriptionId: number;

  beforeAll(async () => {
    app = await createTestApp();
    ds = app.glossa.app.get(DataSource);
    content = await createTranslatedComponent(ds, { project: { name: 'Shape', slug: 'shape' }, component: { name: 'Form', slug: 'form', manageUnits: true } });
    groupId = (await app.http().post('/api/groups/').set(...admin).send({ name: 'Team', project_selection: 0, language_selection: 1 }).expect(201)).body.id;
    roleId = (await app.http().post('/api/roles/').set(...admin).send({ name: 'Role', permissions: [] }).expect(201)).body.id;
    subscriptionId = (await app.http().get('/api/users/admin/notifications/').set(...admin).expect(200)).body.results[0].id;
  });

  afterAll(async () => {
    await app?.close();
  });

  const unit = () => `/api/units/${content.translations.find((t) => t.languageCode === 'cs')!.unitIds[1]}/`;
  const long = 'x'.repeat(5000);

  /** Every write endpoint with the malformed bodies that apply to it. */
  const cases = (): Array<{ method: 'post' | 'put' | 'patch' | 'delete'; path: string; bodies: unknown[] }> => [
    { method: 'post', path: '/api/projects/', bodies: [{}, { name: 1, slug: [], web: true }, { name: long, slug: 'ok', web: 'https://e.org/' }, { name: 'N', slug: 'bad slug!', web: 'https://e.org/' }, [], 'text', null] },
    // DRF's CharField takes a number as its string (Weblate would rename the project "12"): a boolean is the wrong type.
    { method: 'patch', path: '/api/projects/shape/', bodies: [{ name: true }, { name: long }, { web: 'not a url' }, { translation_review: 'maybe' }, [1, 2]] },
    { method: 'put', path: '/api/projects/shape/', bodies: [{}, { name: 'Shape' }] },
    { method: 'patch', path: '/api/components/shape/form/', bodies: [{ priority: 7 }, { file_format: 'no-such-format' }, { name: long }, { restricted: 'perhaps' }, { new_lang: 'sometimes' }, [1]] },
    { method: 'post', path: '/api/components/shape/form/lock/', bodies: [{}, { lock: 'perhaps' }, { lock: null }, { lock: [true] }] },
    { method: 'post', path: '/api/components/shape/form/translations/', bodies: [{}, { language_code: 5 }, { language_code: long }, []] },
    { method: 'post', path: '/api/projects/shape/components/', bodies: [{}, { name: 5 }] },
    { method: 'post', path: '/api/components/shape/form/repository/', bodies: [{}, { operation: 'explode' }, { operation: 5 }, []] },
    { method: 'patch', path: unit(), bodies: [{ state: 'translated', target: ['x'] }, { state: 99, target: ['x'] }, { target: 'not a list', state: 20 }, { target: [5], state: 20 }, { state: 20 }, { labels: 'x' }, []] },
    { method: 'put', path: unit(), bodies: [{ state: 20 }, { target: ['x'], state: -1 }] },
    { method: 'post', path: '/api/translations/shape/form/en/units/', bodies: [{}, { key: 5, value: ['v'] }, { key: 'k', value: 'v' }] },
    { method: 'post', path: '/api/users/', bodies: [{}, { username: 5 }, { username: long, full_name: 'x', email: 'x@e.org' }, { username: 'u', full_name: 'u', email: 'not-an-email' }, { username: 'u', full_name: 'u', email: 'u@e.org', is_superuser: 'maybe' }] },
    { method: 'post', path: '/api/users/admin/notifications/', bodies: [{}, { notification: 'NoSuchNotification', scope: 10, frequency: 1 }, { notification: 'LockNotification', scope: 77, frequency: 1 }, { notification: 'LockNotification', scope: 10, frequency: 'daily' }] },
    { method: 'post', path: '/api/groups/', bodies: [{}, { name: 'G', project_selection: 9, language_selection: 1 }, { name: 'G', project_selection: '9', language_selection: 1 }, { name: long, project_selection: 0, language_selection: 1 }] },
    // DRF's ChoiceField takes "1" for 1 and CharField takes 5 as "5" (issue 12 item 1): those are valid.
    { method: 'patch', path: `/api/groups/GROUP/`, bodies: [{ language_selection: 7 }, { name: '' }, { name: true }] },
    { method: 'post', path: `/api/groups/GROUP/roles/`, bodies: [{}, { role_id: 'one' }, { role_id: 999999 }] },
    { method: 'post', path: `/api/groups/GROUP/projects/`, bodies: [{}, { project_id: 1.5 }, { project_id: 999999 }] },
    { method: 'post', path: `/api/groups/GROUP/components/`, bodies: [{}, { component_id: null }, { component_id: 999999 }] },
    { method: 'post', path: `/api/groups/GROUP/languages/`, bodies: [{}, { language_code: 7 }, { language_code: 'xx-none' }] },
    { method: 'post', path: '/api/roles/', bodies: [{}, { name: 'R', permissions: 'unit.edit' }, { name: 'R', permissions: ['unit.nope'] }, { name: long, permissions: [] }, { name: 'R', permissions: [5] }] },
    { method: 'patch', path: `/api/roles/ROLE/`, bodies: [{ permissions: ['x'] }, { name: false }] },
    { method: 'post', path: '/api/users/admin/groups/', bodies: [{}, { group_id: 'x' }, { group_id: 999999 }] },
    { method: 'put', path: '/api/components/shape/form/', bodies: [{}, { name: 5, slug: 'form' }] },
    { method: 'post', path: '/api/projects/shape/repository/', bodies: [{}, { operation: 'explode' }, { operation: 5 }] },
    { method: 'post', path: '/api/translations/shape/form/cs/repository/', bodies: [{}, { operation: 'explode' }, []] },
    { method: 'patch', path: '/api/users/admin/', bodies: [{ email: 'not-an-email' }, { is_active: 'perhaps' }, { full_name: long }] },
    { method: 'put', path: '/api/users/admin/', bodies: [{}, { username: 5 }] },
    { method: 'patch', path: '/api/users/admin/notifications/SUB/', bodies: [{ scope: 77 }, { frequency: 'daily' }, { notification: 'NoSuchNotification' }] },
    { method: 'put', path: '/api/users/admin/notifications/SUB/', bodies: [{}, { notification: 'LockNotification', scope: 10 }] },
    { method: 'post', path: '/api/languages/', bodies: [{}, { code: 5 }, { code: 'xx', name: 'X', direction: 'sideways', plural: { number: 2, formula: 'n != 1' } }] },
    { method: 'patch', path: '/api/languages/cs/', bodies: [{ direction: 'up' }, { plural: 'x' }, { name: true }] },
  ];

  /** A fingerprint of every table a write could touch. */
  async function snapshot(): Promise<string> {
    const rows = await ds.query(`
      SELECT (SELECT md5(string_agg(p::text, ',' ORDER BY p.id)) FROM projects p) AS projects,
             (SELECT md5(string_agg(c::text, ',' ORDER BY c.id)) FROM components c) AS components,
             (SELECT md5(string_agg(t::text, ',' ORDER BY t.id)) FROM translations t) AS translations,
             (SELECT md5(string_agg(u::text, ',' ORDER BY u.id)) FROM units u) AS units,
             (SELECT count(*) FROM changes) AS changes,
             (SELECT md5(string_agg(u::text, ',' ORDER BY u.id)) FROM users u) AS users,
             (SELECT md5(string_agg(s::text, ',' ORDER BY s.id)) FROM subscriptions s) AS subscriptions,
             (SELECT md5(string_agg(g::text, ',' ORDER BY g.id)) FROM groups g) AS groups,
             (SELECT md5(string_agg(r::text, ',' ORDER BY r.id)) FROM roles r) AS roles,
             (SELECT md5(string_agg(l::text, ',' ORDER BY l.id)) FROM languages l) AS languages,
             (SELECT md5(string_agg(k.key_hash, ',' ORDER BY k.key_hash)) FROM api_tokens k) AS tokens,
             (SELECT count(*) FROM group_roles) + (SELECT count(*) FROM group_projects) + (SELECT count(*) FROM group_components)
               + (SELECT count(*) FROM group_languages) + (SELECT count(*) FROM group_members) AS relations`);
    return JSON.stringify(rows[0]);
  }

  function expectDrfError(label: string, status: number, body: unknown): void {
    expect({ label, status }).toEqual({ label, status: 400 });
    expect(body !== null && typeof body === 'object' && !Array.isArray(body)).toBe(true);
    const entries = Object.entries(body as Record<string, unknown>);
    expect(entries.length).toBeGreaterThan(0);
    for (const [key, value] of entries) {
      // Either {"detail": "..."} or {"field": ["message", ...]} (nested objects by key for nested fields).
      if (key === 'detail') expect(typeof value).toBe('string');
      else expect({ label, key, ok: Array.isArray(value) ? value.every((m) => typeof m === 'string') : typeof value === 'object' }).toEqual({ label, key, ok: true });
    }
  }

  it('answers bad JSON with DRF’s parse error on every write endpoint', async () => {
    const before = await snapshot();
    for (const { method, path } of cases()) {
      const target = path.replace('GROUP', String(groupId)).replace('ROLE', String(roleId)).replace('SUB', String(subscriptionId));
      for (const raw of ['{"name": ', '{name: 1}', '[1, 2', '\u0000']) {
        const response = await app.http()[method](target).set(...admin).set('Content-Type', 'application/json').send(raw);
        const label = `${method} ${target} ${JSON.stringify(raw)}`;
        expect({ label, status: response.status }).toEqual({ label, status: 400 });
        expect(Object.keys(response.body)).toEqual(['detail']);
        expect(response.body.detail).toMatch(/^JSON parse error - /);
      }
    }
    expect(await snapshot()).toBe(before);
  });

  it('answers wrong types, unknown choices, oversized values and missing fields with 400 field errors and changes nothing', async () => {
    const before = await snapshot();
    const failures: string[] = [];
    for (const { method, path, bodies } of cases()) {
      const target = path.replace('GROUP', String(groupId)).replace('ROLE', String(roleId)).replace('SUB', String(subscriptionId));
      for (const body of bodies) {
        const response = await app.http()[method](target).set(...admin).set('Content-Type', 'application/json').send(JSON.stringify(body));
        const label = `${method} ${target} ${JSON.stringify(body).slice(0, 80)}`;
        if (response.status !== 400) failures.push(`${label} -> ${response.status} ${JSON.stringify(response.body).slice(0, 200)}`);
        else expectDrfError(label, response.status, response.body);
      }
    }
    expect(failures).toEqual([]);
    expect(await snapshot()).toBe(before);
  });

  it('ignores fields a write does not declare, read-only ones included, as DRF serializers do', async () => {
    // Unknown keys are dropped before validation: the write succeeds as if they were absent.
    const project = await app.http().post('/api/projects/').set(...admin).send({ name: 'Extra', slug: 'extra', web: 'https://e.org/', bogus: 1, id: 424242, url: 'x' }).expect(201);
    expect(project.body).not.toHaveProperty('bogus');
    expect(project.body.id).not.toBe(424242);
    const group = await app.http().post('/api/groups/').set(...admin).send({ name: 'Extra team', project_selection: 0, language_selection: 1, extra: 1, id: 424242, roles: ['x'] }).expect(201);
    expect(group.body).toMatchObject({ name: 'Extra team', roles: [] });
    expect(group.body.id).not.toBe(424242);
    const patched = await app.http().patch(`/api/groups/${group.body.id}/`).set(...admin).send({ unknown: true }).expect(200);
    expect(patched.body).toEqual(group.body);
    const role = await app.http().post('/api/roles/').set(...admin).send({ name: 'Extra role', permissions: ['unit.edit'], url: 'x', colour: 'red' }).expect(201);
    expect(Object.keys(role.body)).toEqual(['id', 'name', 'permissions', 'url']);
    const user = await app.http().patch('/api/users/admin/').set(...admin).send({ full_name: 'Admin', groups: ['http://x/api/groups/1/'], date_joined: 'never', nickname: 'a' }).expect(200);
    expect(user.body).toMatchObject({ full_name: 'Admin' });
    expect(user.body).not.toHaveProperty('nickname');
    await app.http().post('/api/components/shape/form/lock/').set(...admin).send({ lock: false, why: 'x' }).expect(200);
    const language = await app.http().patch('/api/languages/cs/').set(...admin).send({ direction: 'ltr', flag: 'cz' }).expect(200);
    expect(language.body).not.toHaveProperty('flag');
    // Form bodies alike.
    await app.http().post('/api/roles/').set(...admin).type('form').send({ name: 'Form role', permissions: 'unit.edit', junk: 'x' }).expect(201);
  });

  it('never answers 500 to hostile ids and bodies on detail routes', async () => {
    for (const path of ['/api/units/99999999999999999999/', '/api/units/-1/', '/api/groups/1e9/', '/api/roles/%00/', '/api/changes/abc/', '/api/tasks/not-a-uuid/']) {
      const response = await app.http().patch(path).set(...admin).send({});
      expect({ path, status: response.status, body: response.body }).toEqual({ path, status: response.status === 405 ? 405 : 404, body: response.body });
    }
  });
});
