import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { DataSource, In, Repository } from 'typeorm';
import { callerGroupsSql } from '../../common/auth/access-sql';
import { ApiValidationError, notFound, permissionDenied } from '../../common/http/api-errors';
import { validateBody } from '../../common/http/validation';
import type { RequestContext } from '../../common/http/request-context';
import { PageRequest, resolvePage, ResolvedPage } from '../../common/pagination/page-params';
import { Component } from '../components/component.entity';
import { Language } from '../languages/language.entity';
import { Project } from '../projects/project.entity';
import { Group, Role } from './access.entities';
import { PERMISSIONS } from './builtin-access';
import { DelegationService, TeamState, teamStateOf } from './delegation.service';
import { type CreateGroupDto, type CreateRoleDto, type UpdateGroupDto, type UpdateRoleDto } from './dto/access-write.dto';

const GROUP_RELATIONS = { roles: true, languages: true, projects: true, components: { project: true } } as const;
type Relation = 'roles' | 'projects' | 'components' | 'languages';
type Page<T> = { page: ResolvedPage; count: number; items: T[] };

/**
 * Teams and roles (weblate-api.md §5.3, §5.4). Listing: `group.view`/`group.edit` holders see every team,
 * others the teams they belong to (built-in implicit teams included); roles likewise. Every write needs
 * the global `group.edit`/`role.edit` permission, which only superusers hold unless a team grants it;
 * referenced projects, components, languages and roles are checked to exist (GHSA-2q2q-jr9g-v9rf).
 * A non-superuser holding them may only touch teams and roles within their own reach, and may not widen a
 * team or role beyond it (delegation.ts, issue 10 item 3).
 */
