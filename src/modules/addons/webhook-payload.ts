import { hashToChecksum } from '../../common/hashing/weblate-hash';
import { pathOf } from '../../common/links/link-builder';
import { formatTimestamp } from '../../common/serialization/timestamp';
import { PLURAL_SEPARATOR } from '../../formats/store';
import { actionName } from '../changes/change-actions';

// The JSON document Weblate's webhook add-on sends for a change (integration.md §2.2, the fields of
// `weblate-messaging.schema.json`): `change_id`, `action` (the label), `timestamp` (ISO 8601 with an
// offset), `target`/`old`/`source` as arrays of plural forms, `url` (site-relative, as get_absolute_url
// gives it), `author`, `user`, `project`, `component`, `translation` (the language code). A field is left
// out when its value is empty, as Weblate does. Serialised compactly; the signature covers those bytes.

/** What the payload is made of, read with one query (webhook-sender.ts). */
export interface WebhookChangeRow {
  id: string;
  action: number;
  timestamp: string;
  target: string;
  old: string;
  source: string | null;
  id_hash: string | null;
  user: string | null;
  author: string | null;
  project: string | null;
  component: string | null;
  translation: string | null;
}

export type WebhookPayload = Record<string, string | number | string[]>;

export function webhookPayload(row: WebhookChangeRow): WebhookPayload {
  const payload: WebhookPayload = {
    change_id: Number(row.id),
    action: actionName(row.action),
    // Weblate writes Python's isoformat(): `+00:00`, not `Z`.
    timestamp: formatTimestamp(row.timestamp)!.replace(/Z$/, '+00:00'),
  };
  const forms = (text: string | null): string[] => (text ? text.split(PLURAL_SEPARATOR) : []);
  const put = (key: string, value: string | string[] | null): void => {
    if (value !== null && value.length > 0) payload[key] = value;
  };
  put('target', forms(row.target));
  put('old', forms(row.old));
  put('source', forms(row.source));
  put('url', changeUrl(row));
  put('author', row.author);
  put('user', row.user);
  put('project', row.project);
  put('component', row.component);
  put('translation', row.translation);
  return payload;
}

/** Weblate's Change.get_absolute_url: the string's translate page, else the translation, component or project page. */
function changeUrl(row: WebhookChangeRow): string | null {
  if (row.project === null) return null;
  if (row.component === null) return pathOf('projects', row.project);
  if (row.translation === null) return pathOf('projects', row.project, row.component);
  if (row.id_hash !== null) return `${pathOf('translate', row.project, row.component, row.translation)}?checksum=${hashToChecksum(BigInt(row.id_hash))}`;
  return pathOf('projects', row.project, row.component, row.translation);
}

/** The body bytes: compact JSON, UTF-8. */
export function webhookBody(payload: WebhookPayload): Buffer {
  return Buffer.from(JSON.stringify(payload), 'utf8');
}
