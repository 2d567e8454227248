import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ApiValidationError } from '../../../common/http/api-errors';
import { bodyFieldValue, convertDrfValue, drfFieldError, type DrfRule } from '../../../common/http/drf-fields';
import { LABEL_COLORS } from '../label-colors';

/** POST `/api/projects/{slug}/labels/` (weblate-api.md §5: `name`, `color`, `description`). */
export class LabelCreateBody {
  @ApiProperty({ maxLength: 190 }) name: string;
  @ApiProperty({ enum: LABEL_COLORS }) color: string;
  @ApiPropertyOptional({ default: '' }) description?: string;
}

export interface NewLabel {
  name: string;
  color: string;
  description: string;
}

// Weblate's Label model: name CharField(max_length=190), color a required choice of §8.11, description blank
// allowed. The description has no length limit in Glossa's table; 10,000 keeps a body bounded like q's limit.
const RULES: Record<keyof NewLabel, DrfRule> = {
  name: { type: 'string', required: true, maxLength: 190 },
  color: { type: 'choice', required: true, choices: LABEL_COLORS },
  description: { type: 'string', allowBlank: true, maxLength: 10_000 },
};

export function parseNewLabel(body: unknown): NewLabel {
  const errors: Record<string, string[]> = {};
  const values: Record<string, unknown> = {};
  for (const [key, rule] of Object.entries(RULES)) {
    const value = convertDrfValue(rule, bodyFieldValue(body, key, rule));
    const error = drfFieldError(rule, value);
    if (error !== null) errors[key] = [error];
    values[key] = value;
  }
  if (Object.keys(errors).length > 0) throw new ApiValidationError(errors);
  return { name: (values.name as string).trim(), color: values.color as string, description: (values.description as string | undefined) ?? '' };
}
