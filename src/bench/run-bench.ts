import 'reflect-metadata';
import { mkdtemp, rm } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { createGlossaApp } from '../bootstrap/create-app';
import { loadConfig } from '../config/app-config';
import { runLoad, startBaselineServer } from './load';

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);

/** Endpoints measured, all from the demo component (the spec's five plus the busiest lists). */
const ENDPOINTS = [
  '/api/translations/demo/app/cs/units/',
  '/api/translations/demo/app/cs/changes/',
  '/api/translations/demo/app/cs/',
  '/api/components/demo/app/',
  '/api/users/admin/notifications/',
  '/api/projects/',
];

/**
 * `npm run bench`: Glossa on the database of the environment (DATABASE_URL, else embedded PGlite in a
 * temporary directory) with the demo data, against a bare node:http server sending the same bytes,
 * measured in the same run on the same machine (architecture.md "Performance principles").
 */
async function main(): Promise<void> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'glossa-bench-'));
  const config = loadConfig({
    ...process.env,
    DATA_DIR: dataDir,
    DEMO: 'true',
    LOG_LEVEL: 'error',
    ADMIN_TOKEN: process.env.ADMIN_TOKEN ?? 'wlu_benchmarkadmintoken000000000000000',
  });
  const glossa = await createGlossaApp(config, { logger: false });
  await glossa.app.listen(0, '127.0.0.1');
  const port = (glossa.app.getHttpServer().address() as { port: number }).port;
  const database = config.databaseUrl ? 'PostgreSQL' : 'embedded PGlite';
  console.log(`Glossa bench: ${CONNECTIONS} connections, ${SECONDS} s per endpoint, database: ${database}`);
  try {
    for (const endpoint of ENDPOINTS) {
      const url = `http://127.0.0.1:${port}${endpoint}`;
      const response = await fetch(url);
      const body = Buffer.from(await response.arrayBuffer());
      if (response.status !== 200) throw new Error(`${endpoint} answered ${response.status}`);
      const baseline = await startBaselineServer(body);
      const bare = await runLoad(baseline.url, CONNECTIONS, SECONDS);
      await baseline.close();
      const glossaLoad = await runLoad(url, CONNECTIONS, SECONDS);
      const share = ((glossaLoad.perSecond / bare.perSecond) * 100).toFixed(1);
      console.log(
        `${endpoint.padEnd(44)} ${body.length.toString().padStart(7)} B  glossa ${glossaLoad.perSecond.toFixed(0).padStart(6)} req/s ` +
          `p50 ${glossaLoad.p50Ms.toFixed(1)} ms p99 ${glossaLoad.p99Ms.toFixed(1)} ms errors ${glossaLoad.errors}  |  ` +
          `bare node:http ${bare.perSecond.toFixed(0).padStart(6)} req/s  (${share}% of bare)`,
      );
    }
  } finally {
    await glossa.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
