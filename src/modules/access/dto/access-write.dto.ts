import { ApiProperty, ApiPropertyOptional, PartialType } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsIn, IsInt, IsNotEmpty, IsString, MaxLength } from 'class-validator';

const INT_MESSAGE = 'A valid integer is required.';

/** `POST /api/groups/` (weblate-api.md §5.3, 4.x payload). */
export class CreateGroupDto {
  @ApiProperty({ maxLength: 150 })
  @IsString({ message: 'Not a valid string.' })
  @IsNotEmpty({ message: 'This field may not be blank.' })
  @MaxLength(150, { message: 'Ensure this field has no more than 150 characters.' })
  name: string;

  @ApiProperty({ enum: [0, 1, 2, 3, 4], description: '0 manual, 1 all, 2 component list, 3 all public, 4 all protected' })
  @IsInt({ message: INT_MESSAGE })
  @IsIn([0, 1, 3, 4], { message: '"$value" is not a valid choice.' })
  project_selection: number;

  @ApiProperty({ enum: [0, 1], description: '0 manual, 1 all' })
  @IsInt({ message: INT_MESSAGE })
  @IsIn([0, 1], { message: '"$value" is not a valid choice.' })
  language_selection: number;
}

export class UpdateGroupDto extends PartialType(CreateGroupDto) {}

/** `POST /api/roles/` (weblate-api.md §5.4). */
export class CreateRoleDto {
  @ApiProperty({ maxLength: 200 })
  @IsString({ message: 'Not a valid string.' })
  @IsNotEmpty({ message: 'This field may not be blank.' })
  @MaxLength(200, { message: 'Ensure this field has no more than 200 characters.' })
  name: string;

  @ApiProperty({ type: [String], description: 'Permission codenames (weblate-api.md §2.5)' })
  @IsArray({ message: 'Expected a list of items but got type "$value".' })
  @ArrayMaxSize(100)
  @IsString({ each: true, message: 'Not a valid string.' })
  permissions: string[];
}

export class UpdateRoleDto extends PartialType(CreateRoleDto) {}

export class GroupRoleDto {
  @ApiProperty() @IsInt({ message: INT_MESSAGE }) role_id: number;
}
export class GroupProjectDto {
  @ApiProperty() @IsInt({ message: INT_MESSAGE }) project_id: number;
}
export class GroupComponentDto {
  @ApiProperty() @IsInt({ message: INT_MESSAGE }) component_id: number;
}
export class GroupLanguageDto {
  @ApiProperty() @IsString({ message: 'Not a valid string.' }) @MaxLength(50) language_code: string;
}
export class UserGroupDto {
  @ApiProperty() @IsInt({ message: INT_MESSAGE }) group_id: number;
}

/** `POST /api/users/<username>/token/` answer: the new key, shown once. */
export class UserTokenResponse {
  @ApiPropertyOptional({ description: 'The new API key (wlu_ + 36 characters); only its SHA-256 digest is stored' })
  key: string;
}
