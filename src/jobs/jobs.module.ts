import { DynamicModule, Module } from '@nestjs/common';
import { JOBS_OPTIONS, JobQueue, type JobsOptions } from './job-queue';
import { ProcessClaims } from './process-claims';

/**
 * The background job queue (pg-boss on the application's DataSource). Global, so modules that register
 * handlers or send jobs only inject JobQueue. Needs TypeOrmModule.forRoot (the DataSource) and the global
 * ConfigModule (APP_CONFIG). pg-boss starts on application bootstrap and stops before shutdown, ahead of
 * TypeORM closing the pool. ProcessClaims tells which live process works on a repository or a task.
 */
@Module({})
export class JobsModule {
  static forRoot(options: JobsOptions = {}): DynamicModule {
    return {
      module: JobsModule,
      global: true,
      providers: [{ provide: JOBS_OPTIONS, useValue: options }, JobQueue, ProcessClaims],
      exports: [JobQueue, ProcessClaims],
    };
  }
}
