import { DataSource } from 'typeorm';
import { WeblateBuiltinRoles1795900000000 } from '../../src/database/migrations/1795900000000-WeblateBuiltinRoles';
import { authHeader } from '../support/contract';
import { createTestApp, TEST_ADMIN_TOKEN, TestApp } from '../support/test-app';

// Issue 12 item 3: Weblate 4.18's built-in roles and teams, compared key by key with a reference table
// written here from Weblate 4.18's weblate/auth/data.py (role names, permission sets, team selections), not
// from Glossa's own definition (src/modules/access/builtin-access.ts), so a drift of either shows. Also the
// WeblateBuiltinRoles migration that brings databases created before in line, and what anonymous callers see.

/** Weblate 4.18's TRANSLATE_PERMS. */
const TRANSLATE = [
  'comment.add', 'machinery.view', 'suggestion.accept', 'suggestion.add', 'suggestion.vote', 'translation.download',
  'unit.check', 'unit.edit', 'upload.overwrite', 'upload.perform',
];

/** Weblate 4.18's per-object permissions: what "Administration" holds. */
const ALL_OBJECT_PERMISSIONS = [
  'billing.view', 'change.download', 'comment.add', 'comment.delete', 'comment.resolve', 'component.edit', 'component.lock',
  'glossary.add', 'glossary.delete', 'glossary.edit', 'glossary.terminology', 'glossary.upload', 'machinery.view',
  'memory.delete', 'memory.edit', 'project.edit', 'project.permissions', 'reports.view', 'screenshot.add',
  'screenshot.delete', 'screenshot.edit', 'source.edit', 'suggestion.accept', 'suggestion.add', 'suggestion.delete',
  'suggestion.vote', 'translation.add', 'translation.add_more', 'translation.auto', 'translation.delete',
  'translation.download', 'unit.add', 'unit.check', 'unit.delete', 'unit.edit', 'unit.override', 'unit.review',
  'unit.template', 'upload.authorship', 'upload.overwrite', 'upload.perform', 'vcs.access', 'vcs.commit', 'vcs.push',
  'vcs.reset', 'vcs.update', 'vcs.view',
];

const sorted = (codes: string[]): string[] => [...new Set(codes)].sort();

/** The 14 roles of Weblate 4.18, permissions sorted as `GET /api/roles/` lists them. */
const REFERENCE_ROLES: Record<string, string[]> = {
  'Add suggestion': ['suggestion.add'],
  'Access repository': sorted(['translation.download', 'vcs.access', 'vcs.view']),
  'Power user': sorted([...TRANSLATE, 'translation.add', 'unit.template', 'suggestion.delete', 'vcs.access', 'vcs.view', 'glossary.add', 'glossary.delete', 'glossary.edit', 'glossary.upload']),
  Translate: sorted(TRANSLATE),
  'Edit source': sorted([...TRANSLATE, 'source.edit', 'unit.template']),
  'Manage languages': sorted(['translation.add', 'translation.add_more', 'translation.delete', 'translation.download']),
  'Automatic translation': ['translation.auto'],
  'Manage glossary': sorted(['glossary.add', 'glossary.delete', 'glossary.edit', 'glossary.terminology', 'glossary.upload']),
  'Manage translation memory': sorted(['memory.delete', 'memory.edit']),
  'Manage screenshots': sorted(['screenshot.add', 'screenshot.delete', 'screenshot.edit']),
  'Review strings': sorted([...TRANSLATE, 'comment.resolve', 'unit.override', 'unit.review']),
  'Manage repository': sorted(['component.lock', 'vcs.access', 'vcs.commit', 'vcs.push', 'vcs.reset', 'vcs.update', 'vcs.view']),
  Administration: ALL_OBJECT_PERMISSIONS,
  Billing: ['billing.view'],
};

/** The built-in teams of Weblate 4.18 (no "Project creators": Weblate 5.1+), in creation order. */
const REFERENCE_TEAMS = [
  { name: 'Guests', project_selection: 3, language_selection: 1, roles: ['Access repository', 'Add suggestion'] },
  { name: 'Viewers', project_selection: 4, language_selection: 1, roles: [] },
  { name: 'Users', project_selection: 3, language_selection: 1, roles: ['Power user'] },
  { name: 'Reviewers', project_selection: 1, language_selection: 1, roles: ['Review strings'] },
  { name: 'Managers', project_selection: 1, language_selection: 1, roles: ['Administration'] },
];

interface RoleBody { id: number; name: string; permissions: string[]; url: string }
interface GroupBody { id: number; name: string; project_selection: number; language_selection: number; roles: string[]; languages: string[]; projects: string[]; componentlists: string[]; components: string[] }

