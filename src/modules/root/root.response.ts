import { ApiProperty } from '@nestjs/swagger';
import type { LinkBuilder } from '../../common/links/link-builder';

/**
 * `/api/`: each list route by name, in Weblate 4.x's registration order (weblate-api.md §5.1), limited to
 * the resources Glossa serves.
 */
export class ApiRootResponse {
  @ApiProperty() users: string;
  @ApiProperty() projects: string;
  @ApiProperty() components: string;
  @ApiProperty() translations: string;
  @ApiProperty() languages: string;
  @ApiProperty() changes: string;
  @ApiProperty() units: string;
}

export function toApiRootResponse(links: LinkBuilder): ApiRootResponse {
  return {
    users: links.api('/api/users/'),
    projects: links.api('/api/projects/'),
    components: links.api('/api/components/'),
    translations: links.api('/api/translations/'),
    languages: links.api('/api/languages/'),
    changes: links.api('/api/changes/'),
    units: links.api('/api/units/'),
  };
}
