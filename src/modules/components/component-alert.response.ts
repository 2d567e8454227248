import { ApiProperty } from '@nestjs/swagger';
import { formatTimestamp } from '../../common/serialization/timestamp';

/**
 * A component alert on the wire (Glossa extension: Weblate 4.18 shows alerts only in its web UI). Fields as
 * Weblate's Alert model words them: `name` (the alert class, e.g. `ParseError`), `details` (the alert's
 * data) and `timestamp` (when it was raised), plus `updated` (when it was last seen).
 */
export class ComponentAlertResponse {
  @ApiProperty({ description: 'Weblate alert name, e.g. `ParseError`' }) name: string;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description:
      'For ParseError: `{"occurrences": [{"filename", "line", "error"}]}`; `line` is null when the problem is not at a line. ' +
      'For DuplicateString: `{"occurrences": [{"language_code", "source", "unit_pk", "filename", "context"}]}`, the kept unit\'s source and id (`""`/null when the context does not name one unit)',
  })
  details: Record<string, unknown>;
  @ApiProperty({ description: 'ISO 8601 UTC with microseconds: when the alert was raised' }) timestamp: string;
  @ApiProperty({ description: 'ISO 8601 UTC with microseconds: when the problem was last seen' }) updated: string;
}

export interface ComponentAlertRow {
  name: string;
  details: Record<string, unknown>;
  timestamp: string;
  updated: string;
}

export function toComponentAlertResponse(row: ComponentAlertRow): ComponentAlertResponse {
  return {
    name: row.name,
    details: row.details,
    timestamp: formatTimestamp(row.timestamp)!,
    updated: formatTimestamp(row.updated)!,
  };
}
