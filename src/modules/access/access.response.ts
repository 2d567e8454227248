import { ApiProperty } from '@nestjs/swagger';
import type { LinkBuilder } from '../../common/links/link-builder';
import { pathOf } from '../../common/links/link-builder';
import type { Group, Role } from './access.entities';

/** Team ([4.x] GroupSerializer field order, weblate-api.md §6.14, with 5.x's leading `id`). */
export class GroupResponse {
  @ApiProperty() id: number;
  @ApiProperty() name: string;
  @ApiProperty({ enum: [0, 1, 2, 3, 4] }) project_selection: number;
  @ApiProperty({ enum: [0, 1] }) language_selection: number;
  @ApiProperty() url: string;
  @ApiProperty({ type: [String] }) roles: string[];
  @ApiProperty({ type: [String] }) languages: string[];
  @ApiProperty({ type: [String] }) projects: string[];
  @ApiProperty({ type: [String], description: 'Component lists are not implemented: always empty' }) componentlists: string[];
  @ApiProperty({ type: [String] }) components: string[];
}

/** Role (weblate-api.md §5.4, §6.14). */
export class RoleResponse {
  @ApiProperty() id: number;
  @ApiProperty() name: string;
  @ApiProperty({ type: [String] }) permissions: string[];
  @ApiProperty() url: string;
}

export const groupApiPath = (id: number): string => pathOf('api', 'groups', String(id));
export const roleApiPath = (id: number): string => pathOf('api', 'roles', String(id));

/** Expects roles, languages, projects and components (with project) loaded. */
export function toGroupResponse(group: Group, links: LinkBuilder): GroupResponse {
  return {
    id: group.id,
    name: group.name,
    project_selection: group.projectSelection,
    language_selection: group.languageSelection,
    url: links.api(groupApiPath(group.id)),
    roles: [...group.roles].sort((a, b) => a.id - b.id).map((r) => links.api(roleApiPath(r.id))),
    languages: [...group.languages].sort((a, b) => a.id - b.id).map((l) => links.api(pathOf('api', 'languages', l.code))),
    projects: [...group.projects].sort((a, b) => a.id - b.id).map((p) => links.api(pathOf('api', 'projects', p.slug))),
    componentlists: [],
    components: [...group.components]
      .sort((a, b) => a.id - b.id)
      .map((c) => links.api(pathOf('api', 'components', c.project.slug, c.slug))),
  };
}

export function toRoleResponse(role: Role, links: LinkBuilder): RoleResponse {
  return { id: role.id, name: role.name, permissions: [...role.permissions].sort(), url: links.api(roleApiPath(role.id)) };
}