@Injectable()
export class AccessService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @InjectRepository(Group) private readonly groups: Repository<Group>,
    @InjectRepository(Role) private readonly roles: Repository<Role>,
    private readonly delegation: DelegationService,
  ) {}

  async listGroups(ctx: RequestContext, pageRequest: PageRequest): Promise<Page<Group>> {
    const all = ctx.can('group.view') || ctx.can('group.edit');
    const where = all ? {} : { id: In(await this.callerGroupIds(ctx)) };
    const count = await this.groups.count({ where });
    const page = resolvePage(pageRequest, count);
    const items = await this.groups.find({ where, relations: GROUP_RELATIONS, order: { id: 'ASC' }, skip: page.offset, take: page.size });
    return { page, count, items };
  }

  async getGroup(ctx: RequestContext, id: string): Promise<Group> {
    const groupId = this.parseId(id);
    const all = ctx.can('group.view') || ctx.can('group.edit');
    if (!all && !(await this.callerGroupIds(ctx)).includes(groupId)) throw notFound();
    const group = await this.groups.findOne({ where: { id: groupId }, relations: GROUP_RELATIONS });
    if (!group) throw notFound();
    return group;
  }

  async createGroup(ctx: RequestContext, dto: CreateGroupDto): Promise<Group> {
    this.requireGlobal(ctx, 'group.edit', 'Can not manage groups');
    // A new team has no roles and no members yet; selecting all projects still reveals every private one.
    const definingProjectId = await this.definingProject(dto.defining_project);
    await this.delegation.assertTeamWithinReach(ctx, {
      permissions: [],
      projectSelection: dto.project_selection,
      projectIds: definingProjectId === null ? [] : [definingProjectId],
      componentIds: [],
    });
    if (await this.groups.existsBy({ name: dto.name })) throw new ApiValidationError({ name: ['group with this name already exists.'] });
    const saved = await this.groups.save(
      this.groups.create({ name: dto.name, projectSelection: dto.project_selection, languageSelection: dto.language_selection, internal: false, implicitFor: null, definingProjectId }),
    );
    // A project's team selects that project (Weblate: the team's scope is its defining project).
    if (definingProjectId !== null) await this.dataSource.createQueryBuilder().relation(Group, 'projects').of(saved.id).add(definingProjectId);
    return this.getGroup(ctx, String(saved.id));
  }

  /** PUT validates against CreateGroupDto, PATCH against UpdateGroupDto, after the lookup and the permission (§2.3). */
  async updateGroup(ctx: RequestContext, id: string, body: unknown, dtoClass: new () => UpdateGroupDto): Promise<Group> {
    const group = await this.getGroup(ctx, id);
    this.requireGlobal(ctx, 'group.edit', 'Can not manage groups');
    await this.delegation.assertMayManageTeam(ctx, teamStateOf(group));
    const dto = await validateBody(dtoClass, body);
    // Built-in teams can be edited (Weblate 4.18: e.g. their language selection), but keep their names, by
    // which Glossa knows them (access-bootstrap.ts).
    if (group.internal && dto.name !== undefined && dto.name !== group.name) throw new ApiValidationError({ name: ['Cannot change this on a built-in team.'] });
    if (dto.name !== undefined && dto.name !== group.name && (await this.groups.existsBy({ name: dto.name }))) {
      throw new ApiValidationError({ name: ['group with this name already exists.'] });
    }
    const projectSelection = dto.project_selection ?? group.projectSelection;
    if (projectSelection !== group.projectSelection || (dto.language_selection ?? group.languageSelection) !== group.languageSelection) {
      await this.delegation.assertTeamWithinReach(ctx, { ...teamStateOf(group), projectSelection });
    }
    const changes = {
      ...(dto.name !== undefined ? { name: dto.name } : {}),
      ...(dto.project_selection !== undefined ? { projectSelection: dto.project_selection } : {}),
      ...(dto.language_selection !== undefined ? { languageSelection: dto.language_selection } : {}),
    };
    // An empty PATCH changes nothing (TypeORM refuses an UPDATE without values: it was a 500).
    if (Object.keys(changes).length > 0) await this.groups.update(group.id, changes);
    return this.getGroup(ctx, id);
  }

  async deleteGroup(ctx: RequestContext, id: string): Promise<void> {
    const group = await this.getGroup(ctx, id);
    this.requireGlobal(ctx, 'group.edit', 'Can not manage groups');
    // Guests and Users stand for anonymous and every signed-in user (access-sql.ts); the other built-in
    // teams are ordinary teams an administrator may delete, as in Weblate.
    if (group.internal && (group.implicitFor !== null || group.autoAssign)) throw permissionDenied('Cannot delete a built-in team.');
    await this.delegation.assertMayManageTeam(ctx, teamStateOf(group));
    await this.groups.delete(group.id);
  }

  /**
   * POST/DELETE on a team's roles, projects, components, languages: one join-table row each. Removing only
   * narrows the team; adding must leave it within the caller's reach.
   */
  async relate(ctx: RequestContext, id: string, relation: Relation, key: number | string, add: boolean): Promise<Group> {
    const group = await this.getGroup(ctx, id);
    this.requireGlobal(ctx, 'group.edit', 'Can not manage groups');
    await this.delegation.assertMayManageTeam(ctx, teamStateOf(group));
    // Adding names the target in the body (400 when unknown); removing names it in the path (404).
    const target = await this.findRelated(relation, key, add);
    const builder = this.dataSource.createQueryBuilder().relation(Group, relation).of(group.id);
    const present = (group[relation] as Array<{ id: number }>).some((item) => item.id === target);
    if (add && !present) {
      await this.delegation.assertTeamWithinReach(ctx, await this.widened(group, relation, target));
      await builder.add(target);
    }
    if (!add) {
      if (!present) throw notFound();
      await builder.remove(target);
    }
    return this.getGroup(ctx, id);
  }

  /**
   * `defining_project` (Weblate 5.x+): the project's API URL, as DRF's HyperlinkedRelatedField reads it
   * (any host, the path decides); blank or null for none.
   */
  private async definingProject(url: string | null | undefined): Promise<number | null> {
    if (url === undefined || url === null || url === '') return null;
    let path: string;
    try {
      path = new URL(url, 'http://localhost').pathname;
    } catch {
      throw new ApiValidationError({ defining_project: ['Invalid hyperlink - No URL match.'] });
    }
    const match = /^\/api\/projects\/([^/]+)\/?$/.exec(path);
    if (!match) throw new ApiValidationError({ defining_project: ['Invalid hyperlink - No URL match.'] });
    const project = await this.dataSource.getRepository(Project).findOne({ where: { slug: decodeURIComponent(match[1]) }, select: { id: true } });
    if (!project) throw new ApiValidationError({ defining_project: ['Invalid hyperlink - Object does not exist.'] });
    return project.id;
  }

  /** The team as adding `target` to `relation` would leave it (a language adds nothing but must be covered too). */
  private async widened(group: Group, relation: Relation, target: number): Promise<TeamState> {
    const state = teamStateOf(group);
    if (relation === 'roles') {
      const role = await this.roles.findOneByOrFail({ id: target });
      return { ...state, permissions: [...state.permissions, ...role.permissions] };
    }
    if (relation === 'projects') return { ...state, projectIds: [...state.projectIds, target] };
    if (relation === 'components') return { ...state, componentIds: [...state.componentIds, target] };
    return state;
  }

  private async findRelated(relation: Relation, key: number | string, fromBody: boolean): Promise<number> {
    const field = { roles: 'role_id', projects: 'project_id', components: 'component_id', languages: 'language_code' }[relation];
    const label = { roles: 'Role', projects: 'Project', components: 'Component', languages: 'Language' }[relation];
    const entity = { roles: Role, projects: Project, components: Component, languages: Language }[relation];
    const where = relation === 'languages' ? { code: String(key) } : { id: Number(key) };
    const found = (await this.dataSource.getRepository<{ id: number }>(entity).findOne({ where, select: { id: true } })) as { id: number } | null;
    if (!found) throw fromBody ? new ApiValidationError({ [field]: [`${label} not found.`] }) : notFound();
    return found.id;
  }

  async listRoles(ctx: RequestContext, pageRequest: PageRequest): Promise<Page<Role>> {
    const all = ctx.can('role.view') || ctx.can('role.edit');
    const ids = all ? null : await this.callerRoleIds(ctx);
    const where = ids === null ? {} : { id: In(ids) };
    const count = await this.roles.count({ where });
    const page = resolvePage(pageRequest, count);
    const items = await this.roles.find({ where, order: { id: 'ASC' }, skip: page.offset, take: page.size });
    return { page, count, items };
  }

  async getRole(ctx: RequestContext, id: string): Promise<Role> {
    const roleId = this.parseId(id);
    const all = ctx.can('role.view') || ctx.can('role.edit');
    if (!all && !(await this.callerRoleIds(ctx)).includes(roleId)) throw notFound();
    const role = await this.roles.findOneBy({ id: roleId });
    if (!role) throw notFound();
    return role;
  }

  async createRole(ctx: RequestContext, dto: CreateRoleDto): Promise<Role> {
    this.requireGlobal(ctx, 'role.edit', 'Can not manage roles');
    this.checkPermissions(dto.permissions);
    await this.delegation.assertMayAddPermissions(ctx, null, dto.permissions);
    if (await this.roles.existsBy({ name: dto.name })) throw new ApiValidationError({ name: ['role with this name already exists.'] });
    return this.roles.save(this.roles.create({ name: dto.name, permissions: [...new Set(dto.permissions)] }));
  }

  /** PUT replaces the permission set, PATCH adds to it (weblate-api.md §5.4). */
  async updateRole(ctx: RequestContext, id: string, dto: UpdateRoleDto, replace: boolean): Promise<Role> {
    const role = await this.getRole(ctx, id);
    this.requireGlobal(ctx, 'role.edit', 'Can not manage roles');
    await this.delegation.assertMayManageRole(ctx, role);
    if (dto.permissions !== undefined) {
      this.checkPermissions(dto.permissions);
      // Every team holding the role gains what it adds.
      await this.delegation.assertMayAddPermissions(ctx, role.id, dto.permissions.filter((code) => !role.permissions.includes(code)));
    }
    if (dto.name !== undefined && dto.name !== role.name) {
      if (await this.roles.existsBy({ name: dto.name })) throw new ApiValidationError({ name: ['role with this name already exists.'] });
      role.name = dto.name;
    }
    if (dto.permissions !== undefined) {
      role.permissions = replace ? [...new Set(dto.permissions)] : [...new Set([...role.permissions, ...dto.permissions])];
    }
    return this.roles.save(role);
  }

  async deleteRole(ctx: RequestContext, id: string): Promise<void> {
    const role = await this.getRole(ctx, id);
    this.requireGlobal(ctx, 'role.edit', 'Can not manage roles');
    await this.delegation.assertMayManageRole(ctx, role);
    await this.roles.delete(role.id);
  }

  private checkPermissions(codes: string[]): void {
    if (codes.some((code) => !PERMISSIONS.includes(code))) {
      throw new ApiValidationError({ permissions: ['Permission with this codename was not found.'] });
    }
  }

  private requireGlobal(ctx: RequestContext, permission: string, message: string): void {
    if (!ctx.can(permission)) throw permissionDenied(message);
  }

  private parseId(id: string): number {
    if (!/^\d{1,9}$/.test(id)) throw notFound();
    return Number(id);
  }

  private async callerGroupIds(ctx: RequestContext): Promise<number[]> {
    const rows: Array<{ id: number }> = await this.dataSource.query(callerGroupsSql(ctx.caller));
    return rows.map((row) => Number(row.id));
  }

  private async callerRoleIds(ctx: RequestContext): Promise<number[]> {
    const rows: Array<{ role_id: number }> = await this.dataSource.query(
      `SELECT DISTINCT role_id FROM group_roles WHERE group_id IN (${callerGroupsSql(ctx.caller)})`,
    );
    return rows.map((row) => Number(row.role_id));
  }
}
