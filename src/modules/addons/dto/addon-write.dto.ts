import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** Configuration of `weblate.webhook.webhook` (integration.md §2.2); the OpenAPI description only: the service validates. */
export class WebhookConfigurationDto {
  @ApiProperty({ description: 'http(s) URL the changes are POSTed to; non-public hosts are refused unless WEBHOOK_RESTRICT_PRIVATE allows them' })
  webhook_url: string;
  @ApiPropertyOptional({
    description: 'Standard Webhooks secret: base64 of 24–64 bytes, optionally prefixed with `whsec_`. Sending back the redacted form keeps the stored secret',
  })
  secret?: string;
  @ApiPropertyOptional({ type: [String], description: 'Change action codes to send (numbers or numeric strings); empty sends nothing' })
  events?: string[];
}

/** `POST …/addons/`: install an add-on. */
export class AddonCreateDto {
  @ApiProperty({ example: 'weblate.webhook.webhook', description: 'Add-on id; Glossa has `weblate.webhook.webhook`' })
  name: string;
  @ApiPropertyOptional({ type: WebhookConfigurationDto })
  configuration?: WebhookConfigurationDto;
}

/** `PUT`/`PATCH /api/addons/<id>/`: the name may be sent but not changed. */
export class AddonUpdateDto {
  @ApiPropertyOptional({ description: 'Must equal the installed add-on’s name' })
  name?: string;
  @ApiPropertyOptional({ type: WebhookConfigurationDto, description: 'PUT replaces the configuration; PATCH lays the keys sent over the stored ones' })
  configuration?: WebhookConfigurationDto;
}
