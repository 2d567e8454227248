import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Allow } from 'class-validator';
import { DrfField } from '../../../common/http/drf-fields';
import { NOTIFICATION_FREQUENCIES, NOTIFICATION_KINDS, NOTIFICATION_SCOPES } from '../notification-kinds';

/** Read-only subscription fields a client may echo back (`project`/`component` cannot be set, §6.8). */
class SubscriptionReadOnlyFields {
  @Allow() id?: unknown;
  @Allow() project?: unknown;
  @Allow() component?: unknown;
}

/** `POST /api/users/<username>/notifications/` and PUT of one subscription (weblate-api.md §10.12). */
export class CreateSubscriptionDto extends SubscriptionReadOnlyFields {
  @ApiProperty({ enum: NOTIFICATION_KINDS })
  @DrfField({ type: 'choice', required: true, choices: NOTIFICATION_KINDS })
  notification: string;

  @ApiProperty({ enum: NOTIFICATION_SCOPES, description: '0 all, 10 watched, 20 administered, 30 project, 40 component' })
  @DrfField({ type: 'choice', required: true, choices: NOTIFICATION_SCOPES })
  scope: number;

  @ApiProperty({ enum: NOTIFICATION_FREQUENCIES, description: '0 none, 1 instant, 2 daily, 3 weekly, 4 monthly' })
  @DrfField({ type: 'choice', required: true, choices: NOTIFICATION_FREQUENCIES })
  frequency: number;
}

/** PATCH of one subscription: any subset. */
export class UpdateSubscriptionDto extends SubscriptionReadOnlyFields {
  @ApiPropertyOptional({ enum: NOTIFICATION_KINDS })
  @DrfField({ type: 'choice', choices: NOTIFICATION_KINDS })
  notification?: string;

  @ApiPropertyOptional({ enum: NOTIFICATION_SCOPES })
  @DrfField({ type: 'choice', choices: NOTIFICATION_SCOPES })
  scope?: number;

  @ApiPropertyOptional({ enum: NOTIFICATION_FREQUENCIES })
  @DrfField({ type: 'choice', choices: NOTIFICATION_FREQUENCIES })
  frequency?: number;
}
