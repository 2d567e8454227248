import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

// The hooks' bodies as Weblate 4.x writes them (integration.md §1.7: JsonResponse, keys in this order;
// the 201 and 202 bodies simply leave out what they do not have).

export class HookMatchStatus {
  @ApiProperty({ description: 'Components whose repository matched the notification' }) repository_matches: number;
  @ApiProperty({ description: 'Of those, components on the pushed branch' }) branch_matches: number;
  @ApiProperty({ description: 'Of those, components of projects with enable_hooks' }) enabled_hook_matches: number;
}

export class HookResponse {
  @ApiProperty({ enum: ['success', 'failure'] }) status: 'success' | 'failure';
  @ApiProperty({ example: 'Update triggered: acme/app' }) message: string;
  @ApiPropertyOptional({ type: HookMatchStatus }) match_status?: HookMatchStatus;
  @ApiPropertyOptional({
    type: [String],
    description: '`<project>/<component>` of the components updated; components of projects anonymous callers cannot see are counted in match_status but not named',
  })
  updated_components?: string[];
}

/** 200: updates queued. */
export function updateTriggered(match: HookMatchStatus, named: string[]): HookResponse {
  return {
    status: 'success',
    message: named.length > 0 ? `Update triggered: ${named.join(', ')}` : 'Update triggered',
    match_status: toMatchStatus(match),
    updated_components: named,
  };
}

/** 202: nothing matched, or only components of projects with hooks disabled. */
export function noMatch(match: HookMatchStatus): HookResponse {
  return { status: 'failure', message: 'No matching repositories found!', match_status: toMatchStatus(match) };
}

/** 201: a ping or an event that is not a push; 200 of the update hooks uses the same two keys. */
export function hookMessage(message: 'Hook working' | 'Update triggered'): HookResponse {
  return { status: 'success', message };
}

function toMatchStatus(match: HookMatchStatus): HookMatchStatus {
  return { repository_matches: match.repository_matches, branch_matches: match.branch_matches, enabled_hook_matches: match.enabled_hook_matches };
}
