import { checkedHostAddresses, HOST_NAME, HostRefusedError, type HostLookup, type HostPolicy } from '../../common/net/host-policy';
import { parseAddress } from '../../common/net/network-address';
import { isKnownAction } from '../changes/change-actions';
import { decodeWebhookSecret } from './webhook-signature';

// The configuration of Weblate's `weblate.webhook.webhook` add-on (integration.md §2.2): `webhook_url`,
// `secret` (optional) and `events` (action codes, stored as strings as Weblate stores them). Keys the form
// does not know are dropped, as a Django form ignores them. Validation answers the first problem only, in
// the words `Error in <field>: <message>` of Weblate 4.x's add-on serializer (§3.2).

export const WEBHOOK_ADDON = 'weblate.webhook.webhook';

export interface WebhookConfiguration {
  webhook_url: string;
  secret: string;
  events: string[];
}

/** Longest webhook URL accepted (a bound on what a caller can make the server store and send to). */
const MAX_URL_LENGTH = 2048;
const REDACTED = '***';

/** Thrown with the message for `{"configuration": ["Error in <field>: <message>"]}`. */
export class WebhookConfigurationError extends Error {
  constructor(
    readonly field: keyof WebhookConfiguration | 'configuration',
    message: string,
  ) {
    super(message);
  }

  get text(): string {
    return this.field === 'configuration' ? this.message : `Error in ${this.field}: ${this.message}`;
  }
}

/**
 * The secret as readers see it: its `whsec_` prefix and first four characters, then `***`, enough to tell
 * which secret is set without showing it (like repository URL credentials, issue 10 item 10). No secret
 * shows as an empty string.
 */
export function redactWebhookSecret(secret: string): string {
  if (secret === '') return '';
  const prefix = secret.startsWith('whsec_') ? 'whsec_' : '';
  return `${prefix}${secret.slice(prefix.length, prefix.length + 4)}${REDACTED}`;
}

/** Whether a submitted secret is the redacted form of the stored one (a GET body sent back with PUT): unchanged. */
export function isRedactedSecretOf(submitted: string, stored: string): boolean {
  return stored !== '' && submitted !== stored && redactWebhookSecret(stored) === submitted;
}

/** The configuration readers see. */
export function redactedWebhookConfiguration(configuration: WebhookConfiguration): WebhookConfiguration {
  return { webhook_url: configuration.webhook_url, secret: redactWebhookSecret(configuration.secret), events: configuration.events };
}

/**
 * Checks `raw` and returns the configuration to store; `stored` is the current one on updates (a redacted
 * secret sent back keeps it). Throws {@link WebhookConfigurationError}. The target host is checked by
 * {@link checkWebhookTarget}, which needs the network.
 */
export function parseWebhookConfiguration(raw: unknown, stored?: WebhookConfiguration): WebhookConfiguration {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    throw new WebhookConfigurationError('configuration', 'Expected a dictionary of items.');
  }
  const input = raw as Record<string, unknown>;
  const url = parseWebhookUrl(input.webhook_url);
  let secret = '';
  if (input.secret !== undefined && input.secret !== null && input.secret !== '') {
    if (typeof input.secret !== 'string') throw new WebhookConfigurationError('secret', 'Enter a valid value.');
    if (stored && isRedactedSecretOf(input.secret, stored.secret)) {
      secret = stored.secret;
    } else {
      const decoded = decodeWebhookSecret(input.secret);
      if ('problem' in decoded) throw new WebhookConfigurationError('secret', decoded.problem);
      secret = input.secret;
    }
  }
  return { webhook_url: url.href, secret, events: parseEvents(input.events) };
}

function parseWebhookUrl(value: unknown): URL {
  if (value === undefined || value === null || value === '') throw new WebhookConfigurationError('webhook_url', 'This field is required.');
  if (typeof value !== 'string' || value.length > MAX_URL_LENGTH) throw new WebhookConfigurationError('webhook_url', 'Enter a valid URL.');
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new WebhookConfigurationError('webhook_url', 'Enter a valid URL.');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new WebhookConfigurationError('webhook_url', 'Only http and https URLs are allowed.');
  // Credentials would be shown to every reader of the add-on; a secret belongs in `secret`.
  if (url.username !== '' || url.password !== '') throw new WebhookConfigurationError('webhook_url', 'The URL must not contain credentials.');
  const host = webhookHost(url);
  if (parseAddress(host) === null && !HOST_NAME.test(host)) throw new WebhookConfigurationError('webhook_url', 'Enter a valid URL.');
  return url;
}

/** The host a webhook URL connects to, as the HTTP client sees it (IPv6 without brackets). */
export function webhookHost(url: URL): string {
  return url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
}

function parseEvents(value: unknown): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw new WebhookConfigurationError('events', 'Enter a list of values.');
  const events: string[] = [];
  for (const item of value) {
    const code = typeof item === 'number' ? item : typeof item === 'string' && /^\d{1,3}$/.test(item) ? Number(item) : NaN;
    if (!Number.isInteger(code) || !isKnownAction(code)) {
      throw new WebhookConfigurationError('events', `Select a valid choice. ${String(item)} is not one of the available choices.`);
    }
    if (!events.includes(String(code))) events.push(String(code));
  }
  return events;
}

/** Non-public targets are refused unless WEBHOOK_RESTRICT_PRIVATE / WEBHOOK_PRIVATE_ALLOWLIST allow them. */
export const PRIVATE_TARGET_MESSAGE =
  'The URL points to a private, loopback, link-local or otherwise non-public address, which this server does not send webhooks to (WEBHOOK_RESTRICT_PRIVATE).';

/**
 * Refuses a webhook URL whose host resolves to an address `policy` does not allow (throws
 * {@link WebhookConfigurationError}); a name that does not resolve yet is accepted and checked at delivery.
 */
export async function checkWebhookTarget(webhookUrl: string, policy: HostPolicy, lookup?: HostLookup): Promise<void> {
  try {
    await checkedHostAddresses(webhookHost(new URL(webhookUrl)), policy, { lookup, unresolved: 'accept' });
  } catch (error) {
    if (error instanceof HostRefusedError) throw new WebhookConfigurationError('webhook_url', PRIVATE_TARGET_MESSAGE);
    throw error;
  }
}
