import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { DataSource } from 'typeorm';
import { parseAuthorizationHeader } from '../common/auth/authorization-header';
import { requestTokenHash } from '../common/auth/token-hash';
import { isHookPath } from '../common/http/hook-paths';
import { isApiDocsPath } from '../common/http/http-contract.middleware';
import { sendJson } from '../common/http/send-json';
import type { AppConfig } from '../config/app-config';

export interface RateLimitHit {
  limit: number;
  remaining: number;
  /** Whole seconds until the window starts over. */
  resetSeconds: number;
  allowed: boolean;
}

/** How often one process deletes counters whose window ended (they are recreated on the next request). */
const SWEEP_INTERVAL_MS = 10 * 60 * 1000;
/**
 * The most requests one process reserves from the shared counter at a time. Below 16,000 requests left in a
 * window the sixteenth decides (LEASE_DIVISOR); this cap only bounds the leases of callers with large limits,
 * for whom each reservation is a committed write: 100 put one on every hundredth request of such a caller,
 * about 15 µs of PostgreSQL CPU per request of the bench's `/api/` (docs/performance.md, "The API root,
 * session 20").
 */
const MAX_LEASE = 1000;
/** A lease is a sixteenth of what is left of the window, so reservations shrink to 1 near the limit. */
const LEASE_DIVISOR = 16;

/** Requests this process reserved from the shared counter for one caller and has not used yet. */
interface Lease {
  limit: number;
  /** The shared counter after this process's last reservation (every process's reservations included). */
  counted: number;
  /** Reserved requests left to hand out locally. */
  allowance: number;
  /** When the window ends (ms since the epoch); the lease is void after it. */
  windowEndsAt: number;
}

/** How many requests to reserve for a caller whose window has `remaining` requests left. */
export function leaseSize(remaining: number): number {
  return Math.max(1, Math.min(MAX_LEASE, Math.floor(remaining / LEASE_DIVISOR)));
}

/**
 * Request counters shared by every process on the database (issue 4: limits count across replicas): one
 * row per caller key in `rate_limit_counters`, counted in fixed windows. Weblate (DRF) keeps a sliding
 * history per caller in its cache; a fixed window needs one row instead of one entry per request and gives
 * the same limit per window (README "Rate limiting").
 *
 * Counting every request with its own write put a committed UPDATE of one hot row on every API request, so
 * all requests of one caller queued on that row's lock (docs/performance.md). Instead a process reserves a
 * lease of requests from the shared counter in one statement and hands them out from memory. Reservations
 * count as used for every other process, so a caller never gets more than its limit across all replicas;
 * since a lease is at most a sixteenth of what is left, it shrinks to a single request near the limit,
 * where counting is then exact. What a process reserved but did not use is lost when the window ends
 * (a caller spread over several processes may be throttled early by what the others hold unused, never late).
 *
 * The statement resolves the caller (authenticated users by user id, everyone else by client address,
 * weblate-api.md §2.4), picks its rate and adds the lease atomically.
 */
export class PostgresRateLimitStore {
  private lastSweep = Date.now();
  private readonly leases = new Map<string, Lease>();
  private readonly reserving = new Map<string, Promise<unknown>>();

  constructor(private readonly dataSource: DataSource) {}

  /**
   * Counts one request. A caller with requests left in this process's lease is answered at once, without a
   * promise (every request of a busy caller but one in a lease's size: docs/performance.md, "Read dispatch").
   */
  hit(tokenHash: string | null, address: string, config: Pick<AppConfig, 'rateLimitAnon' | 'rateLimitUser'>): RateLimitHit | Promise<RateLimitHit> {
    const localKey = tokenHash === null ? `anon:${address}` : `token:${tokenHash}`;
    return this.fromLease(localKey) ?? this.hitShared(localKey, tokenHash, address, config);
  }

