import type { LinkBuilder } from '../../common/links/link-builder';
import type { SuggestionOutcome } from './suggestions.service';
import { type SuggestionVoteResponse, toSuggestionResponse } from './suggestion.response';

/** `{"result": "voted", "suggestion": {…}}` or `{"result": "accepted", "suggestion": null}` (§5.9). */
export function toVoteResponse(outcome: SuggestionOutcome, links: LinkBuilder): SuggestionVoteResponse {
  if (outcome.result === 'accepted') return { result: 'accepted', suggestion: null };
  return { result: 'voted', suggestion: toSuggestionResponse(outcome.row, links) };
}
