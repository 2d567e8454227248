import { DataSource } from 'typeorm';
import { createComponent, createProject } from '../support/factories';
import { apiLink, authHeader, expectApiHeaders } from '../support/contract';
import { createTestApp, TEST_ADMIN_TOKEN, TestApp } from '../support/test-app';
import { createUserWithToken } from '../support/users-factories';

// /api/groups/ and /api/roles/ (weblate-api.md §5.3, §5.4, §6.14) and the user team/token routes (§5.2).

const GROUP_KEYS = ['id', 'name', 'project_selection', 'language_selection', 'url', 'roles', 'languages', 'projects', 'componentlists', 'components'];
const ROLE_KEYS = ['id', 'name', 'permissions', 'url'];

describe('groups and roles', () => {
  let app: TestApp;
  let origin: string;
  let ds: DataSource;
  let user: { id: number; token: string };
  const admin = authHeader(TEST_ADMIN_TOKEN);

  beforeAll(async () => {
    app = await createTestApp();
    origin = `http://127.0.0.1:${(app.glossa.app.getHttpServer().address() as { port: number }).port}`;
    ds = app.glossa.app.get(DataSource);
    user = await createUserWithToken(ds, 'member');
  });

  afterAll(async () => {
    await app?.close();
  });

  it('lists the built-in teams and roles to admins, in id order with exact shapes', async () => {
    const groups = await app.http().get('/api/groups/').set(...admin).expect(200);
    expectApiHeaders(groups, 'GET, POST, HEAD, OPTIONS');
    expect(groups.body.results.map((g: { name: string }) => g.name)).toEqual(['Guests', 'Viewers', 'Users', 'Reviewers', 'Managers']);
    const users = groups.body.results[2];
    expect(Object.keys(users)).toEqual(GROUP_KEYS);
    expect(users).toMatchObject({ name: 'Users', project_selection: 3, language_selection: 1, url: apiLink(origin, `/api/groups/${users.id}/`), languages: [], projects: [], componentlists: [], components: [] });
    expect(users.roles).toHaveLength(1);

    const roles = await app.http().get('/api/roles/?page_size=100').set(...admin).expect(200);
    expectApiHeaders(roles, 'GET, POST, HEAD, OPTIONS');
    const power = roles.body.results.find((r: { name: string }) => r.name === 'Power user');
    expect(Object.keys(power)).toEqual(ROLE_KEYS);
    expect(users.roles).toEqual([apiLink(origin, `/api/roles/${power.id}/`)]);
    expect(power.permissions).toContain('unit.edit');
    // Weblate 4.18: every signed-in user may add a language to a public project.
    expect(power.permissions).toContain('translation.add');
    expect(power.permissions).toEqual([...power.permissions].sort());
  });

  it('shows other callers only their own teams and those teams’ roles', async () => {
    const anonymous = await app.http().get('/api/groups/').expect(200);
    expect(anonymous.body.results.map((g: { name: string }) => g.name)).toEqual(['Guests']);
    const mine = await app.http().get('/api/groups/').set(...authHeader(user.token)).expect(200);
    expect(mine.body.results.map((g: { name: string }) => g.name)).toEqual(['Users']);
    const roles = await app.http().get('/api/roles/').set(...authHeader(user.token)).expect(200);
    expect(roles.body.results.map((r: { name: string }) => r.name)).toEqual(['Power user']);
    const managers = (await app.http().get('/api/groups/').set(...admin)).body.results[4];
    await app.http().get(`/api/groups/${managers.id}/`).set(...authHeader(user.token)).expect(404, { detail: 'Not found.' });
    await app.http().get('/api/groups/abc/').set(...admin).expect(404);
  });

  it('creates, edits, relates and deletes a team', async () => {
    const project = await createProject(ds, { name: 'Teamed', slug: 'teamed' });
    const component = await createComponent(ds, project, { name: 'Part', slug: 'part' });
    const created = await app.http().post('/api/groups/').set(...admin).send({ name: 'Czech team', project_selection: 0, language_selection: 0 }).expect(201);
    expect(created.headers.location).toBe(created.body.url);
    const id = created.body.id;
    await app.http().post('/api/groups/').set(...admin).send({ name: 'Czech team', project_selection: 0, language_selection: 0 }).expect(400, { name: ['group with this name already exists.'] });

    const role = (await app.http().post('/api/roles/').set(...admin).send({ name: 'Czech', permissions: ['unit.edit'] }).expect(201)).body;
    expect(role.permissions).toEqual(['unit.edit']);
    const patched = await app.http().patch(`/api/roles/${role.id}/`).set(...admin).send({ permissions: ['unit.review'] }).expect(200);
    expect(patched.body.permissions).toEqual(['unit.edit', 'unit.review']);
    const put = await app.http().put(`/api/roles/${role.id}/`).set(...admin).send({ name: 'Czech', permissions: ['suggestion.add'] }).expect(200);
    expect(put.body.permissions).toEqual(['suggestion.add']);
    await app.http().post('/api/roles/').set(...admin).send({ name: 'Bad', permissions: ['nope.never'] }).expect(400, { permissions: ['Permission with this codename was not found.'] });

    await app.http().post(`/api/groups/${id}/roles/`).set(...admin).send({ role_id: role.id }).expect(200);
    await app.http().post(`/api/groups/${id}/projects/`).set(...admin).send({ project_id: project.id }).expect(200);
    await app.http().post(`/api/groups/${id}/components/`).set(...admin).send({ component_id: component.id }).expect(200);
    const withAll = await app.http().post(`/api/groups/${id}/languages/`).set(...admin).send({ language_code: 'cs' }).expect(200);
    expect(withAll.body).toMatchObject({
      roles: [apiLink(origin, `/api/roles/${role.id}/`)],
      projects: [apiLink(origin, '/api/projects/teamed/')],
      components: [apiLink(origin, '/api/components/teamed/part/')],
      languages: [apiLink(origin, '/api/languages/cs/')],
    });
    await app.http().post(`/api/groups/${id}/projects/`).set(...admin).send({ project_id: 999999 }).expect(400, { project_id: ['Project not found.'] });
    await app.http().post(`/api/groups/${id}/languages/`).set(...admin).send({ language_code: 'xx-none' }).expect(400, { language_code: ['Language not found.'] });

    await app.http().delete(`/api/groups/${id}/languages/cs/`).set(...admin).expect(204);
    await app.http().delete(`/api/groups/${id}/projects/${project.id}/`).set(...admin).expect(204);
    await app.http().delete(`/api/groups/${id}/projects/${project.id}/`).set(...admin).expect(404);
    await app.http().delete(`/api/groups/${id}/components/${component.id}/`).set(...admin).expect(204);
    await app.http().delete(`/api/groups/${id}/roles/${role.id}/`).set(...admin).expect(204);
    const renamed = await app.http().patch(`/api/groups/${id}/`).set(...admin).send({ name: 'Czech translators' }).expect(200);
    expect(renamed.body).toMatchObject({ name: 'Czech translators', roles: [], projects: [], components: [], languages: [] });

    const member = await app.http().post('/api/users/member/groups/').set(...admin).send({ group_id: id }).expect(200);
    expect(member.body.username).toBe('member');
    const own = await app.http().get('/api/groups/').set(...authHeader(user.token)).expect(200);
    expect(own.body.results.map((g: { name: string }) => g.name)).toEqual(['Users', 'Czech translators']);
    await app.http().delete('/api/users/member/groups/').set(...admin).send({ group_id: id }).expect(200);
    await app.http().post('/api/users/member/groups/').set(...admin).send({ group_id: 999999 }).expect(400, { group_id: ['Group not found.'] });

    await app.http().delete(`/api/groups/${id}/`).set(...admin).expect(204);
    await app.http().get(`/api/groups/${id}/`).set(...admin).expect(404);
    await app.http().delete(`/api/roles/${role.id}/`).set(...admin).expect(204);
  });

  it('edits built-in teams as Weblate 4.18 does, but keeps their names; Guests and Users cannot be deleted', async () => {
    const groups = (await app.http().get('/api/groups/').set(...admin)).body.results as Array<{ id: number; name: string }>;
    const users = groups[2];
    await app.http().patch(`/api/groups/${users.id}/`).set(...admin).send({ name: 'Everyone' }).expect(400, { name: ['Cannot change this on a built-in team.'] });
    const edited = await app.http().patch(`/api/groups/${users.id}/`).set(...admin).send({ language_selection: 0 }).expect(200);
    expect(edited.body).toMatchObject({ name: 'Users', language_selection: 0 });
    await app.http().patch(`/api/groups/${users.id}/`).set(...admin).send({ language_selection: 1 }).expect(200);
    await app.http().delete(`/api/groups/${users.id}/`).set(...admin).expect(403, { detail: 'Cannot delete a built-in team.' });
    await app.http().delete(`/api/groups/${groups[0].id}/`).set(...admin).expect(403, { detail: 'Cannot delete a built-in team.' });
    const reviewers = groups.find((group) => group.name === 'Reviewers')!;
    await app.http().delete(`/api/groups/${reviewers.id}/`).set(...admin).expect(204);
  });
});
