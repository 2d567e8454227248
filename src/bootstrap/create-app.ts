import { INestApplication, LoggerService, LogLevel } from '@nestjs/common';
import { DiscoveryService, MetadataScanner, NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { AppModule } from '../app.module';
import { ApiExceptionFilter } from '../common/http/api-exception.filter';
import { httpContractMiddleware } from '../common/http/http-contract.middleware';
import { discoverRoutes } from '../common/http/route-discovery';
import { createValidationPipe } from '../common/http/validation';
import type { AppConfig } from '../config/app-config';
import { installOpenApi } from '../openapi/openapi-document';
import { runStartupTasks } from './startup-tasks';
import { DatabaseRuntime, startDatabaseRuntime } from './database-runtime';

export interface GlossaApp {
  app: INestApplication;
  /** Closes the app, then the database (pool first, embedded server last: stack-evaluation.md §5). */
  close(): Promise<void>;
}

const LEVELS: Record<AppConfig['logLevel'], LogLevel[]> = {
  error: ['fatal', 'error'],
  warn: ['fatal', 'error', 'warn'],
  log: ['fatal', 'error', 'warn', 'log'],
  debug: ['fatal', 'error', 'warn', 'log', 'debug', 'verbose'],
};

/** Builds the whole service: database, Nest app with the HTTP contract, OpenAPI, start-up data. */
export async function createGlossaApp(config: AppConfig, options: { logger?: LoggerService | false } = {}): Promise<GlossaApp> {
  const database: DatabaseRuntime = await startDatabaseRuntime(config);
  let app: NestExpressApplication | undefined;
  try {
    app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config, database), {
      logger: options.logger ?? LEVELS[config.logLevel],
      abortOnError: false,
    });
    app.disable('x-powered-by');
    app.set('etag', false);
    app.set('query parser', 'extended');
    const routes = discoverRoutes(app.get(DiscoveryService), app.get(MetadataScanner), '');
    app.use(httpContractMiddleware(routes, config));
    app.useGlobalFilters(new ApiExceptionFilter());
    app.useGlobalPipes(createValidationPipe());
    installOpenApi(app);
    await app.init();
    await runStartupTasks(app, config);
  } catch (error) {
    await app?.close().catch(() => undefined);
    await database.close();
    throw error;
  }
  const started = app;
  return {
    app: started,
    close: async () => {
      await started.close();
      await database.close();
    },
  };
}
