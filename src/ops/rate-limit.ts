import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { DataSource } from 'typeorm';
import { parseAuthorizationHeader } from '../common/auth/authorization-header';
import { hashToken } from '../common/auth/token-hash';
import { sendJson } from '../common/http/send-json';
import type { AppConfig, RateLimit } from '../config/app-config';

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
 * row per caller key in `rate_limit_counters`, counted in fixed windows by a single atomic upsert.
 * Weblate (DRF) keeps a sliding history per caller in its cache; a fixed window needs one row instead of
 * one entry per request and gives the same limit per window (README "Rate limiting").
 */
export class PostgresRateLimitStore {
  private lastSweep = Date.now();

  constructor(private readonly dataSource: DataSource) {}

  async hit(key: string, rate: RateLimit): Promise<RateLimitHit> {
    const rows: Array<{ hits: number; reset: string }> = await this.dataSource.query(
      `INSERT INTO rate_limit_counters AS c (key, window_start, hits) VALUES ($1, now(), 1)
       ON CONFLICT (key) DO UPDATE SET
         hits = CASE WHEN c.window_start <= now() - make_interval(secs => $2) THEN 1 ELSE c.hits + 1 END,
         window_start = CASE WHEN c.window_start <= now() - make_interval(secs => $2) THEN now() ELSE c.window_start END
       RETURNING hits, EXTRACT(EPOCH FROM (window_start + make_interval(secs => $2) - now()))::text AS reset`,
      [key, rate.windowSeconds],
    );
    this.sweepSometimes();
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

/** The throttle key and rate of a request: authenticated users by user id, everyone else by client IP (§2.4). */
async function callerKey(dataSource: DataSource, request: Request, config: AppConfig): Promise<{ key: string; rate: RateLimit }> {
  let token: string | null = null;
  try {
    token = parseAuthorizationHeader(request.headers.authorization);
  } catch {
    // A malformed header is answered 401 by the auth guard; it is counted as anonymous here.
  }
  if (token !== null) {
    const rows: Array<{ id: number }> = await dataSource.query(
      `SELECT u.id FROM api_tokens t JOIN users u ON u.id = t.user_id WHERE t.key_hash = $1 AND u.is_active`,
      [hashToken(token)],
    );
    if (rows.length > 0) return { key: `user:${rows[0].id}`, rate: config.rateLimitUser };
  }
  return { key: `anon:${request.ip ?? 'unknown'}`, rate: config.rateLimitAnon };
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
    callerKey(dataSource, request, config)
      .then(({ key, rate }) => store.hit(key, rate))
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
