import { ProjectSelection } from './access.entities';
import { GLOBAL_PERMISSIONS } from './builtin-access';

/*
 * Issue 10 item 3: a non-superuser holding user.edit, group.edit or role.edit (through a team) must not be able
 * to hand out more than they hold, themselves or to anyone else; otherwise two such holders, or one holder
 * and one team write, widen each other's rights until they hold everything. The rule is Kubernetes RBAC's
 * escalation check ("you may only grant permissions you already hold, at the scope you hold them") applied
 * to Weblate's teams:
 *
 * - What the actor holds "everywhere": the permissions of their teams that select all projects and all
 *   languages (project_selection 1, language_selection 1). Such a team also makes every project visible.
 *   Site-wide permissions (GLOBAL_PERMISSIONS: user.edit, group.edit, role.edit, project.add, ...) are
 *   granted by any team, whatever it selects, so for those it is enough that any team of the actor has them.
 * - A team is within the actor's reach when every permission of its roles is held everywhere, it selects all
 *   projects only if the actor sees all projects, and every project or component it selects by hand is
 *   visible to the actor and not a restricted component (those are the superuser's business: a team that
 *   selects one grants on it what no "everywhere" team grants).
 * - A team the actor belongs to is within reach as it is (the actor already holds what it grants).
 *
 * Superusers pass every check; these functions are for everyone else.
 */

/** What the acting (non-superuser) caller holds, from their teams (membership rows and implicit teams). */
export interface Reach {
  /** Permissions granted on every project and language. */
  everywhere: ReadonlySet<string>;
  /** Permissions any of the caller's teams carries, whatever it selects. */
  anywhere: ReadonlySet<string>;
  /** One of the caller's teams selects all projects. */
  seesAllProjects: boolean;
  /** The caller's teams (including the built-in implicit one). */
  teamIds: ReadonlySet<number>;
  /** Roles of the caller's teams. */
  roleIds: ReadonlySet<number>;
}

/** What a team grants, as far as reach is concerned. */
export interface TeamGrant {
  /** The union of the permissions of the team's roles. */
  permissions: Iterable<string>;
  projectSelection: ProjectSelection;
  /** How many projects or components the team selects by hand that the caller cannot see or that are restricted. */
  selectionsOutOfReach: number;
}

/** The caller holds `permission` on every object (or, for a site-wide permission, at all). */
export function holdsEverywhere(reach: Reach, permission: string): boolean {
  return reach.everywhere.has(permission) || (GLOBAL_PERMISSIONS.includes(permission) && reach.anywhere.has(permission));
}

/** The permissions in `permissions` the caller does not hold everywhere (empty: may hand them all out). */
export function permissionsOutOfReach(reach: Reach, permissions: Iterable<string>): string[] {
  return [...new Set(permissions)].filter((permission) => !holdsEverywhere(reach, permission));
}

/** A team with this grant gives its members nothing the caller does not hold. */
export function teamWithinReach(reach: Reach, grant: TeamGrant): boolean {
  return (
    permissionsOutOfReach(reach, grant.permissions).length === 0 &&
    (grant.projectSelection !== ProjectSelection.All || reach.seesAllProjects) &&
    grant.selectionsOutOfReach === 0
  );
}
