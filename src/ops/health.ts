import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { OpsMetrics } from './metrics';
import type { MetricsAccess } from './metrics-access';

export interface HealthDependencies {
  /** Throws when the database does not answer; on a connection of its own (src/database/health-connection.ts). */
  pingDatabase(): Promise<void>;
  /** Throws when the job queue is not running or its schema does not answer. */
  pingJobQueue(): Promise<void>;
  metrics: OpsMetrics;
  /** True once shutdown began: the process finishes its work but should get no new traffic. */
  draining(): boolean;
  /** Who may read /metrics (metrics-access.ts, the METRICS setting); everyone when absent. */
  metricsAccess?(request: Request): MetricsAccess;
}

const CHECK_TIMEOUT_MS = 5000;

function withTimeout<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

async function check(name: string, probe: () => Promise<unknown>): Promise<[string, string]> {
  try {
    await withTimeout(probe(), name);
    return [name, 'ok'];
  } catch (error) {
    return [name, error instanceof Error ? error.message : String(error)];
  }
}

function sendPlainJson(response: Response, status: number, body: unknown): void {
  response.status(status).setHeader('Cache-Control', 'no-store');
  response.type('application/json').send(JSON.stringify(body));
}

/**
 * Operator endpoints outside the Weblate API (issue 4 "Operations"), for GET and HEAD:
 * - /healthz: liveness, the process answers HTTP (no dependency checks, so a database outage does not
 *   make an orchestrator restart every replica);
 * - /readyz: readiness, 200 when the database and the job queue answer, 503 otherwise or while draining;
 * - /metrics: Prometheus text exposition, as METRICS allows: hidden paths fall through to the API's 404.
 */
export function healthEndpoints(deps: HealthDependencies): RequestHandler {
  return (request: Request, response: Response, next: NextFunction) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      next();
      return;
    }
    switch (request.path) {
      case '/healthz':
        sendPlainJson(response, 200, { status: 'ok' });
        return;
      case '/readyz':
        void Promise.all([check('database', () => deps.pingDatabase()), check('job_queue', () => deps.pingJobQueue())]).then(
          (results) => {
            const checks = Object.fromEntries(results);
            if (deps.draining()) checks.shutdown = 'in progress';
            const ready = results.every(([, state]) => state === 'ok') && !deps.draining();
            sendPlainJson(response, ready ? 200 : 503, { status: ready ? 'ok' : 'unavailable', checks });
          },
        );
        return;
      case '/metrics': {
        const access = deps.metricsAccess?.(request) ?? 'allowed';
        if (access === 'hidden') {
          next();
          return;
        }
        if (access === 'unauthorized') {
          response.setHeader('WWW-Authenticate', 'Bearer realm="metrics"');
          sendPlainJson(response, 401, { detail: 'Authentication credentials were not provided.' });
          return;
        }
        deps.metrics.registry.metrics().then((text) => {
          response.status(200).setHeader('Content-Type', deps.metrics.registry.contentType);
          response.setHeader('Cache-Control', 'no-store');
          response.send(text);
        }, next);
        return;
      }
      default:
        next();
    }
  };
}
