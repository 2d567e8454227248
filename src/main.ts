import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { ConfigError, loadConfig } from './config/app-config';
import { isFirstStartChild, prepareFirstStart } from './bootstrap/first-start';
import { markServerStarting } from './cli/admin-channel-protocol';
import { applyHeapGrowth } from './bootstrap/heap-growth';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(2);
    }
    throw error;
  }
  // On PostgreSQL the old generation grows as V8 lets a large heap grow (heap-growth.ts).
  applyHeapGrowth(config.databaseUrl !== undefined);
  // Until the admin channel opens, an admin command waits for this server however long its start takes.
  const starting = config.databaseUrl || isFirstStartChild() ? undefined : markServerStarting(config.dataDir);
  // A fresh embedded data directory is prepared by a short-lived child running this same file (first-start.ts).
  await prepareFirstStart(config, process.argv[1]);
  // Loaded after the first start's preparation: this process waits beside PGlite's initdb and the setup child
  // (together near 0.8 GB) without the application's modules in memory yet (about 75 MB instead of 145 MB).
  const [{ createGlossaApp }, { startAdminChannel }] = await Promise.all([import('./bootstrap/create-app.js'), import('./cli/admin-channel.js')]);
  const glossa = await createGlossaApp(config);
  if (isFirstStartChild()) {
    await glossa.close();
    process.exit(0);
  }
  await glossa.app.listen(config.port, config.host);
  const logger = new Logger('Glossa');
  const database = config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `embedded PGlite in ${config.dataDir}`;
  logger.log(`Listening on http://${config.host}:${config.port}/api/ — database: ${database}`);
  // The embedded database has one owner; the admin CLI reaches it through this process (src/cli/admin-channel.ts).
  const adminChannel = config.databaseUrl ? null : await startAdminChannel(glossa.app, config, (message) => logger.warn(message));
  starting?.();

  let stopping = false;
  const stop = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    logger.log(`${signal} received, shutting down`);
    (adminChannel?.close() ?? Promise.resolve())
      .then(() => glossa.close())
      .then(() => process.exit(0))
      .catch((error: unknown) => {
        logger.error(error);
        process.exit(1);
      });
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
