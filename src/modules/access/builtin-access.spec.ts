import { ROLES_4_18 } from '../../database/migrations/1795900000000-WeblateBuiltinRoles';
import { BUILTIN_ROLES, BUILTIN_TEAMS, GLOBAL_PERMISSIONS, OBJECT_PERMISSIONS, PERMISSIONS } from './builtin-access';

// The start-up definition of the built-in roles (new databases, AccessBootstrap) and the migration's
// (databases created before) must be the same table; test/e2e/builtin-access.e2e-spec.ts compares what the
// API lists with Weblate 4.18's facts.

const asTable = (roles: ReadonlyArray<readonly [string, readonly string[]]>): Record<string, string[]> =>
  Object.fromEntries(roles.map(([name, permissions]) => [name, [...new Set(permissions)].sort()]));

describe('built-in access definitions', () => {
  it('defines the same fourteen roles as the WeblateBuiltinRoles migration', () => {
    expect(BUILTIN_ROLES).toHaveLength(14);
    expect(asTable(BUILTIN_ROLES.map((role) => [role.name, role.permissions] as const))).toEqual(asTable(ROLES_4_18));
  });

  it('uses only known codenames, lists none twice, and gives Administration every object permission', () => {
    expect(new Set(PERMISSIONS).size).toBe(PERMISSIONS.length);
    expect(OBJECT_PERMISSIONS.filter((code) => GLOBAL_PERMISSIONS.includes(code))).toEqual([]);
    for (const role of BUILTIN_ROLES) {
      expect({ role: role.name, unknown: role.permissions.filter((code) => !OBJECT_PERMISSIONS.includes(code)) }).toEqual({ role: role.name, unknown: [] });
      expect({ role: role.name, size: new Set(role.permissions).size }).toEqual({ role: role.name, size: role.permissions.length });
    }
    expect([...BUILTIN_ROLES.find((role) => role.name === 'Administration')!.permissions].sort()).toEqual([...OBJECT_PERMISSIONS].sort());
  });

  it('gives the built-in teams only built-in roles', () => {
    const names = BUILTIN_ROLES.map((role) => role.name);
    expect(BUILTIN_TEAMS.flatMap((team) => team.roles).filter((role) => !names.includes(role))).toEqual([]);
    expect(BUILTIN_TEAMS.map((team) => team.name)).toEqual(['Guests', 'Viewers', 'Users', 'Reviewers', 'Managers']);
  });
});
