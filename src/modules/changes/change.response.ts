import { ApiProperty } from '@nestjs/swagger';
import type { LinkBuilder } from '../../common/links/link-builder';
import { pathOf } from '../../common/links/link-builder';
import { formatTimestamp } from '../../common/serialization/timestamp';
import { actionName } from './change-actions';

/** A change on the wire, fields in the spec's order (api-spec.md "Change"; the spec's order wins over §6.6). */
export class ChangeResponse {
  @ApiProperty() id: number;
  @ApiProperty({ type: String, nullable: true, description: 'Null for changes that concern no single unit' }) unit: string | null;
  @ApiProperty({ type: String, nullable: true }) component: string | null;
  @ApiProperty({ type: String, nullable: true }) translation: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'Acting user; null for system events' }) user: string | null;
  @ApiProperty({ type: String, nullable: true }) author: string | null;
  @ApiProperty({ description: 'ISO 8601 UTC with microseconds' }) timestamp: string;
  @ApiProperty({ description: 'Action code (weblate-api.md §8.1)' }) action: number;
  @ApiProperty() action_name: string;
  @ApiProperty() target: string;
  @ApiProperty() url: string;
}

/** One row of the changes query (changes.sql.ts); every reference resolved by a join, never per item. */
export interface ChangeRow {
  id: string;
  action: number;
  timestamp: string;
  target: string;
  unit_id: string | null;
  component_project_slug: string | null;
  component_slug: string | null;
  translation_project_slug: string | null;
  translation_component_slug: string | null;
  translation_language_code: string | null;
  user_username: string | null;
  author_username: string | null;
}

export function toChangeResponse(row: ChangeRow, links: LinkBuilder): ChangeResponse {
  const userLink = (username: string | null) => (username === null ? null : links.api(pathOf('api', 'users', username)));
  const translation =
    row.translation_project_slug !== null && row.translation_component_slug !== null && row.translation_language_code !== null
      ? links.api(pathOf('api', 'translations', row.translation_project_slug, row.translation_component_slug, row.translation_language_code))
      : null;
  const component =
    row.component_project_slug !== null && row.component_slug !== null
      ? links.api(pathOf('api', 'components', row.component_project_slug, row.component_slug))
      : null;
  return {
    id: Number(row.id),
    unit: row.unit_id === null ? null : links.api(pathOf('api', 'units', row.unit_id)),
    component,
    translation,
    user: userLink(row.user_username),
    author: userLink(row.author_username),
    timestamp: formatTimestamp(row.timestamp)!,
    action: row.action,
    action_name: actionName(row.action),
    target: row.target,
    url: links.api(pathOf('api', 'changes', row.id)),
  };
}
