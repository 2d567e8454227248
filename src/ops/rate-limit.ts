import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { DataSource } from 'typeorm';
import { parseAuthorizationHeader } from '../common/auth/authorization-header';
import { hashToken } from '../common/auth/token-hash';
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
 * Request counters shared by every process on the database (issue 4: limits count across replicas): one
 * row per caller key in `rate_limit_counters`, counted in fixed windows. Weblate (DRF) keeps a sliding
 * history per caller in its cache; a fixed window needs one row instead of one entry per request and gives
 * the same limit per window (README "Rate limiting").
 *
 * One statement per request resolves the caller (authenticated users by user id, everyone else by client
 * address, weblate-api.md §2.4), picks its rate and counts the request atomically.
 */
export class PostgresRateLimitStore {
  private lastSweep = Date.now();

  constructor(private readonly dataSource: DataSource) {}

  async hit(tokenHash: string | null, address: string, config: Pick<AppConfig, 'rateLimitAnon' | 'rateLimitUser'>): Promise<RateLimitHit> {
    const rows: Array<{ hits: number; is_user: boolean; reset: string }> = await this.dataSource.query(
      `WITH caller AS (
         SELECT min(u.id) AS id FROM api_tokens t JOIN users u ON u.id = t.user_id WHERE t.key_hash = $1 AND u.is_active
       ), choice AS (
         SELECT CASE WHEN id IS NULL THEN $2::text ELSE 'user:' || id END AS key,
                make_interval(secs => CASE WHEN id IS NULL THEN $3::float8 ELSE $4::float8 END) AS span,
                id IS NOT NULL AS is_user
           FROM caller
       )
       INSERT INTO rate_limit_counters AS c (key, window_start, hits) SELECT key, now(), 1 FROM choice
       ON CONFLICT (key) DO UPDATE SET
         hits = CASE WHEN c.window_start <= now() - (SELECT span FROM choice) THEN 1 ELSE c.hits + 1 END,
         window_start = CASE WHEN c.window_start <= now() - (SELECT span FROM choice) THEN now() ELSE c.window_start END
       RETURNING hits, (SELECT is_user FROM choice) AS is_user,
                 EXTRACT(EPOCH FROM (window_start + (SELECT span FROM choice) - now()))::text AS reset`,
      [tokenHash ?? '', `anon:${address}`, config.rateLimitAnon.windowSeconds, config.rateLimitUser.windowSeconds],
    );
    this.sweepSometimes();
    const rate = rows[0].is_user ? config.rateLimitUser : config.rateLimitAnon;
    const hits = Number(rows[0].hits);
    return {
      limit: rate.requests,
      remaining: Math.max(0, rate.requests - hits),
      resetSeconds: Math.max(1, Math.ceil(Number(rows[0].reset))),
      allowed: hits <= rate.requests,
    };
  }

  /** Forgets counters whose window is over; the longest window is a day. */
  private sweepSometimes(): void {
    if (Date.now() - this.lastSweep < SWEEP_INTERVAL_MS) return;
    this.lastSweep = Date.now();
    void this.dataSource.query(`DELETE FROM rate_limit_counters WHERE window_start < now() - interval '1 day'`).catch(() => undefined);
  }
}

/** The hash of the request's API token, or null (a malformed header is answered 401 by the auth guard). */
function tokenHashOf(request: Request): string | null {
  try {
    const token = parseAuthorizationHeader(request.headers.authorization);
    return token === null ? null : hashToken(token);
  } catch {
    return null;
  }
}

function secondsText(seconds: number): string {
  return `${seconds} ${seconds === 1 ? 'second' : 'seconds'}`;
}

/**
 * Weblate's API throttling (weblate-api.md §2.4): every response under /api/ (errors, 404 and 405
 * included, so this runs before the HTTP contract middleware) carries X-RateLimit-Limit/-Remaining/-Reset;
 * a caller over its rate gets 429 with Retry-After and DRF's message.
 */
export function rateLimitMiddleware(dataSource: DataSource, config: AppConfig, store = new PostgresRateLimitStore(dataSource)): RequestHandler {
  return (request: Request, response: Response, next: NextFunction) => {
    const path = request.path;
    if (!(path === '/api' || path.startsWith('/api/')) || path.startsWith('/api/docs')) {
      next();
      return;
    }
    store
      .hit(tokenHashOf(request), request.ip ?? 'unknown', config)
      .then((hit) => {
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
      })
      .catch(next);
  };
}
