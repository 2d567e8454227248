import { DynamicModule, Module } from '@nestjs/common';
import { APP_GUARD, DiscoveryModule } from '@nestjs/core';
import { ApiAuthGuard } from './common/auth/api-auth.guard';
import { AuthCacheService } from './common/auth/auth-cache.service';
import { OpenStreamsModule } from './common/http/open-streams';
import type { AppConfig } from './config/app-config';
import { ConfigModule } from './config/config.module';
import { DatabaseModule } from './database/database.module';
import { JobsModule } from './jobs/jobs.module';
import { RESOURCE_MODULES } from './modules/resource-modules';

@Module({})
export class AppModule {
  static forRoot(config: AppConfig, database: { url: string; poolSize: number }): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        DatabaseModule.forRoot(database.url, database.poolSize, config),
        DiscoveryModule,
        OpenStreamsModule,
        // One job queue per process; pg-boss spreads jobs over every process sharing the database.
        JobsModule.forRoot({ pollingIntervalSeconds: config.jobPollingSeconds, shutdownTimeoutMs: config.shutdownTimeoutSeconds * 1000 }),
        ...RESOURCE_MODULES,
      ],
      // The guard is also a provider of its own, so create-app.ts can hand the same instance to direct-handlers.ts.
      providers: [AuthCacheService, ApiAuthGuard, { provide: APP_GUARD, useExisting: ApiAuthGuard }],
    };
  }
}
