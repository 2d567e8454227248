import { ApiProperty } from '@nestjs/swagger';
import type { LinkBuilder } from '../../common/links/link-builder';
import { pathOf } from '../../common/links/link-builder';
import { formatTimestamp } from '../../common/serialization/timestamp';

/** A comment on the wire (checks-suggestions-search.md §6.5, Weblate 5.12+), fields in Weblate's order. */
export class CommentResponse {
  @ApiProperty({ description: 'Markdown text' }) comment: string;
  @ApiProperty({ description: 'ISO 8601 UTC with microseconds' }) timestamp: string;
  @ApiProperty() id: number;
  @ApiProperty({ type: String, nullable: true, description: 'API URL of the author; null when no user is stored' }) user: string | null;
}

export interface CommentRow {
  id: number;
  unit_id: string;
  comment: string;
  timestamp: string;
  user_id: number | null;
  username: string | null;
  resolved: boolean;
}

export const COMMENT_SELECT = `
  SELECT cm.id, cm.unit_id, cm.comment, cm.timestamp, cm.user_id, us.username, cm.resolved
    FROM comments cm LEFT JOIN users us ON us.id = cm.user_id`;

export function toCommentResponse(row: CommentRow, links: LinkBuilder): CommentResponse {
  return {
    comment: row.comment,
    timestamp: formatTimestamp(row.timestamp)!,
    id: Number(row.id),
    user: row.username === null ? null : links.api(pathOf('api', 'users', row.username)),
  };
}
