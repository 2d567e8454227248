import type { Response } from 'express';
import { serializeJsonPayload } from '../serialization/json-writer';
import { entityTag, noneMatchHits } from './preconditions';

/**
 * Writes a body as compact JSON with exact 64-bit integers and one-decimal percentages (json-writer.ts),
 * with `Content-Type: application/json` exactly as the spec shows it (no charset parameter). A 200 answer to
 * GET/HEAD also gets an ETag, and 304 when the request's If-None-Match names it (preconditions.ts).
 *
 * A small body is handed to `end()` as the string it was serialized to: Node then sends the status line, the
 * headers and the body in one socket write, where a Buffer goes out as a second chunk of a `writev` (and had
 * to be allocated first) (docs/performance.md, "Request pipeline"). A large one arrives as its UTF-8 bytes
 * (serializeJsonPayload), which are hashed, measured and sent without being encoded again. The hash and
 * Content-Length are of the UTF-8 bytes either way.
 */
export function sendJson(response: Response, status: number, body: unknown, versionEtag: string | null = null): SentRead | null {
  const payload = serializeJsonPayload(body);
  const byteLength = typeof payload === 'string' ? Buffer.byteLength(payload, 'utf8') : payload.length;
  const method = response.req?.method;
  if (status === 200 && (method === 'GET' || method === 'HEAD')) {
    // Every successful read carries its validator; a client holding it gets 304 without the body (preconditions.ts).
    // A tag the handler derived from row versions replaces the hash of the bytes.
    const sent: SentRead = { payload, byteLength, etag: versionEtag ?? entityTag(payload) };
    sendRead(response, sent);
    return sent;
  }
  writeJson(response, status, payload, byteLength);
  return null;
}

/** A read's 200 answer as sent: the body's bytes and their entity tag. */
export interface SentRead {
  payload: string | Buffer;
  byteLength: number;
  etag: string;
}

/** Sends a read's 200 answer, or 304 when the request's If-None-Match names its tag (also a kept answer's). */
export function sendRead(response: Response, sent: SentRead): void {
  if (noneMatchHits(response.req.headers['if-none-match'], sent.etag)) {
    sendNotModified(response, sent.etag);
    return;
  }
  response.setHeader('ETag', sent.etag);
  writeJson(response, 200, sent.payload, sent.byteLength);
}

function writeJson(response: Response, status: number, payload: string | Buffer, byteLength: number): void {
  response.statusCode = status;
  response.setHeader('Content-Type', 'application/json');
  response.setHeader('Content-Length', String(byteLength));
  response.end(payload);
}

/** 304 with the current tag and no body (also for a tag derived before the body was built: NotModified). */
export function sendNotModified(response: Response, etag: string): void {
  response.setHeader('ETag', etag);
  response.statusCode = 304;
  response.end();
}
