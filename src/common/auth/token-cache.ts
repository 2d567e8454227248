import type { ApiCaller } from '../http/request-context';

/** What the unscoped access statement answers for a valid token of an active user (scope-access.ts). */
export interface CachedCaller {
  caller: ApiCaller;
  /** The permissions the caller's teams grant regardless of scope (e.g. project.add). */
  globalPermissions: ReadonlySet<string>;
}

/** A read of the database that may be stored: the cache's generation when the read began. */
export type FillTicket = number;

/**
 * Token digest → caller and global permissions, in this process (issue 15 item 2: an authenticated request
 * without a database round trip). Correctness rules, in order:
 *
 * - It answers only while it hears every invalidation (`listening`): on PostgreSQL while this process's LISTEN
 *   connection is up, on the embedded database once LISTEN is issued. Losing the connection empties it and
 *   switches it off until LISTEN is back, since changes made meanwhile were not heard.
 * - Any change to the tables behind the answer (tokens, users, teams, memberships, roles) empties it: the
 *   triggers of migration AuthNotify notify on every statement, and flushing everything is simpler to trust
 *   than working out which entries a statement touched (these tables change seldom).
 * - A database read stores its answer only if no invalidation arrived since the read began (`beginFill`
 *   before sending the query, `store` with that ticket): otherwise a read that saw the old rows could put
 *   them back after the flush that removed them.
 * - Only positive answers are kept (a valid token of an active user). Unknown tokens and inactive users
 *   always ask the database, so a token just issued on another replica works at once, whatever the delivery
 *   of the notification.
 * - Bounded: the least recently used entry goes when `capacity` is reached.
 */
export class TokenCache {
  private readonly entries = new Map<string, CachedCaller>();
  private generation = 0;
  private listening = false;

  constructor(readonly capacity = 10_000) {}

  get size(): number {
    return this.entries.size;
  }

  get active(): boolean {
    return this.listening;
  }

  /** The cached answer for a token digest, or undefined (then ask the database). */
  get(tokenHash: string): CachedCaller | undefined {
    if (!this.listening) return undefined;
    const entry = this.entries.get(tokenHash);
    if (entry !== undefined) {
      // Most recently used last: Map keeps insertion order, so the first key is the eviction candidate.
      this.entries.delete(tokenHash);
      this.entries.set(tokenHash, entry);
    }
    return entry;
  }

  /** Call before sending the database read whose answer may be stored. */
  beginFill(): FillTicket {
    return this.generation;
  }

  /** Keeps an answer read under `ticket`, unless the cache was emptied or switched off since. */
  store(ticket: FillTicket, tokenHash: string, entry: CachedCaller): void {
    if (!this.listening || ticket !== this.generation) return;
    this.entries.delete(tokenHash);
    if (this.entries.size >= this.capacity) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(tokenHash, entry);
  }

  /** Something behind the answers changed: forget them all, and refuse reads that began before. */
  invalidate(): void {
    this.generation += 1;
    this.entries.clear();
  }

  /** Every invalidation from now on is heard: the cache may answer (it starts empty). */
  listen(): void {
    this.invalidate();
    this.listening = true;
  }

  /** Invalidations may be missed from now on: empty and off until listen(). */
  deafen(): void {
    this.listening = false;
    this.invalidate();
  }
}
