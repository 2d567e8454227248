import { ApiProperty } from '@nestjs/swagger';
import type { LinkBuilder } from '../../common/links/link-builder';
import { ComponentResponse, toComponentResponse } from '../components/component.response';
import { ProjectResponse, toProjectResponse } from '../projects/project.response';
import type { Subscription } from './subscription.entity';

/**
 * A notification subscription in the spec's field order (api-spec.md "Notification subscription"; Weblate
 * itself puts `notification` first, weblate-api.md §6.8, but the spec's order is binding).
 */
export class SubscriptionResponse {
  @ApiProperty() id: number;
  @ApiProperty({ description: 'Notification kind (weblate-api.md §8.4)', example: 'NewStringNotificaton' }) notification: string;
  @ApiProperty({ description: '0 all, 10 watched, 20 administered, 30 project, 40 component' }) scope: number;
  @ApiProperty({ description: '0 none, 1 instant, 2 daily, 3 weekly, 4 monthly' }) frequency: number;
  @ApiProperty({ type: ProjectResponse, nullable: true }) project: ProjectResponse | null;
  @ApiProperty({ type: ComponentResponse, nullable: true }) component: ComponentResponse | null;
}

/** `subscription` must have `project` and `component` (with its project and source language) loaded. */
export function toSubscriptionResponse(subscription: Subscription, links: LinkBuilder): SubscriptionResponse {
  return {
    id: subscription.id,
    notification: subscription.notification,
    scope: subscription.scope,
    frequency: subscription.frequency,
    project: subscription.project ? toProjectResponse(subscription.project, links) : null,
    component: subscription.component ? toComponentResponse(subscription.component, links) : null,
  };
}