describe('Weblate 4.18 built-in roles and teams', () => {
  let app: TestApp;
  let ds: DataSource;
  const admin = authHeader(TEST_ADMIN_TOKEN);

  beforeAll(async () => {
    app = await createTestApp();
    ds = app.glossa.app.get(DataSource);
  });

  afterAll(async () => {
    await app?.close();
  });

  const rolesAs = async (headers: [string, string] | null): Promise<RoleBody[]> => {
    const request = app.http().get('/api/roles/?page_size=100');
    return (await (headers ? request.set(...headers) : request).expect(200)).body.results;
  };
  const groupsAs = async (headers: [string, string] | null): Promise<GroupBody[]> => {
    const request = app.http().get('/api/groups/?page_size=100');
    return (await (headers ? request.set(...headers) : request).expect(200)).body.results;
  };

  /** A team as the reference describes it: role URLs replaced by role names. */
  const described = (group: GroupBody, roles: RoleBody[]) => {
    const { id: _id, url: _url, roles: roleUrls, ...rest } = group as GroupBody & { url: string };
    return { ...rest, roles: roleUrls.map((url) => roles.find((role) => role.url === url)!.name).sort() };
  };

  it('lists the fourteen roles with Weblate’s exact permission sets', async () => {
    const roles = await rolesAs(admin);
    expect(roles.map((role) => Object.keys(role))).toEqual(roles.map(() => ['id', 'name', 'permissions', 'url']));
    expect(Object.fromEntries(roles.map((role) => [role.name, role.permissions]))).toEqual(REFERENCE_ROLES);
    expect(roles.map((role) => role.name)).not.toContain('Add new projects');
  });

  it('lists the five built-in teams with Weblate’s selections and roles', async () => {
    const roles = await rolesAs(admin);
    const groups = await groupsAs(admin);
    expect(groups.map((group) => described(group, roles))).toEqual(
      REFERENCE_TEAMS.map((team) => ({ ...team, languages: [], projects: [], componentlists: [], components: [] })),
    );
  });

  it('shows anonymous callers the Guests team and its two roles only', async () => {
    const roles = await rolesAs(null);
    expect(Object.fromEntries(roles.map((role) => [role.name, role.permissions]))).toEqual({
      'Add suggestion': REFERENCE_ROLES['Add suggestion'],
      'Access repository': REFERENCE_ROLES['Access repository'],
    });
    const groups = await groupsAs(null);
    expect(groups.map((group) => described(group, roles))).toEqual([{ ...REFERENCE_TEAMS[0], languages: [], projects: [], componentlists: [], components: [] }]);
  });

  it('accepts every Weblate 4.18 codename in a custom role, and only known ones', async () => {
    const all = [...ALL_OBJECT_PERMISSIONS, 'project.add', 'language.add', 'management.use', 'announcement.edit', 'componentlist.edit'];
    const created = await app.http().post('/api/roles/').set(...admin).send({ name: 'Everything', permissions: all }).expect(201);
    expect(created.body.permissions).toEqual(sorted(all));
    await app.http().post('/api/roles/').set(...admin).send({ name: 'Nothing', permissions: ['glossary.nope'] }).expect(400, { permissions: ['Permission with this codename was not found.'] });
    await app.http().delete(`/api/roles/${created.body.id}/`).set(...admin).expect(204);
  });

  describe('the WeblateBuiltinRoles migration on a database created before', () => {
    const migration = new WeblateBuiltinRoles1795900000000();

    async function run(step: 'up' | 'down'): Promise<void> {
      const runner = ds.createQueryRunner();
      try {
        await migration[step](runner);
      } finally {
        await runner.release();
      }
    }

    async function roleTable(): Promise<Record<string, string[]>> {
      const rows: Array<{ name: string; permissions: string[] }> = await ds.query(`SELECT name, permissions FROM roles ORDER BY id`);
      return Object.fromEntries(rows.map((row) => [row.name, [...row.permissions].sort()]));
    }

    async function teamState(): Promise<string> {
      return JSON.stringify(await ds.query(`SELECT g.name, g.internal, g.project_selection, array(SELECT r.name FROM group_roles gr JOIN roles r ON r.id = gr.role_id WHERE gr.group_id = g.id ORDER BY r.name) AS roles FROM groups g ORDER BY g.id`));
    }

    it('gives the old roles Weblate’s sets, adds the missing ones and drops an empty "Project creators"', async () => {
      await run('down');
      const before = await roleTable();
      expect(before['Power user']).not.toContain('translation.add');
      expect(before['Add new projects']).toEqual(['project.add']);
      expect(before['Automatic translation']).toBeUndefined();
      expect(await ds.query(`SELECT internal FROM groups WHERE name = 'Project creators'`)).toEqual([{ internal: true }]);
      // An administrator's edit of a built-in role is overwritten, as Weblate's upgrade re-syncs built-in roles.
      await ds.query(`UPDATE roles SET permissions = '{unit.edit,vcs.push}' WHERE name = 'Translate'`);

      await run('up');
      expect(await roleTable()).toEqual(REFERENCE_ROLES);
      expect(await ds.query(`SELECT 1 FROM groups WHERE name = 'Project creators'`)).toEqual([]);
      expect((await groupsAs(admin)).map((group) => group.name)).toEqual(REFERENCE_TEAMS.map((team) => team.name));

      // Idempotent: a second run changes nothing.
      const teams = await teamState();
      await run('up');
      expect(await roleTable()).toEqual(REFERENCE_ROLES);
      expect(await teamState()).toBe(teams);
    });

    it('keeps a "Project creators" team that has members as an ordinary team, with its role', async () => {
      await run('down');
      await ds.query(
        `INSERT INTO group_members (group_id, user_id)
         SELECT g.id, u.id FROM groups g, users u WHERE g.name = 'Project creators' AND u.username = 'admin'`,
      );
      await run('up');
      const { ['Add new projects']: kept, ...builtin } = await roleTable();
      expect(builtin).toEqual(REFERENCE_ROLES);
      expect(kept).toEqual(['project.add']);
      const creators = (await groupsAs(admin)).find((group) => group.name === 'Project creators')!;
      expect(await ds.query(`SELECT internal FROM groups WHERE id = $1`, [creators.id])).toEqual([{ internal: false }]);
      // An ordinary team now: the administrator may delete it, and then its role.
      await app.http().delete(`/api/groups/${creators.id}/`).set(...admin).expect(204);
      const role = (await rolesAs(admin)).find((item) => item.name === 'Add new projects')!;
      await app.http().delete(`/api/roles/${role.id}/`).set(...admin).expect(204);
      expect(await roleTable()).toEqual(REFERENCE_ROLES);
    });
  });
});
