import { ApiProperty, ApiPropertyOptional, PartialType } from '@nestjs/swagger';
import { DrfField } from '../../../common/http/drf-fields';

/** `POST /api/groups/` (weblate-api.md §5.3, 4.x payload). */
export class CreateGroupDto {
  @ApiProperty({ maxLength: 150 })
  @DrfField({ type: 'string', required: true, maxLength: 150 })
  name: string;

  @ApiProperty({ enum: [0, 1, 2, 3, 4], description: '0 manual, 1 all, 2 component list, 3 all public, 4 all protected' })
  @DrfField({ type: 'choice', required: true, choices: [0, 1, 3, 4] })
  project_selection: number;

  @ApiProperty({ enum: [0, 1], description: '0 manual, 1 all' })
  @DrfField({ type: 'choice', required: true, choices: [0, 1] })
  language_selection: number;

  @ApiPropertyOptional({ type: String, format: 'uri', description: 'API URL of the project the team belongs to (Weblate 5.x+); the team then selects that project', nullable: true })
  @DrfField({ type: 'string', allowBlank: true })
  defining_project?: string | null;
}

export class UpdateGroupDto extends PartialType(CreateGroupDto) {}

/** `POST /api/roles/` (weblate-api.md §5.4). */
export class CreateRoleDto {
  @ApiProperty({ maxLength: 200 })
  @DrfField({ type: 'string', required: true, maxLength: 200 })
  name: string;

  @ApiProperty({ type: [String], description: 'Permission codenames (weblate-api.md §2.5)' })
  @DrfField({ type: 'list', required: true, maxItems: 100, child: { type: 'string' } })
  permissions: string[];
}

export class UpdateRoleDto extends PartialType(CreateRoleDto) {}

export class GroupRoleDto {
  @ApiProperty() @DrfField({ type: 'integer', required: true }) role_id: number;
}
export class GroupProjectDto {
  @ApiProperty() @DrfField({ type: 'integer', required: true }) project_id: number;
}
export class GroupComponentDto {
  @ApiProperty() @DrfField({ type: 'integer', required: true }) component_id: number;
}
export class GroupLanguageDto {
  @ApiProperty() @DrfField({ type: 'string', required: true, maxLength: 50 }) language_code: string;
}
export class UserGroupDto {
  @ApiProperty() @DrfField({ type: 'integer', required: true }) group_id: number;
}

/** `POST /api/users/<username>/token/` answer: the new key, shown once. */
export class UserTokenResponse {
  @ApiPropertyOptional({ description: 'The new API key (wlu_ + 36 characters); only its SHA-256 digest is stored' })
  key: string;
}
