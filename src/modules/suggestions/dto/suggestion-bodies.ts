import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ApiValidationError } from '../../../common/http/api-errors';
import { bodyFieldValue, convertDrfValue, drfFieldError, type DrfRule } from '../../../common/http/drf-fields';
import { holdsNul, NULL_CHARACTERS_MESSAGE } from '../../../common/http/validation';

// Request bodies of the suggestion routes (checks-suggestions-search.md §5.9), read as DRF serializers read
// them: unknown keys are ignored, each field gets one message in DRF's wording.

/** POST /api/units/{id}/suggestions/. */
export class NewSuggestionBody {
  @ApiProperty({ type: [String], description: 'Suggested text, one element per plural form' }) target: string[];
}

/** POST /api/suggestions/{id}/accept/. */
export class AcceptSuggestionBody {
  @ApiPropertyOptional({ description: 'Store the translation as approved (needs unit.review and a review workflow)', default: false }) approve?: boolean;
}

/** POST /api/suggestions/{id}/vote/. */
export class VoteSuggestionBody {
  @ApiProperty({ enum: [1, -1] }) value: number;
}

/** DELETE /api/suggestions/{id}/ (optional body). */
export class DeleteSuggestionBody {
  @ApiPropertyOptional({ description: 'Why the suggestion was rejected (kept in the change record)' }) rejection_reason?: string;
  @ApiPropertyOptional({ default: false }) is_spam?: boolean;
}

function asObject(body: unknown, optional: boolean): Record<string, unknown> {
  if (optional && (body === undefined || body === null || (typeof body === 'object' && Object.keys(body).length === 0))) return {};
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    const type = Array.isArray(body) ? 'list' : typeof body === 'string' ? 'str' : typeof body;
    throw new ApiValidationError({ non_field_errors: [`Invalid data. Expected a dictionary, but got ${type}.`] });
  }
  return body as Record<string, unknown>;
}

/** Reads the fields of `rules` from `body`; 400 with every field's first error, as a serializer answers. */
function readFields(body: unknown, rules: Record<string, DrfRule>, optionalBody = false): Record<string, unknown> {
  const data = asObject(body, optionalBody);
  const errors: Record<string, string[]> = {};
  const values: Record<string, unknown> = {};
  for (const [name, rule] of Object.entries(rules)) {
    // A form body is read as DRF's get_value reads a QueryDict (a list field takes every value of its key).
    const value = convertDrfValue(rule, bodyFieldValue(data, name, rule));
    const error = drfFieldError(rule, value) ?? (holdsNul(value) ? NULL_CHARACTERS_MESSAGE : null);
    if (error !== null) errors[name] = [error];
    else values[name] = value;
  }
  if (Object.keys(errors).length > 0) throw new ApiValidationError(errors);
  return values;
}

/** The suggested forms; their number and length are checked against the unit by the service. */
export function parseNewSuggestion(body: unknown): string[] {
  const { target } = readFields(body, { target: { type: 'list', required: true, child: { type: 'string', allowBlank: true }, maxItems: 10 } });
  return target as string[];
}

export function parseAcceptSuggestion(body: unknown): { approve: boolean } {
  const { approve } = readFields(body, { approve: { type: 'boolean' } }, true);
  return { approve: approve === true };
}

export function parseVote(body: unknown): number {
  const { value } = readFields(body, { value: { type: 'choice', required: true, choices: [1, -1] } });
  return value as number;
}

export function parseDeleteSuggestion(body: unknown): { rejectionReason: string; isSpam: boolean } {
  const values = readFields(body, { rejection_reason: { type: 'string', allowBlank: true, maxLength: 2000 }, is_spam: { type: 'boolean' } }, true);
  return { rejectionReason: (values.rejection_reason as string | undefined) ?? '', isSpam: values.is_spam === true };
}
