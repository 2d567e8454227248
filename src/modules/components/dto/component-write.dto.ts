import { ApiProperty, ApiPropertyOptional, PartialType } from '@nestjs/swagger';
import { FILE_FORMATS } from '../../../formats/format.registry';
import {
  GLOSSARY_COLOR_CHOICES,
  LANGUAGE_CODE_STYLE_CHOICES,
  MERGE_STYLE_CHOICES,
  NEW_LANG_CHOICES,
  PRIORITY_CHOICES,
  VCS_CHOICES,
} from '../component-write.validator';

// OpenAPI description of a component write body (weblate-api.md §6.3, writable fields). The body itself is
// validated by validateComponentWrite, which follows DRF's rules (see component-write.validator.ts);
// read-only keys of a component (id, url, …) are accepted and ignored, so a GET body can be sent back.

/** `POST /api/projects/<p>/components/` and `PUT /api/components/<p>/<c>/`. */
export class ComponentWriteDto {
  @ApiProperty({ maxLength: 100 }) name: string;
  @ApiProperty({ maxLength: 100, pattern: '^[-a-zA-Z0-9_]+$' }) slug: string;
  @ApiPropertyOptional({
    description: 'Language code (`"en"`) or an object with `code`; defaults to English. Cannot change after creation.',
    oneOf: [{ type: 'string' }, { type: 'object', properties: { code: { type: 'string' } }, required: ['code'] }],
  })
  source_language?: string | { code: string };
  @ApiPropertyOptional({ enum: VCS_CHOICES, default: 'git' }) vcs?: string;
  @ApiProperty({ maxLength: 300, description: 'Repository URL (https, ssh, git; local paths only when the server allows them)' }) repo: string;
  @ApiPropertyOptional({ maxLength: 220 }) git_export?: string;
  @ApiPropertyOptional({ maxLength: 200, description: "Empty: the remote's default branch" }) branch?: string;
  @ApiPropertyOptional({ maxLength: 200 }) push_branch?: string;
  @ApiProperty({ maxLength: 400, description: 'Path pattern of the translation files; `*` is the language code' }) filemask: string;
  @ApiPropertyOptional({ maxLength: 400 }) screenshot_filemask?: string;
  @ApiPropertyOptional({ maxLength: 400, description: 'Monolingual base file' }) template?: string;
  @ApiPropertyOptional({ default: true }) edit_template?: boolean;
  @ApiPropertyOptional({ maxLength: 400 }) intermediate?: string;
  @ApiPropertyOptional({ maxLength: 400 }) new_base?: string;
  @ApiProperty({ description: "Weblate's file format id (docs/formats.md)", enum: [...FILE_FORMATS.keys()] }) file_format: string;
  @ApiPropertyOptional({ maxLength: 150, description: 'SPDX identifier' }) license?: string;
  @ApiPropertyOptional() agreement?: string;
  @ApiPropertyOptional({ enum: NEW_LANG_CHOICES, default: 'add' }) new_lang?: string;
  @ApiPropertyOptional({ enum: LANGUAGE_CODE_STYLE_CHOICES, default: '' }) language_code_style?: string;
  @ApiPropertyOptional({ maxLength: 300 }) push?: string;
  @ApiPropertyOptional() check_flags?: string;
  @ApiPropertyOptional({ enum: PRIORITY_CHOICES, default: 100 }) priority?: number;
  @ApiPropertyOptional({ type: [String] }) enforced_checks?: string[];
  @ApiPropertyOptional({ default: false }) restricted?: boolean;
  @ApiPropertyOptional({ maxLength: 200 }) repoweb?: string;
  @ApiPropertyOptional({ maxLength: 254, format: 'email' }) report_source_bugs?: string;
  @ApiPropertyOptional({ enum: MERGE_STYLE_CHOICES, default: 'rebase' }) merge_style?: string;
  @ApiPropertyOptional() commit_message?: string;
  @ApiPropertyOptional() add_message?: string;
  @ApiPropertyOptional() delete_message?: string;
  @ApiPropertyOptional() merge_message?: string;
  @ApiPropertyOptional() addon_message?: string;
  @ApiPropertyOptional() pull_message?: string;
  @ApiPropertyOptional({ default: true }) allow_translation_propagation?: boolean;
  @ApiPropertyOptional({ description: 'Defaults to true when a template is given' }) manage_units?: boolean;
  @ApiPropertyOptional({ default: true }) enable_suggestions?: boolean;
  @ApiPropertyOptional({ default: false }) suggestion_voting?: boolean;
  @ApiPropertyOptional({ default: 0, minimum: 0 }) suggestion_autoaccept?: number;
  @ApiPropertyOptional({ default: true }) push_on_commit?: boolean;
  @ApiPropertyOptional({ default: 24, minimum: 0, maximum: 2160 }) commit_pending_age?: number;
  @ApiPropertyOptional({ default: true }) auto_lock_error?: boolean;
  @ApiPropertyOptional({ default: '^[^.]+$' }) language_regex?: string;
  @ApiPropertyOptional({ maxLength: 190 }) variant_regex?: string;
  @ApiPropertyOptional({ default: false }) is_glossary?: boolean;
  @ApiPropertyOptional({ enum: GLOSSARY_COLOR_CHOICES, default: 'silver' }) glossary_color?: string;
  @ApiPropertyOptional({ description: 'Accepted for compatibility; Glossa never shares repositories automatically' })
  disable_autoshare?: boolean;
}

/** `PATCH /api/components/<p>/<c>/`: any subset. */
export class ComponentUpdateDto extends PartialType(ComponentWriteDto) {}

/** `POST …/lock/` (weblate-api.md §6.11). */
export class ComponentLockRequestDto {
  @ApiProperty({ description: 'true/false (1/0 accepted)' }) lock: boolean;
}

export class ComponentLockResponse {
  @ApiProperty() locked: boolean;
}
