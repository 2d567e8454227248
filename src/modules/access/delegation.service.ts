import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { callerGroupsSql, componentVisibleSql, projectVisibleSql } from '../../common/auth/access-sql';
import { permissionDenied } from '../../common/http/api-errors';
import type { ApiCaller, RequestContext } from '../../common/http/request-context';
import { type Group, ProjectSelection } from './access.entities';
import { GLOBAL_PERMISSIONS } from './builtin-access';
import { permissionsOutOfReach, Reach, teamWithinReach } from './delegation';

/** A team as it is or as a write would leave it: its roles' permissions and what it selects. */
export interface TeamState {
  id?: number;
  permissions: Iterable<string>;
  projectSelection: ProjectSelection;
  projectIds: number[];
  componentIds: number[];
}

/** The state of a team loaded with its roles, projects and components. */
export function teamStateOf(group: Group): TeamState {
  return {
    id: group.id,
    permissions: group.roles.flatMap((role) => role.permissions),
    projectSelection: group.projectSelection,
    projectIds: group.projects.map((project) => project.id),
    componentIds: group.components.map((component) => component.id),
  };
}

/**
 * The checks of delegation.ts against the database, for non-superusers acting on teams, roles and
 * memberships (issue 10 item 3). Each failure is DRF's default 403; superusers are never checked. Every
 * check runs after the object's lookup (404) and the route's own permission (user.edit/group.edit/role.edit).
 */
@Injectable()
export class DelegationService {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The team as it is may be managed (renamed, narrowed, deleted, members changed): the caller belongs to it or could grant it. */
  async assertMayManageTeam(ctx: RequestContext, team: TeamState): Promise<void> {
    const caller = this.actor(ctx);
    if (caller === null) return;
    const reach = await this.reach(caller);
    if (team.id !== undefined && reach.teamIds.has(team.id)) return;
    await this.assertWithin(caller, reach, team);
  }

  /** The team as a write would leave it (new, or widened) gives nothing the caller does not hold. */
  async assertTeamWithinReach(ctx: RequestContext, team: TeamState): Promise<void> {
    const caller = this.actor(ctx);
    if (caller === null) return;
    await this.assertWithin(caller, await this.reach(caller), team);
  }

  /** The role as it is may be managed: the caller holds it through one of their teams, or holds all its permissions everywhere. */
  async assertMayManageRole(ctx: RequestContext, role: { id: number; permissions: string[] }): Promise<void> {
    const caller = this.actor(ctx);
    if (caller === null) return;
    const reach = await this.reach(caller);
    if (reach.roleIds.has(role.id)) return;
    if (permissionsOutOfReach(reach, role.permissions).length > 0) throw permissionDenied();
  }

  /**
   * Permissions a role write adds (to a new role, or to role `roleId`, whose teams all gain them): each must
   * be held everywhere. A team selecting a restricted component by hand would gain them there, where no
   * "everywhere" team grants anything, so such a role only takes object permissions from a superuser.
   */
  async assertMayAddPermissions(ctx: RequestContext, roleId: number | null, added: string[]): Promise<void> {
    const caller = this.actor(ctx);
    if (caller === null || added.length === 0) return;
    if (permissionsOutOfReach(await this.reach(caller), added).length > 0) throw permissionDenied();
    if (roleId === null || added.every((permission) => GLOBAL_PERMISSIONS.includes(permission))) return;
    const [row]: Array<{ restricted: boolean }> = await this.dataSource.query(
      `SELECT EXISTS (SELECT 1 FROM group_roles gr JOIN group_components gc ON gc.group_id = gr.group_id
                        JOIN components c ON c.id = gc.component_id
                       WHERE gr.role_id = $1 AND c.restricted) AS restricted`,
      [roleId],
    );
    if (row.restricted) throw permissionDenied();
  }

  /** The caller to check, or null for superusers (who pass every check). */
  private actor(ctx: RequestContext): ApiCaller | null {
    if (ctx.caller === null) throw permissionDenied();
    return ctx.caller.isSuperuser ? null : ctx.caller;
  }

  private async assertWithin(caller: ApiCaller, reach: Reach, team: TeamState): Promise<void> {
    const selectionsOutOfReach = await this.selectionsOutOfReach(caller, team.projectIds, team.componentIds);
    if (!teamWithinReach(reach, { permissions: team.permissions, projectSelection: team.projectSelection, selectionsOutOfReach })) {
      throw permissionDenied();
    }
  }

  /** One statement: what the caller's teams grant (delegation.ts `Reach`). */
  private async reach(caller: ApiCaller): Promise<Reach> {
    const [row]: Array<{ everywhere: string[]; anywhere: string[]; sees_all: boolean; team_ids: number[]; role_ids: number[] }> = await this.dataSource.query(
      `WITH mine AS (${callerGroupsSql(caller)}),
            granted AS (SELECT g.project_selection, g.language_selection, perm FROM groups g
                          JOIN group_roles gr ON gr.group_id = g.id JOIN roles r ON r.id = gr.role_id
                          CROSS JOIN LATERAL unnest(r.permissions) AS perm
                         WHERE g.id IN (SELECT id FROM mine))
       SELECT ARRAY(SELECT DISTINCT perm FROM granted WHERE project_selection = 1 AND language_selection = 1) AS everywhere,
              ARRAY(SELECT DISTINCT perm FROM granted) AS anywhere,
              EXISTS (SELECT 1 FROM groups g WHERE g.id IN (SELECT id FROM mine) AND g.project_selection = 1) AS sees_all,
              ARRAY(SELECT id FROM mine) AS team_ids,
              ARRAY(SELECT DISTINCT role_id FROM group_roles WHERE group_id IN (SELECT id FROM mine)) AS role_ids`,
    );
    return {
      everywhere: new Set(row.everywhere),
      anywhere: new Set(row.anywhere),
      seesAllProjects: row.sees_all,
      teamIds: new Set(row.team_ids.map(Number)),
      roleIds: new Set(row.role_ids.map(Number)),
    };
  }

  /** Hand-selected projects and components the caller cannot see, plus restricted components. */
  private async selectionsOutOfReach(caller: ApiCaller, projectIds: number[], componentIds: number[]): Promise<number> {
    if (projectIds.length === 0 && componentIds.length === 0) return 0;
    const [row]: Array<{ count: number }> = await this.dataSource.query(
      `SELECT ((SELECT count(*) FROM projects p WHERE p.id = ANY($1::int[]) AND NOT ${projectVisibleSql(caller, 'p')})
             + (SELECT count(*) FROM components c JOIN projects p ON p.id = c.project_id
                 WHERE c.id = ANY($2::int[]) AND (c.restricted OR NOT ${componentVisibleSql(caller, 'c', 'p')})))::int AS count`,
      [projectIds, componentIds],
    );
    return row.count;
  }
}
