import * as http from 'node:http';
import * as https from 'node:https';
import type { LookupFunction } from 'node:net';
import { GLOSSA_VERSION } from '../../common/app-version';
import { checkedHostAddresses, HostRefusedError, type HostLookup, type HostPolicy } from '../../common/net/host-policy';
import { formatAddress, type ParsedAddress } from '../../common/net/network-address';
import { PRIVATE_TARGET_MESSAGE, webhookHost } from './webhook-configuration';

// One POST of a webhook (Standard Webhooks operations, integration.md §2.4): the target host is checked again
// right before connecting (DNS may have changed since the URL was saved) and the connection goes to the
// checked address (the client's lookup answers with it), so a rebinding DNS cannot switch it; redirects are
// not followed (a 3xx is a failed attempt); one deadline covers connecting, sending and the answer; only the
// first bytes of the answer are read, for the log.

export const USER_AGENT = `Glossa/${GLOSSA_VERSION} (webhook; +https://standardwebhooks.com)`;
/** How much of a response body the log keeps. */
export const RESPONSE_EXCERPT_BYTES = 4096;

export interface WebhookAnswer {
  status: number;
  /** The first bytes of the body (UTF-8, replacement characters for a cut sequence). */
  excerpt: string;
  /** The Retry-After header, if any. */
  retryAfter: string | undefined;
}

export interface WebhookPostOptions {
  timeoutMs: number;
  policy: HostPolicy;
  lookup?: HostLookup;
}

/** Thrown for an attempt that got no HTTP answer (refused host, connection error, timeout); the message is for the log. */
export class WebhookTransportError extends Error {}

export async function postWebhook(url: string, headers: Record<string, string>, body: Buffer, options: WebhookPostOptions): Promise<WebhookAnswer> {
  const target = new URL(url);
  if (target.protocol !== 'http:' && target.protocol !== 'https:') throw new WebhookTransportError('Only http and https URLs are allowed.');
  let addresses: ParsedAddress[] | null;
  try {
    addresses = await checkedHostAddresses(webhookHost(target), options.policy, { lookup: options.lookup, unresolved: 'refuse' });
  } catch (error) {
    if (error instanceof HostRefusedError) {
      throw new WebhookTransportError(error.reason === 'non-public' ? PRIVATE_TARGET_MESSAGE : 'The host name could not be resolved.');
    }
    throw error;
  }
  const client = target.protocol === 'https:' ? https : http;
  const lookup = addresses && addresses.length > 0 ? pinnedLookup(addresses) : undefined;
  return new Promise<WebhookAnswer>((resolve, reject) => {
    let settled = false;
    const finish = (error: Error | null, answer?: WebhookAnswer): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (error) reject(error instanceof WebhookTransportError ? error : new WebhookTransportError(error.message));
      else resolve(answer!);
    };
    const request = client.request(
      target,
      {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json', 'content-length': String(body.length), 'user-agent': USER_AGENT },
        lookup,
        // No connection reuse: each attempt connects to the address just checked.
        agent: false,
      },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        const done = (): void => {
          // PostgreSQL text holds no NUL character; a receiver's binary answer must not make the log write fail.
          const excerpt = Buffer.concat(chunks).subarray(0, RESPONSE_EXCERPT_BYTES).toString('utf8').replaceAll('\u0000', '\ufffd');
          const retryAfter = response.headers['retry-after'];
          finish(null, { status: response.statusCode ?? 0, excerpt, retryAfter: Array.isArray(retryAfter) ? retryAfter[0] : retryAfter });
          response.destroy();
        };
        response.on('data', (chunk: Buffer) => {
          chunks.push(chunk);
          size += chunk.length;
          if (size >= RESPONSE_EXCERPT_BYTES) done();
        });
        response.on('end', done);
        response.on('error', (error) => finish(error));
      },
    );
    const timer = setTimeout(() => {
      const error = new WebhookTransportError(`No answer within ${Math.round(options.timeoutMs / 1000)} s.`);
      finish(error);
      request.destroy(error);
    }, options.timeoutMs);
    request.on('error', (error) => finish(error));
    request.end(body);
  });
}

/** A lookup that answers with the checked addresses, whatever DNS would say now. */
function pinnedLookup(addresses: readonly ParsedAddress[]): LookupFunction {
  const answers = addresses.map((address) => ({ address: formatAddress(address).replace(/^\[|\]$/g, ''), family: address.version }));
  return ((_hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, answers);
    else callback(null, answers[0].address, answers[0].family);
  }) as LookupFunction;
}
