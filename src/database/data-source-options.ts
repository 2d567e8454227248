import { types } from 'pg';
import { DataSourceOptions } from 'typeorm';
import { ENTITIES } from './entities';
import { MIGRATIONS } from './migrations';
import { SnakeNamingStrategy } from './snake-naming.strategy';

// timestamptz stays text when read through raw queries: a JS Date would drop the microseconds the API
// must show (architecture.md "The contract"). int8 stays text too (pg's default) so 64-bit hashes are exact.
types.setTypeParser(1184, (value: string) => value);

export function buildDataSourceOptions(url: string, poolSize: number): DataSourceOptions {
  return {
    type: 'postgres',
    url,
    entities: ENTITIES,
    migrations: MIGRATIONS,
    namingStrategy: new SnakeNamingStrategy(),
    synchronize: false,
    migrationsRun: false,
    poolSize,
    extra: { options: '-c TimeZone=UTC' },
  };
}
