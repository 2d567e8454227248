import { DataSource } from 'typeorm';
import type { AppConfig } from '../config/app-config';
import { startDatabaseRuntime } from '../bootstrap/database-runtime';
import { buildDataSourceOptions } from '../database/data-source-options';

/**
 * A plain connection for the commands that need no running service (migrate, createadmin, createtoken,
 * languages sync): PostgreSQL from DATABASE_URL, or the embedded database under DATA_DIR.
 * `migrate: false` leaves pending migrations alone (the `migrate` command applies them itself).
 */
export async function withDataSource<T>(config: AppConfig, work: (dataSource: DataSource) => Promise<T>, options: { migrate?: boolean } = {}): Promise<T> {
  const runtime = await startDatabaseRuntime(config);
  const dataSource = new DataSource(buildDataSourceOptions(runtime.url, 1));
  try {
    await dataSource.initialize();
    if (options.migrate !== false) await dataSource.runMigrations({ transaction: 'each' });
    return await work(dataSource);
  } finally {
    if (dataSource.isInitialized) await dataSource.destroy();
    await runtime.close();
  }
}
