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

/** How many recent keys keep their digest (a few hundred bytes each: well under a megabyte when full). */
export const RECENT_TOKEN_HASHES = 1_000;
/**
 * Longer keys are hashed every time and not remembered: Glossa's keys have 40 characters, and a header can carry
 * up to Node's 16 kB, so without this bound a caller sending a thousand long made-up keys would park ~16 MB here.
 */
export const MAX_REMEMBERED_KEY_LENGTH = 128;
const recentHashes = new Map<string, string>();

/**
 * hashToken for the key of a request, remembered for the last RECENT_TOKEN_HASHES distinct keys: the rate limiter
 * (src/ops/rate-limit.ts) and the auth guard both need the digest, and SHA-256 per request was the costliest
 * step of a token request's pipeline (docs/performance.md, "Request pipeline" and "Per-request overhead, session
 * 9"). A key's digest never changes, so a remembered one cannot go stale: whether the token is still valid is
 * the token cache's and the database's answer (token-cache.ts), asked on every request as before. Unknown keys
 * are remembered too (a digest is a digest); when the map is full the oldest key goes, so a flood of random
 * keys costs at most the SHA-256 it cost before.
 */
export function requestTokenHash(key: string): string {
  if (key.length > MAX_REMEMBERED_KEY_LENGTH) return hashToken(key);
  const known = recentHashes.get(key);
  if (known !== undefined) return known;
  const hash = hashToken(key);
  if (recentHashes.size >= RECENT_TOKEN_HASHES) recentHashes.delete(recentHashes.keys().next().value as string);
  recentHashes.set(key, hash);
  return hash;
}
