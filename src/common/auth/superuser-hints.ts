/** The most token digests remembered; the set starts over when full (a forgotten one costs one full statement). */
const CAPACITY = 10_000;

/**
 * Digests of the tokens whose last access statement showed an active superuser (scope-access.ts). It only
 * chooses which statement a scoped request runs: the statement without the caller's rights on the object still
 * reads the token's user, and a user who is no longer a superuser (or a revoked token) makes the request ask
 * again with the rights. So, unlike the token cache (token-cache.ts), it needs no invalidation to be exact: a
 * stale entry costs one more round trip, never a wrong answer.
 */
export class SuperuserHints {
  private readonly digests = new Set<string>();

  has(tokenHash: string): boolean {
    return this.digests.has(tokenHash);
  }

  /** What the last statement showed for this token: an active superuser or not. */
  learn(tokenHash: string, superuser: boolean): void {
    if (!superuser) {
      this.digests.delete(tokenHash);
      return;
    }
    if (this.digests.has(tokenHash)) return;
    if (this.digests.size >= CAPACITY) this.digests.clear();
    this.digests.add(tokenHash);
  }
}