  /** The answer from this process's lease for the caller, if it has requests left. */
  private fromLease(localKey: string): RateLimitHit | null {
    const lease = this.leases.get(localKey);
    const now = Date.now();
    if (lease === undefined || lease.allowance <= 0 || now >= lease.windowEndsAt) return null;
    lease.allowance -= 1;
    return this.answer(lease, now, true);
  }

  private async hitShared(localKey: string, tokenHash: string | null, address: string, config: Pick<AppConfig, 'rateLimitAnon' | 'rateLimitUser'>): Promise<RateLimitHit> {
    for (;;) {
      // One reservation per caller at a time; requests arriving meanwhile use what it brings.
      const pending = this.reserving.get(localKey);
      if (pending === undefined) break;
      await pending.catch(() => undefined);
      const leased = this.fromLease(localKey);
      if (leased !== null) return leased;
    }
    const previous = this.leases.get(localKey);
    const reservation = this.reserve(localKey, tokenHash, address, config, previous);
    this.reserving.set(localKey, reservation);
    try {
      return await reservation;
    } finally {
      this.reserving.delete(localKey);
    }
  }

  private async reserve(
    localKey: string,
    tokenHash: string | null,
    address: string,
    config: Pick<AppConfig, 'rateLimitAnon' | 'rateLimitUser'>,
    previous: Lease | undefined,
  ): Promise<RateLimitHit> {
    // The size comes from the last known count; without one, from the smaller of the two rates.
    const size =
      previous !== undefined && Date.now() < previous.windowEndsAt
        ? leaseSize(previous.limit - previous.counted)
        : leaseSize(Math.min(config.rateLimitAnon.requests, config.rateLimitUser.requests));
    const rows: Array<{ hits: number; is_user: boolean; reset: string }> = await this.dataSource.query(
      `WITH caller AS (
         SELECT min(u.id) AS id FROM api_tokens t JOIN users u ON u.id = t.user_id WHERE t.key_hash = $1 AND u.is_active
       ), choice AS (
         SELECT CASE WHEN id IS NULL THEN $2::text ELSE 'user:' || id END AS key,
                make_interval(secs => CASE WHEN id IS NULL THEN $3::float8 ELSE $4::float8 END) AS span,
                id IS NOT NULL AS is_user
           FROM caller
       )
       INSERT INTO rate_limit_counters AS c (key, window_start, hits) SELECT key, now(), $5 FROM choice
       ON CONFLICT (key) DO UPDATE SET
         hits = CASE WHEN c.window_start <= now() - (SELECT span FROM choice) THEN $5 ELSE c.hits + $5 END,
         window_start = CASE WHEN c.window_start <= now() - (SELECT span FROM choice) THEN now() ELSE c.window_start END
       RETURNING hits, (SELECT is_user FROM choice) AS is_user,
                 EXTRACT(EPOCH FROM (window_start + (SELECT span FROM choice) - now()))::text AS reset`,
      [tokenHash ?? '', `anon:${address}`, config.rateLimitAnon.windowSeconds, config.rateLimitUser.windowSeconds, size],
    );
    this.sweepSometimes();
    const rate = rows[0].is_user ? config.rateLimitUser : config.rateLimitAnon;
    const counted = Number(rows[0].hits);
    const now = Date.now();
    // The counter went from counted - size to counted; what of that was still under the limit is ours.
    const granted = Math.max(0, Math.min(size, rate.requests - (counted - size)));
    const lease: Lease = { limit: rate.requests, counted, allowance: Math.max(0, granted - 1), windowEndsAt: now + Number(rows[0].reset) * 1000 };
    // A throttled caller keeps no lease: its next request asks the shared counter again, so a window that
    // ends (or is reset) elsewhere is seen at once.
    if (granted > 0) this.leases.set(localKey, lease);
    else this.leases.delete(localKey);
    return this.answer(lease, now, granted > 0);
  }

  private answer(lease: Lease, now: number, allowed: boolean): RateLimitHit {
    return {
      limit: lease.limit,
      // Used = everything counted minus what this process still holds unused.
      remaining: Math.max(0, lease.limit - (lease.counted - lease.allowance)),
      resetSeconds: Math.max(1, Math.ceil((lease.windowEndsAt - now) / 1000)),
      allowed,
    };
  }

