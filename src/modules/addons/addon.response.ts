import { ApiProperty } from '@nestjs/swagger';
import type { LinkBuilder } from '../../common/links/link-builder';
import { pathOf } from '../../common/links/link-builder';
import { redactedWebhookConfiguration, WEBHOOK_ADDON, type WebhookConfiguration } from './webhook-configuration';

/**
 * An add-on on the wire, in Weblate 5.x's shape (weblate-api.md §6.14, integration.md §3.2): `component` and
 * `project` (one of them a URL, the other null), `name`, `id`, `configuration`, `url`. 4.x had no `project`;
 * 5.x added it with project-wide add-ons, which Glossa has, so the 5.x shape is the one that can say where a
 * project add-on is installed. Secrets in the configuration are redacted.
 */
export class AddonResponse {
  @ApiProperty({ type: String, nullable: true, description: 'The component of a component add-on; null for a project add-on' })
  component: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'The project of a project-wide add-on; null for a component add-on' })
  project: string | null;
  @ApiProperty({ example: WEBHOOK_ADDON }) name: string;
  @ApiProperty() id: number;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: 'For `weblate.webhook.webhook`: `webhook_url`, `secret` (redacted: prefix, 4 characters, `***`) and `events` (action codes as strings)',
  })
  configuration: Record<string, unknown>;
  @ApiProperty() url: string;
}

/** An add-on row with the slugs its links need. */
export interface AddonRow {
  id: number;
  name: string;
  configuration: Record<string, unknown>;
  project_slug: string;
  /** Null for a project add-on. */
  component_slug: string | null;
}

export function toAddonResponse(row: AddonRow, links: LinkBuilder): AddonResponse {
  const configuration =
    row.name === WEBHOOK_ADDON ? { ...redactedWebhookConfiguration(row.configuration as unknown as WebhookConfiguration) } : row.configuration;
  return {
    component: row.component_slug === null ? null : links.api(pathOf('api', 'components', row.project_slug, row.component_slug)),
    project: row.component_slug === null ? links.api(pathOf('api', 'projects', row.project_slug)) : null,
    name: row.name,
    id: row.id,
    configuration,
    url: links.api(pathOf('api', 'addons', String(row.id))),
  };
}
