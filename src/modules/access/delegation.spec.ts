import { ProjectSelection } from './access.entities';
import { holdsEverywhere, permissionsOutOfReach, Reach, teamWithinReach } from './delegation';

function reach(overrides: Partial<Reach> = {}): Reach {
  return { everywhere: new Set(), anywhere: new Set(), seesAllProjects: false, teamIds: new Set(), roleIds: new Set(), ...overrides };
}

describe('delegation (issue 10 item 3)', () => {
  it('holds an object permission only through a team on all projects and languages', () => {
    const projectAdmin = reach({ anywhere: new Set(['project.edit', 'unit.edit']) });
    expect(holdsEverywhere(projectAdmin, 'project.edit')).toBe(false);
    const siteAdmin = reach({ everywhere: new Set(['project.edit']), anywhere: new Set(['project.edit']), seesAllProjects: true });
    expect(holdsEverywhere(siteAdmin, 'project.edit')).toBe(true);
  });

  it('holds a site-wide permission through any team', () => {
    const userEditor = reach({ anywhere: new Set(['user.edit']) });
    expect(holdsEverywhere(userEditor, 'user.edit')).toBe(true);
    expect(holdsEverywhere(userEditor, 'group.edit')).toBe(false);
    expect(permissionsOutOfReach(userEditor, ['user.edit', 'group.edit', 'group.edit', 'unit.edit'])).toEqual(['group.edit', 'unit.edit']);
  });

  it('a team is within reach only when its permissions, its selection and its hand-picked objects are', () => {
    const holder = reach({ anywhere: new Set(['group.edit']) });
    const empty = { permissions: [], projectSelection: ProjectSelection.Manual, selectionsOutOfReach: 0 };
    expect(teamWithinReach(holder, empty)).toBe(true);
    expect(teamWithinReach(holder, { ...empty, permissions: ['group.edit'] })).toBe(true);
    expect(teamWithinReach(holder, { ...empty, permissions: ['group.edit', 'unit.edit'] })).toBe(false);
    // Selecting all projects reveals private ones the holder does not see.
    expect(teamWithinReach(holder, { ...empty, projectSelection: ProjectSelection.All })).toBe(false);
    expect(teamWithinReach({ ...holder, seesAllProjects: true }, { ...empty, projectSelection: ProjectSelection.All })).toBe(true);
    expect(teamWithinReach(holder, { ...empty, projectSelection: ProjectSelection.AllPublic })).toBe(true);
    expect(teamWithinReach(holder, { ...empty, selectionsOutOfReach: 1 })).toBe(false);
  });
});
