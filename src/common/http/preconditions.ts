import { createHash, hash } from 'node:crypto';
import { KeyedMutex } from '../../vcs/repository-lock';
import { serializeJson } from '../serialization/json-writer';
import { ApiError } from './api-errors';

// Conditional requests (RFC 9110 §13, issue 5): every 200 GET carries an ETag, `If-None-Match` answers 304,
// and `If-Match` on unit and component writes answers 412 when the client's copy is stale. Peers do not
// offer this; it saves clients that poll (wlc, CI sync jobs) the transfer and the parsing.
//
// The validator is a strong hash of the exact bytes sent. It is computed from the body the response
// serializes anyway (SHA-1 of a 40 KB page costs ~0.05 ms against several ms for the request), so it is
// exact for every resource without each one declaring a version: the same bytes always give the same tag,
// any visible change gives another. Links in bodies use the request's host, which the bytes already include.

/**
 * `"<base64url SHA-1 of the body>"`, a strong entity tag. The one-shot `crypto.hash` (Node ≥ 20.12, the engines
 * field asks for 20.19) gives the same digest as a Hash object without allocating one: about half the time for a
 * detail's body of a kilobyte or two (docs/performance.md, "The request pipeline, session 21").
 */
export function entityTag(payload: Buffer | string): string {
  return `"${hash('sha1', payload, 'base64url')}"`;
}

/** The tags of an If-Match / If-None-Match list; `*` is returned as is. */
function listedTags(header: string): string[] {
  return header
    .split(',')
    .map((tag) => tag.trim())
    .filter((tag) => tag !== '');
}

/** If-None-Match uses the weak comparison (§13.1.2): `W/` prefixes are ignored. */
export function noneMatchHits(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  const tags = listedTags(header);
  return tags.includes('*') || tags.some((tag) => tag.replace(/^W\//, '') === etag);
}

/** If-Match uses the strong comparison (§13.1.1): a weak tag never matches. */
export function matchHits(header: string, etag: string): boolean {
  const tags = listedTags(header);
  return tags.includes('*') || tags.includes(etag);
}

/**
 * Answering 304 before the body is built (issue 5: "cheap: no full serialization"). A handler that can name
 * what its body is made of — the versions of the rows it read (PostgreSQL's `xmin` changes with every
 * update of a row) plus everything taken from the request — derives its entity tag from that instead of
 * from the bytes, and throws this when the client's If-None-Match already names it. The exception filter
 * turns it into the 304; the mapper and the JSON writer never run.
 */
export class NotModified extends Error {
  constructor(readonly etag: string) {
    super('Not modified');
  }
}

/** A weak-comparison-safe strong tag over the parts a body is made of (`"v…"`, distinct from body hashes). */
export function versionTag(parts: readonly (string | number | null)[]): string {
  const digest = createHash('sha1');
  for (const part of parts) digest.update(`${part === null ? '\u0000' : String(part)}\u0001`);
  return `"v${digest.digest('base64url')}"`;
}

export const preconditionFailed = (): ApiError =>
  new ApiError(412, 'Precondition failed: the resource has changed since it was read (If-Match does not match its current ETag).');

// Unit and component writes of this process run one at a time per resource, so an If-Match check and the
// write it guards cannot interleave with another write to the same resource here. Processes sharing a
// database are not covered (see docs/performance.md, "Caching").
const writeLocks = new KeyedMutex();

/**
 * Runs a write of `resource` under its lock; with an If-Match header, first compares it with the ETag of the
 * resource's current GET representation (`current()`, rendered as the detail route renders it) and throws
 * 412 when it differs. Without If-Match the write is unconditional, as before.
 */
export async function conditionalWrite<T>(resource: string, ifMatch: string | undefined, current: () => Promise<unknown>, write: () => Promise<T>): Promise<T> {
  return writeLocks.withLock(resource, async () => {
    if (ifMatch !== undefined && ifMatch.trim() !== '' && !matchHits(ifMatch, entityTag(serializeJson(await current())))) throw preconditionFailed();
    return write();
  });
}
