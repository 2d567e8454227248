import { DynamicModule, Module } from '@nestjs/common';
import { getDataSourceToken, TypeOrmModule } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { buildDataSourceOptions, type StatementTimeouts } from './data-source-options';
import { enableNamedStatements } from './prepared-statement';

/**
 * Prepared statements are used on PostgreSQL servers, not on the embedded PGlite, whose single backend
 * session outlives the pool's connections (src/database/prepared-statement.ts). The server says which it is.
 */
async function enableNamedStatementsOnPostgres(dataSource: DataSource): Promise<boolean> {
  const [{ version }]: Array<{ version: string }> = await dataSource.query('SELECT version() AS version');
  const embedded = /PGlite|emscripten/i.test(version);
  if (!embedded) enableNamedStatements(dataSource);
  return !embedded;
}

/**
 * The TypeORM connection. The URL is resolved before Nest starts (PostgreSQL from DATABASE_URL, or the
 * embedded PGlite server started by src/bootstrap/database-runtime.ts), so this module only connects and
 * applies the committed migrations (never `synchronize`, architecture.md "Runtime shape").
 */
@Module({})
export class DatabaseModule {
  static forRoot(url: string, poolSize: number, timeouts?: StatementTimeouts): DynamicModule {
    return {
      module: DatabaseModule,
      imports: [TypeOrmModule.forRoot({ ...buildDataSourceOptions(url, poolSize, timeouts), migrationsRun: true })],
      providers: [{ provide: 'GLOSSA_NAMED_STATEMENTS', inject: [getDataSourceToken()], useFactory: enableNamedStatementsOnPostgres }],
    };
  }
}
