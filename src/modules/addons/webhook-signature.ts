import { createHmac } from 'node:crypto';

// Standard Webhooks 1.0.0 signing (integration.md §2.2, §2.4), written here rather than taken from a library,
// as Weblate does since PR #17014: `webhook-signature: v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">`
// over the exact body bytes sent, keyed with the base64-decoded secret (without its `whsec_` prefix).

const PREFIX = 'whsec_';
/** Standard Webhooks: secrets are random 24–64 bytes (Weblate checks the same since PR #17014). */
export const SECRET_MIN_BYTES = 24;
export const SECRET_MAX_BYTES = 64;

/** The key bytes of a secret, or a reason it is not one (base64, optional `whsec_`, 24–64 bytes decoded). */
export function decodeWebhookSecret(secret: string): { key: Buffer } | { problem: string } {
  const encoded = secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret;
  // Strict standard base64 with padding: Buffer.from would skip stray characters silently.
  if (encoded.length === 0 || encoded.length % 4 !== 0 || !/^[A-Za-z0-9+/]+={0,2}$/.test(encoded)) {
    return { problem: 'The secret must be base64 encoded, optionally prefixed with "whsec_".' };
  }
  const key = Buffer.from(encoded, 'base64');
  if (key.length < SECRET_MIN_BYTES || key.length > SECRET_MAX_BYTES) {
    return { problem: `The secret must decode to ${SECRET_MIN_BYTES} to ${SECRET_MAX_BYTES} bytes, not ${key.length}.` };
  }
  return { key };
}

/**
 * The `webhook-signature` header value for one attempt. `timestamp` is whole Unix seconds, the same value as
 * the `webhook-timestamp` header (the spec's rule; integration.md §7 point 3).
 */
export function signWebhook(key: Buffer, webhookId: string, timestamp: number, body: Buffer): string {
  const mac = createHmac('sha256', key);
  mac.update(`${webhookId}.${timestamp}.`);
  mac.update(body);
  return `v1,${mac.digest('base64')}`;
}
