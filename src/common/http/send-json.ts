import type { Response } from 'express';
import { serializeJson } from '../serialization/json-writer';

/**
 * Writes a body as compact JSON with exact 64-bit integers and one-decimal percentages (json-writer.ts),
 * with `Content-Type: application/json` exactly as the spec shows it (no charset parameter).
 */
export function sendJson(response: Response, status: number, body: unknown): void {
  const payload = Buffer.from(serializeJson(body), 'utf8');
  response.status(status);
  response.setHeader('Content-Type', 'application/json');
  response.setHeader('Content-Length', String(payload.length));
  response.end(payload);
}
