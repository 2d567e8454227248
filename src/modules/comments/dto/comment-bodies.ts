import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ApiValidationError } from '../../../common/http/api-errors';
import { checkEmail, convertDrfValue, drfFieldError, type DrfRule } from '../../../common/http/drf-fields';

/** Comment scopes (checks-suggestions-search.md §6.2). */
export const COMMENT_SCOPES = ['report', 'global', 'translation'] as const;
export type CommentScope = (typeof COMMENT_SCOPES)[number];

/** POST /api/units/{id}/comments/ (Weblate's CommentSerializer, §6.5). */
export class NewCommentBody {
  @ApiProperty({ enum: COMMENT_SCOPES, description: 'translation: this language only; global: every language (stored on the source unit); report: a source string issue' })
  scope: CommentScope;
  @ApiProperty({ maxLength: 1000, description: 'Markdown text' }) comment: string;
  @ApiPropertyOptional({ format: 'date-time', description: 'Only project admins (project.edit)' }) timestamp?: string;
  @ApiPropertyOptional({ format: 'email', description: 'Attribute the comment to this user; only project admins (project.edit)' }) user_email?: string;
}

export interface NewComment {
  scope: CommentScope;
  comment: string;
  timestamp?: string;
  userEmail?: string;
}

// DRF's DateTimeField input: ISO 8601 with an optional zone (a naive time is taken as UTC, Weblate's TIME_ZONE).
const ISO_DATETIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:?\d{2})?$/;
const DATETIME_MESSAGE = 'Datetime has wrong format. Use one of these formats instead: YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z].';

function checkDatetime(value: string): string | null {
  if (!ISO_DATETIME.test(value)) return DATETIME_MESSAGE;
  const zoned = /(Z|[+-]\d{2}:?\d{2})$/.test(value) ? value : `${value}Z`;
  return Number.isNaN(Date.parse(zoned.replace(' ', 'T'))) ? DATETIME_MESSAGE : null;
}

const RULES: Record<string, DrfRule> = {
  scope: { type: 'choice', required: true, choices: COMMENT_SCOPES },
  comment: { type: 'string', required: true, maxLength: 1000 },
  timestamp: { type: 'string', check: checkDatetime },
  user_email: { type: 'string', maxLength: 254, check: checkEmail },
};

/** The body with DRF's messages, one per field, every field reported at once. */
export function parseNewComment(body: unknown): NewComment {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    const type = Array.isArray(body) ? 'list' : typeof body === 'string' ? 'str' : typeof body;
    throw new ApiValidationError({ non_field_errors: [`Invalid data. Expected a dictionary, but got ${type}.`] });
  }
  const data = body as Record<string, unknown>;
  const errors: Record<string, string[]> = {};
  const values: Record<string, unknown> = {};
  for (const [name, rule] of Object.entries(RULES)) {
    const value = convertDrfValue(rule, data[name]);
    const error = drfFieldError(rule, value);
    if (error !== null) errors[name] = [error];
    else values[name] = value;
  }
  if (Object.keys(errors).length > 0) throw new ApiValidationError(errors);
  return {
    scope: values.scope as CommentScope,
    comment: values.comment as string,
    ...(values.timestamp !== undefined ? { timestamp: values.timestamp as string } : {}),
    ...(values.user_email !== undefined ? { userEmail: values.user_email as string } : {}),
  };
}
