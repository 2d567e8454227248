import { createHash, randomBytes } from 'node:crypto';

const TOKEN_ALPHABET = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/** Tokens are stored as SHA-256 digests so a database leak hands out no working key. */
export function hashToken(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** Weblate's user key format: `wlu_` and 36 random alphanumerics (weblate-api.md §2.2). */
export function generateUserToken(): string {
  const bytes = randomBytes(36);
  let key = 'wlu_';
  for (const byte of bytes) key += TOKEN_ALPHABET[byte % TOKEN_ALPHABET.length];
  return key;
}

const REQUEST_HASH = Symbol('glossaTokenHash');

/**
 * hashToken for the key of one request, computed once: the rate limiter (src/ops/rate-limit.ts) and the auth
 * guard both need the digest of the same key, and SHA-256 was the costliest step of a token request's
 * pipeline they each ran (docs/performance.md, "Request pipeline"). The key is compared, so a request whose
 * key changed in between (never in practice) gets the right digest.
 */
export function requestTokenHash(request: object, key: string): string {
  const holder = request as { [REQUEST_HASH]?: { key: string; hash: string } };
  const known = holder[REQUEST_HASH];
  if (known !== undefined && known.key === key) return known.hash;
  const hash = hashToken(key);
  holder[REQUEST_HASH] = { key, hash };
  return hash;
}
