import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { LinkBuilder } from '../../common/links/link-builder';
import { pathOf } from '../../common/links/link-builder';
import { formatTimestamp } from '../../common/serialization/timestamp';
import { splitPlurals } from '../units/unit.response';

/** A suggestion on the wire (checks-suggestions-search.md §5.9, Weblate 2026.8), fields in Weblate's order. */
export class SuggestionResponse {
  @ApiProperty() id: number;
  @ApiProperty({ description: 'API URL of the unit' }) unit: string;
  @ApiProperty({ type: [String], description: 'One element per plural form' }) target: string[];
  @ApiProperty({ type: String, nullable: true, description: 'API URL of the author; null when no user is stored' }) user: string | null;
  @ApiProperty({ description: 'ISO 8601 UTC with microseconds' }) timestamp: string;
  @ApiProperty({ description: 'Net sum of the votes (+1/−1 each)' }) votes: number;
}

/** POST /api/suggestions/{id}/accept/ (§5.9). */
export class SuggestionAcceptResponse {
  @ApiProperty({ enum: ['accepted'] }) result: string;
}

/** POST …/vote/, and POST /api/units/{id}/suggestions/ when it voted or auto-accepted instead of creating (§5.9). */
export class SuggestionVoteResponse {
  @ApiProperty({ enum: ['voted', 'accepted'] }) result: string;
  @ApiPropertyOptional({ type: SuggestionResponse, nullable: true, description: 'null when the vote accepted it' }) suggestion: SuggestionResponse | null;
}

/** One row of SUGGESTION_SELECT. */
export interface SuggestionRow {
  id: number;
  unit_id: string;
  target: string;
  username: string | null;
  timestamp: string;
  votes: number;
}

/** Suggestions with their author's username and vote sum, one query for a whole page. */
export const SUGGESTION_SELECT = `
  SELECT s.id, s.unit_id, s.target, us.username, s.timestamp,
         COALESCE((SELECT sum(v.value) FROM suggestion_votes v WHERE v.suggestion_id = s.id), 0)::int AS votes
    FROM suggestions s LEFT JOIN users us ON us.id = s.user_id`;

export function toSuggestionResponse(row: SuggestionRow, links: LinkBuilder): SuggestionResponse {
  return {
    id: Number(row.id),
    unit: links.api(pathOf('api', 'units', row.unit_id)),
    target: splitPlurals(row.target),
    user: row.username === null ? null : links.api(pathOf('api', 'users', row.username)),
    timestamp: formatTimestamp(row.timestamp)!,
    votes: Number(row.votes),
  };
}
