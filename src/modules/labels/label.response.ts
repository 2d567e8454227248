import { ApiProperty } from '@nestjs/swagger';
import { LABEL_COLORS } from './label-colors';

/** A label on the wire (weblate-api.md §6 "Label", 5.3+): `id`, `name`, `description`, `color`. */
export class LabelResponse {
  @ApiProperty() id: number;
  @ApiProperty({ maxLength: 190 }) name: string;
  @ApiProperty() description: string;
  @ApiProperty({ enum: LABEL_COLORS, description: 'weblate-api.md §8.11' }) color: string;
}

export interface LabelRow {
  id: number;
  name: string;
  description: string;
  color: string;
}

export const LABEL_COLUMNS = 'lb.id, lb.name, lb.description, lb.color';

export function toLabelResponse(row: LabelRow): LabelResponse {
  return { id: row.id, name: row.name, description: row.description, color: row.color };
}
