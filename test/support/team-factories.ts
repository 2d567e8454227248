import { authHeader } from './contract';
import type { TestApp } from './test-app';

// Teams (Weblate groups) made the way an administrator makes them: through /api/groups/, /api/roles/ and
// /api/users/<username>/groups/ (README "Users, tokens, teams and permissions"), so the tests exercise the
// same routes and rules a deployment uses rather than rows inserted behind the API's back.

export interface TeamSpec {
  name: string;
  /** Names of roles to grant (built-in ones such as "Translate", "Review strings", "Administration"). */
  roles: string[];
  /** Projects selected by hand (project_selection 0). */
  projectIds?: number[];
  /** Components selected by hand (needed for restricted components). */
  componentIds?: number[];
  /** Usernames added as members. */
  members?: string[];
  /** Default 0 (manual). */
  projectSelection?: number;
  /** Default 1 (all languages). */
  languageSelection?: number;
}

/** Role ids by name, as the administrator sees them. */
export async function roleIdsByName(app: TestApp, adminToken: string): Promise<Map<string, number>> {
  const response = await app.http().get('/api/roles/?page_size=1000').set(...authHeader(adminToken)).expect(200);
  return new Map((response.body.results as Array<{ id: number; name: string }>).map((role) => [role.name, role.id]));
}

/** Creates the team through the API as `adminToken` (a superuser or holder of group.edit/user.edit); resolves with its id. */
export async function createTeam(app: TestApp, adminToken: string, spec: TeamSpec): Promise<number> {
  const admin = authHeader(adminToken);
  const created = await app
    .http()
    .post('/api/groups/')
    .set(...admin)
    .send({ name: spec.name, project_selection: spec.projectSelection ?? 0, language_selection: spec.languageSelection ?? 1 })
    .expect(201);
  const id: number = created.body.id;
  const roles = spec.roles.length > 0 ? await roleIdsByName(app, adminToken) : new Map<string, number>();
  for (const name of spec.roles) {
    const roleId = roles.get(name);
    if (roleId === undefined) throw new Error(`No role named ${name}`);
    await app.http().post(`/api/groups/${id}/roles/`).set(...admin).send({ role_id: roleId }).expect(200);
  }
  for (const projectId of spec.projectIds ?? []) {
    await app.http().post(`/api/groups/${id}/projects/`).set(...admin).send({ project_id: projectId }).expect(200);
  }
  for (const componentId of spec.componentIds ?? []) {
    await app.http().post(`/api/groups/${id}/components/`).set(...admin).send({ component_id: componentId }).expect(200);
  }
  for (const username of spec.members ?? []) {
    await app.http().post(`/api/users/${encodeURIComponent(username)}/groups/`).set(...admin).send({ group_id: id }).expect(200);
  }
  return id;
}
