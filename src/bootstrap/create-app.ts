import type { Server } from 'node:http';
import { INestApplication, LoggerService } from '@nestjs/common';
import { DiscoveryService, MetadataScanner, NestFactory } from '@nestjs/core';
import { ExpressAdapter, type NestExpressApplication } from '@nestjs/platform-express';
import express from 'express';
import type { DestinationStream, Logger } from 'pino';
import { DataSource } from 'typeorm';
import { AppModule } from '../app.module';
import { AuthCacheService } from '../common/auth/auth-cache.service';
import { ApiAuthGuard } from '../common/auth/api-auth.guard';
import { ApiExceptionFilter } from '../common/http/api-exception.filter';
import { bodyParsers } from '../common/http/body-parsing';
import { DirectHandlers } from '../common/http/direct-handlers';
import { DirectReads } from '../common/http/direct-reads';
import { httpContractMiddleware, installJsonWriter } from '../common/http/http-contract.middleware';
import { bindToBodyRoutes, MultipartBodyInterceptor } from '../common/http/multipart-body.interceptor';
import { OpenStreams } from '../common/http/open-streams';
import { discoverRoutes } from '../common/http/route-discovery';
import { ServerDispatch } from '../common/http/server-dispatch';
import type { AppConfig } from '../config/app-config';
import { createHealthConnection } from '../database/health-connection';
import { runAsBackgroundWork } from '../database/statement-timeout';
import { JobQueue } from '../jobs/job-queue';
import { installOpenApi } from '../openapi/openapi-document';
import { healthEndpoints } from '../ops/health';
import { createRootLogger, PinoNestLogger } from '../ops/logger';
import { OpsMetrics, type PoolCounters } from '../ops/metrics';
import { metricsAccessPolicy } from '../ops/metrics-access';
import { rateLimitMiddleware } from '../ops/rate-limit';
import { requestObserver } from '../ops/request-observer';
import { runStartupTasks } from './startup-tasks';
import { DatabaseRuntime, startDatabaseRuntime } from './database-runtime';

export interface GlossaApp {
  app: INestApplication;
  /** The process's JSON logger (src/ops/logger.ts). */
  logger: Logger;
  metrics: OpsMetrics;
  /** The GET route patterns that run without Nest's route handler (direct-handlers.ts). */
  directHandlerRoutes: readonly string[];
  /**
   * Graceful stop: /readyz turns 503, open event streams end (a client resumes elsewhere with Last-Event-ID),
   * the HTTP server stops accepting and lets in-flight requests finish
   * (up to SHUTDOWN_TIMEOUT_SECONDS), the job queue finishes running jobs, then the app and the database
   * close (pool first, embedded server last: stack-evaluation.md §5).
   */
  close(): Promise<void>;
}

export interface GlossaAppOptions {
  /** A Nest logger to use instead of the JSON logger, or false for none (tests). */
  logger?: LoggerService | false;
  /** Where JSON log lines go (default stdout); also enables logging when `logger` is false. */
  logStream?: DestinationStream;
}

/** node-postgres's pool behind the TypeORM data source (undocumented but stable `driver.master`). */
function poolOf(dataSource: DataSource): () => PoolCounters | undefined {
  return () => (dataSource.driver as unknown as { master?: PoolCounters }).master;
}

/** Stops accepting connections and waits for in-flight requests; idle keep-alive sockets are closed. */
async function closeHttpServer(server: Server, timeoutMs: number): Promise<void> {
  if (!server.listening) return;
  await new Promise<void>((resolve) => {
    const idle = setInterval(() => server.closeIdleConnections(), 100);
    const deadline = setTimeout(() => server.closeAllConnections(), timeoutMs);
    server.close(() => {
      clearInterval(idle);
      clearTimeout(deadline);
      resolve();
    });
    server.closeIdleConnections();
  });
}