  /** Forgets counters whose window is over (the longest window is a day) and this process's ended leases. */
  private sweepSometimes(): void {
    if (Date.now() - this.lastSweep < SWEEP_INTERVAL_MS) return;
    this.lastSweep = Date.now();
    for (const [key, lease] of this.leases) if (lease.windowEndsAt <= this.lastSweep) this.leases.delete(key);
    void this.dataSource.query(`DELETE FROM rate_limit_counters WHERE window_start < now() - interval '1 day'`).catch(() => undefined);
  }
}

/** The hash of the request's API token, or null (a malformed header is answered 401 by the auth guard). */
function tokenHashOf(request: Request): string | null {
  try {
    const token = parseAuthorizationHeader(request.headers.authorization);
    return token === null ? null : requestTokenHash(token);
  } catch {
    return null;
  }
}

/**
 * The caller's address as Express's `request.ip` gives it. Without TRUST_PROXY that is the socket's peer, which
 * `request.ip` also returns, but only after parsing X-Forwarded-For into a list it then ignores (proxy-addr):
 * 2–3 µs of every request's CPU (docs/performance.md, "The request pipeline, session 21").
 */
function clientAddressOf(request: Request, config: Pick<AppConfig, 'trustProxy'>): string | undefined {
  return config.trustProxy === false ? request.socket.remoteAddress : request.ip;
}

function secondsText(seconds: number): string {
  return `${seconds} ${seconds === 1 ? 'second' : 'seconds'}`;
}

/**
 * Weblate's API throttling (weblate-api.md §2.4): every API response (errors, 404 and 405 included, so this
 * runs before the HTTP contract middleware) carries X-RateLimit-Limit/-Remaining/-Reset; a caller over its
 * rate gets 429 with Retry-After and DRF's message. Every path counts except Swagger UI and the operator
 * endpoints answered before this: a prefix test such as `/api/` let `/API/…` and `//api/…` through
 * unthrottled (issue 10 item 4).
 *
 * The repository hooks (exact paths, hook-paths.ts) are counted per client address under their own rate,
 * RATE_LIMIT_HOOKS, whatever token they carry: they read no credentials (Weblate leaves them to the reverse
 * proxy's limits, integration.md §1.2), and a code host's few addresses would exhaust the anonymous rate.
 */
export function rateLimitMiddleware(dataSource: DataSource, config: AppConfig, store = new PostgresRateLimitStore(dataSource)): RequestHandler {
  return (request: Request, response: Response, next: NextFunction) => {
    const path = request.path;
    if (isApiDocsPath(path)) {
      next();
      return;
    }
    const address = clientAddressOf(request, config) ?? 'unknown';
    const counted = isHookPath(path)
      ? store.hit(null, `hook:${address}`, { rateLimitAnon: config.rateLimitHooks, rateLimitUser: config.rateLimitHooks })
      : store.hit(tokenHashOf(request), address, config);
    // A hit from this process's lease is answered at once, without a closure (docs/performance.md,
    // "Per-request overhead, session 9").
    if (counted instanceof Promise) counted.then((hit) => answerHit(response, next, hit)).catch(next);
    else answerHit(response, next, counted);
  };
}

/** The rate-limit headers of every answer; 429 when the caller is over its rate, the next step otherwise. */
function answerHit(response: Response, next: NextFunction, hit: RateLimitHit): void {
  response.setHeader('X-RateLimit-Limit', String(hit.limit));
  response.setHeader('X-RateLimit-Remaining', String(hit.remaining));
  response.setHeader('X-RateLimit-Reset', String(hit.resetSeconds));
  if (hit.allowed) {
    next();
    return;
  }
  response.setHeader('Retry-After', String(hit.resetSeconds));
  response.setHeader('Vary', 'Accept');
  sendJson(response, 429, { detail: `Request was throttled. Expected available in ${secondsText(hit.resetSeconds)}.` });
}
