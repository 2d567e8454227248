import { ApiProperty, ApiPropertyOptional, PartialType } from '@nestjs/swagger';
import { IsBoolean, IsNotEmpty, IsOptional, IsString, Matches, MaxLength } from 'class-validator';

/** Weblate's slug charset (weblate-api.md §6.2). */
export const SLUG_PATTERN = /^[-a-zA-Z0-9_]+$/;
const SLUG_MESSAGE = 'Enter a valid “slug” consisting of letters, numbers, underscores or hyphens.';

/** `POST /api/projects/` body; writable fields of weblate-api.md §6.2. */
export class CreateProjectDto {
  @ApiProperty({ maxLength: 60 })
  @IsString()
  @IsNotEmpty({ message: 'This field may not be blank.' })
  @MaxLength(60, { message: 'Ensure this field has no more than 60 characters.' })
  name: string;

  @ApiProperty({ maxLength: 60, pattern: SLUG_PATTERN.source })
  @IsString()
  @IsNotEmpty({ message: 'This field may not be blank.' })
  @MaxLength(60, { message: 'Ensure this field has no more than 60 characters.' })
  @Matches(SLUG_PATTERN, { message: SLUG_MESSAGE })
  slug: string;

  @ApiProperty({ description: 'Project website' })
  @IsString()
  @IsNotEmpty({ message: 'This field may not be blank.' })
  @Matches(/^https?:\/\/\S+$/, { message: 'Enter a valid URL.' })
  @MaxLength(200, { message: 'Ensure this field has no more than 200 characters.' })
  web: string;

  @ApiPropertyOptional() @IsOptional() @IsBoolean() translation_review?: boolean;
  @ApiPropertyOptional() @IsOptional() @IsBoolean() source_review?: boolean;
  @ApiPropertyOptional() @IsOptional() @IsBoolean() set_language_team?: boolean;
  @ApiPropertyOptional() @IsOptional() @IsString() instructions?: string;
  @ApiPropertyOptional() @IsOptional() @IsBoolean() enable_hooks?: boolean;
  @ApiPropertyOptional() @IsOptional() @IsString() language_aliases?: string;
}

/** `PATCH /api/projects/<slug>/`: any subset of the writable fields. */
export class UpdateProjectDto extends PartialType(CreateProjectDto) {}
