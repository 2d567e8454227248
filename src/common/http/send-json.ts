import type { Response } from 'express';
import { serializeJson } from '../serialization/json-writer';
import { entityTag, noneMatchHits } from './preconditions';

/**
 * Writes a body as compact JSON with exact 64-bit integers and one-decimal percentages (json-writer.ts),
 * with `Content-Type: application/json` exactly as the spec shows it (no charset parameter). A 200 answer to
 * GET/HEAD also gets an ETag, and 304 when the request's If-None-Match names it (preconditions.ts).
 *
 * The body is handed to `end()` as the string it was serialized to: Node then sends the status line, the
 * headers and the body in one socket write, where a Buffer goes out as a second chunk of a `writev` (and had
 * to be allocated first). The hash and Content-Length are of its UTF-8 bytes, as before (docs/performance.md,
 * "Request pipeline").
 */
export function sendJson(response: Response, status: number, body: unknown, versionEtag: string | null = null): void {
  const payload = serializeJson(body);
  const method = response.req?.method;
  if (status === 200 && (method === 'GET' || method === 'HEAD')) {
    // Every successful read carries its validator; a client holding it gets 304 without the body (preconditions.ts).
    // A tag the handler derived from row versions replaces the hash of the bytes.
    const etag = versionEtag ?? entityTag(payload);
    if (noneMatchHits(response.req.headers['if-none-match'], etag)) {
      sendNotModified(response, etag);
      return;
    }
    response.setHeader('ETag', etag);
  }
  response.statusCode = status;
  response.setHeader('Content-Type', 'application/json');
  response.setHeader('Content-Length', String(Buffer.byteLength(payload, 'utf8')));
  // What end() would do first (its _implicitHeader is this call): with the header already stored, end() does not
  // measure the body's UTF-8 length a second time. That pass is 13 µs for a 40 kB page with non-Latin-1 text
  // (docs/performance.md, "Detail reads and the floor, session 10"); the bytes sent are the same.
  response.writeHead(status);
  response.end(payload, 'utf8');
}

/** 304 with the current tag and no body (also for a tag derived before the body was built: NotModified). */
export function sendNotModified(response: Response, etag: string): void {
  response.setHeader('ETag', etag);
  response.statusCode = 304;
  response.end();
}
