import { mkdtemp, rm } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import request from 'supertest';
import type { App } from 'supertest/types';
import type { DestinationStream } from 'pino';
import { createGlossaApp, GlossaApp } from '../../src/bootstrap/create-app';
import { AppConfig, loadConfig } from '../../src/config/app-config';
import { createTestDatabase, TestDatabase } from './test-database';

export const TEST_ADMIN_TOKEN = 'wlu_testadmintoken0000000000000000000000';

export interface TestApp {
  glossa: GlossaApp;
  config: AppConfig;
  database: TestDatabase;
  dataDir: string;
  /** supertest bound to the running server; API links in responses use its 127.0.0.1 origin. */
  http(): ReturnType<typeof request>;
  close(): Promise<void>;
}

export interface TestAppOptions {
  /** Settings that are not environment variables (a fake resolver for repository host checks). */
  config?: Partial<AppConfig>;
  /** Where the JSON log goes (with the app's LOG_LEVEL); without it the test app logs nothing. */
  logStream?: DestinationStream;
}

/**
 * The whole service on a fresh database and data directory, as `npm start` builds it, minus the demo
 * unless asked for. Environment overrides use the same names as the README's configuration table.
 */
export async function createTestApp(env: Record<string, string> = {}, options: TestAppOptions = {}): Promise<TestApp> {
  const database = await createTestDatabase();
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'glossa-test-'));
  const config: AppConfig = {
    ...loadConfig({
      DATABASE_URL: database.url,
      // The embedded database is one session: one connection, as `npm start` uses it (stack-evaluation.md §5).
      DATABASE_POOL_SIZE: process.env.GLOSSA_TEST_SERVER_URL ? '4' : '1',
      DATA_DIR: dataDir,
      DEMO: 'false',
      ADMIN_TOKEN: TEST_ADMIN_TOKEN,
      ALLOW_LOCAL_REPOSITORIES: 'true',
      LOG_LEVEL: 'error',
      SITE_URL: 'http://glossa.test',
      // Tests make many requests from one address; test/e2e/ratelimit.e2e-spec.ts sets small limits itself.
      RATE_LIMIT_ANON: '1000000/day',
      RATE_LIMIT_USER: '1000000/hour',
      RATE_LIMIT_HOOKS: '1000000/hour',
      ...env,
    }),
    ...options.config,
  };
  const glossa = await createGlossaApp(config, options.logStream ? { logStream: options.logStream } : { logger: false });
  await glossa.app.listen(0, '127.0.0.1');
  const server = glossa.app.getHttpServer() as App;
  return {
    glossa,
    config,
    database,
    dataDir,
    http: () => request(server),
    close: async () => {
      await glossa.close();
      await database.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
