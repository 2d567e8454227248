/*
 * Answers of detail reads kept with the row versions they were built from (docs/performance.md, "Detail
 * answers kept by their row versions, session 19"; issue 15 item 2).
 *
 * A detail read whose DetailRead names its rows' versions (read-with-access.ts `version`) has its 200 answer
 * kept here: the bytes sent, their entity tag, and the version text PostgreSQL gave for them (the `xmin` of
 * every row the body is built from, beside ids that are not a row's own columns). The next request for the
 * same key sends the version it holds to the auth guard's statement, which reads the current version in the
 * same snapshot as the caller's rights and builds the body's rows only when the two differ; when they are
 * equal, the kept bytes are the answer the full read would give, and neither PostgreSQL nor Node builds them.
 *
 * Why this is exact, on every replica and without invalidation: every change to a row writes a new row
 * version whose `xmin` is the writing transaction's id, later than any before it, and the rows a body joins
 * are named by columns of rows whose versions are also in the text (a translation's component and language
 * ids are its own columns), so a body can only change with its version text. A transaction id comes round
 * again only after 2^32 transactions; an entry older than MAX_AGE_MS is never used, far less than PostgreSQL
 * needs for that (it cannot commit a million transactions a second), and the server's start time is part of
 * the text, so a different database server behind the same URL never matches.
 *
 * The key is everything the body takes from the request: the path and query as sent and the links' origin and
 * format (LinkBuilder). The caller is not part of it: the bodies kept do not depend on who asks, and the guard's
 * statement still decides on every request whether the caller may see the object (404 otherwise). Bounded in
 * bytes, least recently used first out; a body above MAX_ENTRY_BYTES is not kept.
 */

import type { SentRead } from './send-json';

/** What was sent for a key (as sendJson sent it), and the rows' version it was built from. */
export interface KeptAnswer extends SentRead {
  readonly version: string;
  readonly keptAt: number;
  /** What the entry counts against the memo's bytes: the body, the key and the version. */
  readonly size: number;
}

/** A response on its way, whose 200 body is to be kept under `key` with `version` (set by the auth guard). */
export interface PendingAnswer {
  readonly memo: ResponseMemo;
  readonly key: string;
  readonly version: string;
}

/**
 * Thrown by the auth guard when the kept answer is the response: the exception filter sends it (or 304), the
 * handler never runs. Not an Error: it is an answer, and capturing a stack per request would cost more than
 * the rest of the hit.
 */
export class KeptAnswerHit {
  constructor(readonly answer: KeptAnswer) {}
}

/** Longer than no database could run through 2^32 transaction ids; see above. */
export const MAX_AGE_MS = 60 * 60 * 1000;
const MAX_ENTRY_BYTES = 64 * 1024;
const DEFAULT_CAPACITY_BYTES = 4 * 1024 * 1024;

export class ResponseMemo {
  private readonly entries = new Map<string, KeptAnswer>();
  private bytes = 0;

  constructor(
    readonly capacityBytes = DEFAULT_CAPACITY_BYTES,
    private readonly now: () => number = Date.now,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  get totalBytes(): number {
    return this.bytes;
  }

  /** The answer kept for `key` while it is young enough to be trusted, or undefined. */
  get(key: string): KeptAnswer | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    if (this.now() - entry.keptAt > MAX_AGE_MS) {
      this.remove(key, entry);
      return undefined;
    }
    // Most recently used last: Map keeps insertion order, so the first key is the eviction candidate.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry;
  }

  /** Keeps what was sent for `key`, built from rows at `version`; replaces what was kept before. */
  keep(key: string, version: string, sent: SentRead): void {
    const previous = this.entries.get(key);
    if (previous !== undefined) this.remove(key, previous);
    const size = sent.byteLength + key.length + version.length;
    if (size > MAX_ENTRY_BYTES || size > this.capacityBytes) return;
    while (this.bytes + size > this.capacityBytes) {
      const [oldestKey, oldest] = this.entries.entries().next().value as [string, KeptAnswer];
      this.remove(oldestKey, oldest);
    }
    this.entries.set(key, { payload: sent.payload, byteLength: sent.byteLength, etag: sent.etag, version, keptAt: this.now(), size });
    this.bytes += size;
  }

  private remove(key: string, entry: KeptAnswer): void {
    this.entries.delete(key);
    this.bytes -= entry.size;
  }
}
