import { createHash, timingSafeEqual } from 'node:crypto';
import type { Request } from 'express';
import type { AppConfig } from '../config/app-config';

/** What /metrics answers a request: the metrics, 401 (a token is needed), or nothing (it does not exist). */
export type MetricsAccess = 'allowed' | 'unauthorized' | 'hidden';

const digest = (text: string): Buffer => createHash('sha256').update(text, 'utf8').digest();

/**
 * Who may scrape /metrics (issue 10 item 10: it was public and unthrottled; it names every route, the
 * pool's state and the job counts). METRICS=public: anyone; token: `Authorization: Bearer <METRICS_TOKEN>`;
 * off: the path does not exist (the API's 404). The default is public outside production and off in
 * production unless METRICS_TOKEN is set (app-config.ts). Tokens are compared by digest in constant time.
 */
export function metricsAccessPolicy(config: Pick<AppConfig, 'metrics' | 'metricsToken'>): (request: Request) => MetricsAccess {
  if (config.metrics === 'public') return () => 'allowed';
  if (config.metrics === 'off' || config.metricsToken === undefined) return () => 'hidden';
  const expected = digest(config.metricsToken);
  return (request) => {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(request.get('authorization') ?? '');
    return match !== null && timingSafeEqual(digest(match[1]), expected) ? 'allowed' : 'unauthorized';
  };
}
