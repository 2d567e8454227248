import { DataSource } from 'typeorm';
import { loadConfig } from '../config/app-config';
import { buildDataSourceOptions } from './data-source-options';
import { startEmbeddedDatabase } from './embedded-database';

/**
 * The data source for the TypeORM CLI (migration:generate/run). It uses DATABASE_URL when set and the
 * embedded database under DATA_DIR otherwise, exactly as the server does.
 */
async function createCliDataSource(): Promise<DataSource> {
  const config = loadConfig();
  if (config.databaseUrl) return new DataSource(buildDataSourceOptions(config.databaseUrl, 2));
  const embedded = await startEmbeddedDatabase(config.dataDir, 1);
  const dataSource = new DataSource(buildDataSourceOptions(embedded.url, 1));
  const destroy = dataSource.destroy.bind(dataSource);
  dataSource.destroy = async () => {
    await destroy();
    await embedded.close();
  };
  return dataSource;
}

export default createCliDataSource();
