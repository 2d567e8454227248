import { createHash } from 'node:crypto';

/**
 * The git blob id (SHA-1 of `blob <length>\0<bytes>`), the same value as `git hash-object` for a file
 * without clean filters. Weblate uses it as a translation's `revision`, and computing it in-process spares
 * a git call per file during scans.
 */
export function gitBlobHash(content: Buffer): string {
  return createHash('sha1').update(`blob ${content.length}\0`).update(content).digest('hex');
}
