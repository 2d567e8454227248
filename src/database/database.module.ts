import { DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { buildDataSourceOptions } from './data-source-options';

/**
 * The TypeORM connection. The URL is resolved before Nest starts (PostgreSQL from DATABASE_URL, or the
 * embedded PGlite server started by src/bootstrap/database-runtime.ts), so this module only connects and
 * applies the committed migrations (never `synchronize`, architecture.md "Runtime shape").
 */
@Module({})
export class DatabaseModule {
  static forRoot(url: string, poolSize: number): DynamicModule {
    return {
      module: DatabaseModule,
      imports: [TypeOrmModule.forRoot({ ...buildDataSourceOptions(url, poolSize), migrationsRun: true })],
    };
  }
}
