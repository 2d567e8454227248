import { ApiProperty } from '@nestjs/swagger';
import { entityTag } from '../../common/http/preconditions';
import type { LinkBuilder } from '../../common/links/link-builder';
import { RawJson, serializeJson } from '../../common/serialization/json-writer';

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

/** `/api/`'s body as sent, and its entity tag (the hash send-json.ts would take of the same bytes). */
export interface RootAnswer {
  json: RawJson;
  etag: string;
}

/** Link sets whose root answer is kept; the Host header picks the origin outside production, so it is bounded. */
const KEPT_ROOT_ANSWERS = 16;

/**
 * The root's answer depends on its links alone (origin and format), so its JSON text and tag are made once per
 * link set: the API root, the cheapest read, spent more on building, serializing and hashing its seven links
 * than on anything else of its own (docs/performance.md, "The API root, session 20"). A full map starts over.
 */
export class RootAnswers {
  private readonly kept = new Map<string, RootAnswer>();

  for(links: LinkBuilder): RootAnswer {
    const key = links.formatValue === null ? links.origin : `${links.origin}\0${links.formatValue}`;
    let answer = this.kept.get(key);
    if (answer === undefined) {
      const text = serializeJson(toApiRootResponse(links));
      answer = { json: new RawJson(text), etag: entityTag(text) };
      if (this.kept.size >= KEPT_ROOT_ANSWERS) this.kept.clear();
      this.kept.set(key, answer);
    }
    return answer;
  }
}
