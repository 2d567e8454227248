import { notAuthenticated } from '../http/api-errors';

const SCHEMES = new Set(['token', 'bearer']);

/**
 * Extracts the key from `Authorization: Token <key>` or `Bearer <key>`, with DRF TokenAuthentication's
 * error texts (weblate-api.md §2.2). Other schemes are ignored (the request stays anonymous), as in 4.x.
 */
export function parseAuthorizationHeader(header: string | undefined): string | null {
  if (!header) return null;
  const parts = header.trim().split(/\s+/);
  if (!SCHEMES.has(parts[0].toLowerCase())) return null;
  if (parts.length === 1) throw notAuthenticated('Invalid token header. No credentials provided.');
  if (parts.length > 2) throw notAuthenticated('Invalid token header. Token string should not contain spaces.');
  return parts[1];
}
