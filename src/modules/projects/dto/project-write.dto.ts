import { ApiProperty, ApiPropertyOptional, PartialType } from '@nestjs/swagger';
import { DrfField } from '../../../common/http/drf-fields';
import { ProjectAccess } from '../project.entity';

/** Weblate's slug charset (weblate-api.md §6.2). */
export const SLUG_PATTERN = /^[-a-zA-Z0-9_]+$/;
const SLUG_MESSAGE = 'Enter a valid “slug” consisting of letters, numbers, underscores or hyphens.';

const PROJECT_ACCESS_CODES = [ProjectAccess.Public, ProjectAccess.Protected, ProjectAccess.Private, ProjectAccess.Custom];

const checkSlug = (value: string): string | null => (SLUG_PATTERN.test(value) ? null : SLUG_MESSAGE);
const checkWeb = (value: string): string | null => (/^https?:\/\/\S+$/.test(value) ? null : 'Enter a valid URL.');

/**
 * `POST /api/projects/` body; writable fields of weblate-api.md §6.2, each validated as DRF's serializer
 * field does (DrfField), so that `null` for a field that cannot be null is a 400 `This field may not be
 * null.` rather than a failed insert.
 */
export class CreateProjectDto {
  @ApiProperty({ maxLength: 60 })
  @DrfField({ type: 'string', required: true, maxLength: 60 })
  name: string;

  @ApiProperty({ maxLength: 60, pattern: SLUG_PATTERN.source })
  @DrfField({ type: 'string', required: true, maxLength: 60, check: checkSlug })
  slug: string;

  @ApiProperty({ description: 'Project website' })
  @DrfField({ type: 'string', required: true, maxLength: 200, check: checkWeb })
  web: string;

  @ApiPropertyOptional() @DrfField({ type: 'boolean' }) translation_review?: boolean;
  @ApiPropertyOptional() @DrfField({ type: 'boolean' }) source_review?: boolean;
  @ApiPropertyOptional() @DrfField({ type: 'boolean' }) set_language_team?: boolean;
  @ApiPropertyOptional() @DrfField({ type: 'string', allowBlank: true }) instructions?: string;
  @ApiPropertyOptional() @DrfField({ type: 'boolean' }) enable_hooks?: boolean;
  @ApiPropertyOptional() @DrfField({ type: 'string', allowBlank: true }) language_aliases?: string;

  /**
   * Write-only: Weblate's project model field (weblate-api.md §8.7), not part of the project object the API
   * answers with (§6.2). Changing it needs `project.permissions` (Weblate's "Manage project access").
   */
  @ApiPropertyOptional({
    type: 'integer',
    enum: PROJECT_ACCESS_CODES,
    writeOnly: true,
    description: 'Access control: 0 public, 1 protected (visible to all, translated by its teams), 100 private, 200 custom (both visible only through teams). Needs project.permissions; not returned.',
  })
  @DrfField({ type: 'choice', choices: PROJECT_ACCESS_CODES })
  access_control?: ProjectAccess;
}

/** `PATCH /api/projects/<slug>/`: any subset of the writable fields; an omitted field is skipped, a null one is not. */
export class UpdateProjectDto extends PartialType(CreateProjectDto, { skipNullProperties: false }) {}
