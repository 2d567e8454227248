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
