import { types } from 'pg';
import { DataSourceOptions } from 'typeorm';
import { ENTITIES } from './entities';
import { MIGRATIONS } from './migrations';
import { listenOnPoolConnection } from './pool-notifications';
import { SESSION_SETTINGS } from './session-settings';
import { SnakeNamingStrategy } from './snake-naming.strategy';
import { backgroundStatementTimeoutSubscriber, statementTimeoutOption } from './statement-timeout';

// timestamptz stays text when read through raw queries: a JS Date would drop the microseconds the API
// must show (architecture.md "The contract"). int8 stays text too (pg's default) so 64-bit hashes are exact.
types.setTypeParser(1184, (value: string) => value);

/** Statement limits of the application's pool (src/database/statement-timeout.ts); none when omitted. */
export interface StatementTimeouts {
  /** Session default of every connection: the limit of API requests, in ms (0: none). */
  statementTimeoutMs: number;
  /** Limit of transactions run as background work (0: none). */
  jobStatementTimeoutMs: number;
}

export function buildDataSourceOptions(url: string, poolSize: number, timeouts?: StatementTimeouts): DataSourceOptions {
  const options = [...SESSION_SETTINGS];
  if (timeouts) options.push(statementTimeoutOption(timeouts.statementTimeoutMs));
  const backgroundDiffers = timeouts !== undefined && timeouts.jobStatementTimeoutMs !== timeouts.statementTimeoutMs;
  return {
    type: 'postgres',
    url,
    entities: ENTITIES,
    migrations: MIGRATIONS,
    namingStrategy: new SnakeNamingStrategy(),
    synchronize: false,
    migrationsRun: false,
    poolSize,
    subscribers: backgroundDiffers ? [backgroundStatementTimeoutSubscriber(timeouts.jobStatementTimeoutMs)] : [],
    // onConnect (pg-pool): each connection listens for auth changes (pool-notifications.ts).
    extra: { options: options.join(' '), onConnect: listenOnPoolConnection },
  };
}
