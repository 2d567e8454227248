import { ApiProperty } from '@nestjs/swagger';
import { describeCheck } from '../../checks/check-list';

/** A failing or dismissed check of a unit (Glossa's extension `GET /api/units/<id>/checks/`). */
export class UnitCheckResponse {
  @ApiProperty({ description: "Weblate's check id, as in `check:<id>` searches and `ignore-<id>` flags (underscores become dashes there)", example: 'end_stop' })
  id: string;

  @ApiProperty({ description: 'Human-readable name of the check', example: 'Mismatched full stop' })
  name: string;

  @ApiProperty({ description: 'One-line description of what the check looks for' })
  description: string;

  @ApiProperty({ description: 'Dismissed checks no longer count as failing (has_failing_check, statistics)' })
  dismissed: boolean;
}

export interface CheckRow {
  name: string;
  dismissed: boolean;
}

export function toUnitCheckResponse(row: CheckRow): UnitCheckResponse {
  const check = describeCheck(row.name);
  return {
    id: row.name,
    name: check.name,
    description: check.description,
    dismissed: row.dismissed,
  };
}
