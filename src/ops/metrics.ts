import { collectDefaultMetrics, Counter, Gauge, Histogram, type Metric, Registry } from 'prom-client';
import { RequestDurationHistogram } from './request-duration-histogram';

/** What the pool gauge reads: node-postgres's Pool counters. */
export interface PoolCounters {
  totalCount: number;
  idleCount: number;
  waitingCount: number;
}

/**
 * Prometheus metrics of one Glossa process (served at /metrics). One registry per application instance,
 * not prom-client's global one, so several apps in one process (tests) never share or double-register.
 */
export class OpsMetrics {
  readonly registry = new Registry();
  private readonly httpDuration: RequestDurationHistogram;
  private readonly jobDuration: Histogram<'queue' | 'outcome'>;
  private readonly jobFailures: Counter<'queue'>;

  /**
   * @param authChangeHeard the id of the latest auth change this process has heard (AuthCacheService), so
   *   replicas can be compared: one whose figure is behind still answers from what that change made stale.
   */
  constructor(pool: () => PoolCounters | undefined, poolMax: number, authChangeHeard: () => number) {
    collectDefaultMetrics({ register: this.registry, prefix: 'glossa_' });
    this.httpDuration = new RequestDurationHistogram(
      'glossa_http_request_duration_seconds',
      'HTTP request latency by route pattern (e.g. /api/projects/:slug/), method and status code',
      [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    );
    // Not one of prom-client's classes, but what its registry reads of one (request-duration-histogram.ts).
    this.registry.registerMetric(this.httpDuration as unknown as Metric);
    this.jobDuration = new Histogram({
      name: 'glossa_job_duration_seconds',
      help: 'Background job run time by queue and outcome (completed or failed)',
      labelNames: ['queue', 'outcome'],
      buckets: [0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 300, 900],
      registers: [this.registry],
    });
    this.jobFailures = new Counter({
      name: 'glossa_job_failures_total',
      help: 'Background job runs that failed, by queue',
      labelNames: ['queue'],
      registers: [this.registry],
    });
    new Gauge({
      name: 'glossa_db_pool_connections',
      help: 'Database connection pool: open (total), idle, and requests waiting for a connection',
      labelNames: ['state'],
      registers: [this.registry],
      collect() {
        const counters = pool();
        if (!counters) return;
        this.set({ state: 'total' }, counters.totalCount);
        this.set({ state: 'idle' }, counters.idleCount);
        this.set({ state: 'waiting' }, counters.waitingCount);
      },
    });
    new Gauge({
      name: 'glossa_db_pool_max_connections',
      help: 'Configured size of the database connection pool',
      registers: [this.registry],
    }).set(poolMax);
    new Gauge({
      name: 'glossa_auth_last_change_heard',
      help: 'Transaction id of the latest change to keys, users, teams or roles this process has heard (NOTIFY glossa_auth)',
      registers: [this.registry],
      collect() {
        this.set(authChangeHeard());
      },
    });
  }

  observeRequest(method: string, route: string, statusCode: number, seconds: number): void {
    this.httpDuration.observe(method, route, statusCode, seconds);
  }

  observeJob(queue: string, seconds: number, failed: boolean): void {
    this.jobDuration.observe({ queue, outcome: failed ? 'failed' : 'completed' }, seconds);
    if (failed) this.jobFailures.inc({ queue });
  }
}
