import { mkdtemp, rm } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { createGlossaApp } from '../../src/bootstrap/create-app';
import { loadConfig } from '../../src/config/app-config';

// Run by test/support/template-start.ts in a Jest of its own, before any test file: the service's start-up on
// the run's template database (GLOSSA_TEMPLATE_START_URL).

it('starts the service once on the test template and stops it', async () => {
  const databaseUrl = process.env.GLOSSA_TEMPLATE_START_URL;
  if (!databaseUrl) throw new Error('GLOSSA_TEMPLATE_START_URL is not set: this file is run by test/support/template-start.ts.');
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'glossa-template-start-'));
  try {
    const config = loadConfig({ DATABASE_URL: databaseUrl, DATABASE_POOL_SIZE: '1', DATA_DIR: dataDir, DEMO: 'false', LOG_LEVEL: 'error' });
    const glossa = await createGlossaApp(config, { logger: false });
    await glossa.close();
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
});