/** Builds the whole service: database, Nest app with the HTTP contract, OpenAPI, start-up data. */
export async function createGlossaApp(config: AppConfig, options: GlossaAppOptions = {}): Promise<GlossaApp> {
  const logger = createRootLogger(config, { destination: options.logStream, silent: options.logger === false && !options.logStream });
  const database: DatabaseRuntime = await startDatabaseRuntime(config);
  let app: NestExpressApplication | undefined;
  let metrics: OpsMetrics;
  let directHandlerRoutes: string[];
  let draining = false;
  const health = createHealthConnection(database.url, database.embedded, () => app!.get(DataSource));
  try {
    // Express routes case-insensitively by default, so `/API/tasks/…` reached the tasks handler (issue 10
    // item 4). The router takes this setting when it is created, which the adapter's constructor already
    // does, so the instance is configured before it is handed over. The HTTP contract middleware is the
    // gate that lets only exact paths through in any case; this keeps Express from widening them.
    const server = express();
    server.set('case sensitive routing', true);
    const adapter = new ExpressAdapter(server);
    // Creating the app runs the migrations: background work, with JOB_STATEMENT_TIMEOUT_MS (the HTTP server
    // starts listening later, outside it, so no request inherits it).
    const created = await runAsBackgroundWork(() =>
      NestFactory.create<NestExpressApplication>(AppModule.forRoot(config, database), adapter, {
        logger: options.logger ?? new PinoNestLogger(logger),
        abortOnError: false,
        // Parsers are installed below, with our limits, after the rate limiter and the contract gate.
        bodyParser: false,
      }),
    );
    app = created;
    app.disable('x-powered-by');
    // Client address (rate limits) and forwarded origin (API links) come from X-Forwarded-* only when set.
    app.set('trust proxy', config.trustProxy);
    app.set('etag', false);
    app.set('query parser', 'extended');
    // Express 5 parses the query string again on every read of request.query, and qs spends most of a parse
    // of an empty string normalizing its options (2–3 % of an anonymous /api/ request's profile,
    // docs/performance.md "Read floor"). Without a query string the answer is qs's own, an empty object.
    const parseExtended = server.get('query parser fn') as (query: string) => Record<string, unknown>;
    app.set('query parser', (query: string | null | undefined) => (query === '' || query === null || query === undefined ? {} : parseExtended(query)));
    const routes = discoverRoutes(app.get(DiscoveryService), app.get(MetadataScanner), '');
    const dataSource = app.get(DataSource);
    const jobQueue = app.get(JobQueue);
    const authCache = app.get(AuthCacheService);
    metrics = new OpsMetrics(poolOf(dataSource), database.poolSize, () => authCache.lastChangeHeard);
    jobQueue.onJobRun((name, seconds, failed) => metrics.observeJob(name, seconds, failed));
    // Order matters: the request id and timing wrap everything; the operator endpoints sit outside /api/;
    // rate limiting runs before the contract so its headers are on 404/405/OPTIONS answers too (§2.4); the
    // contract middleware lets only exact routes through, and bodies are parsed only for those. One pipeline
    // runs them all (a middleware-chain.ts chain), from the HTTP server's listener ahead of Express's router
    // (server-dispatch.ts). Its last step hands GET/HEAD reads to their Nest handler without Express's route
    // walk (direct-reads.ts); it knows the routes once app.init() registered them.
    const exceptionFilter = new ApiExceptionFilter();
    const directHandlers = new DirectHandlers(app.get(ApiAuthGuard), exceptionFilter, app.getHttpAdapter());
    const directReads = new DirectReads(routes, directHandlers);
    installJsonWriter(server);
    const dispatch = new ServerDispatch([
      requestObserver(logger, metrics, routes, server.response),
      healthEndpoints({
        pingDatabase: () => health.query('SELECT 1'),
        pingJobQueue: () => jobQueue.ping((sql) => health.query(sql)),
        metrics,
        draining: () => draining,
        metricsAccess: metricsAccessPolicy(config),
      }),
      rateLimitMiddleware(dataSource, config),
      httpContractMiddleware(routes, config),
      bodyParsers(config),
      directReads.middleware(),
    ]);
    app.use(dispatch.routerStep);
    app.useGlobalFilters(exceptionFilter);
    // Multipart bodies are read on the routes that read a body, not app-wide: reads run no interceptor.
    bindToBodyRoutes(new MultipartBodyInterceptor(config), app.get(DiscoveryService), app.get(MetadataScanner));
    installOpenApi(app);
    await app.init();
    if (adapter.getRouteMatchingOptions().caseSensitive !== true) throw new Error('The Express router was created before case-sensitive routing was set.');
    // Nest's application config is not public API: read where it is, and without it every read keeps Nest's handler.
    directHandlerRoutes = directHandlers.install(app.get(DiscoveryService), app.get(MetadataScanner), (app as unknown as { config?: Parameters<DirectHandlers['install']>[2] }).config);
    directReads.install((server as unknown as { router: { stack: Parameters<DirectReads['install']>[0] } }).router.stack);
    if (!dispatch.install(app.getHttpServer() as Server, server)) throw new Error('The Express app is not the HTTP server\'s only request listener.');
    await runAsBackgroundWork(() => runStartupTasks(created, config));
  } catch (error) {
    await app?.close().catch(() => undefined);
    await health.close();
    await database.close();
    throw error;
  }
  const started = app;
  return {
    app: started,
    logger,
    metrics,
    directHandlerRoutes,
    close: async () => {
      draining = true;
      // Streams never finish by themselves: ended first, they do not hold the shutdown for its whole timeout.
      started.get(OpenStreams).closeAll();
      await closeHttpServer(started.getHttpServer() as Server, config.shutdownTimeoutSeconds * 1000);
      await started.close();
      await health.close();
      await database.close();
    },
  };
}
