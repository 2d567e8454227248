import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { AppConfig } from '../config/app-config';
import { createEmbeddedDataDirectory, embeddedDataDirectoryExists } from '../database/embedded-database';
import { acquireLock, EMBEDDED_LOCK_FILE, LOCK_HOLDER_ENV } from '../database/embedded-lock';

/** Set in the environment of the child that prepares a fresh embedded data directory (and only there). */
export const FIRST_START_CHILD_ENV = 'GLOSSA_FIRST_START_CHILD';

/** True in the short-lived child started by {@link prepareFirstStart}: build everything, then exit. */
export function isFirstStartChild(env: NodeJS.ProcessEnv = process.env): boolean {
  return env[FIRST_START_CHILD_ENV] === '1';
}

/**
 * The first start of the embedded default runs in a short-lived child process of the server (issue 15
 * item 3, docs/performance.md "Footprint"). PGlite runs PostgreSQL in WebAssembly inside the process, and a
 * WebAssembly memory never shrinks; glibc keeps what V8's compilers and the import freed. The first start's
 * work (initdb, every migration, the language table, the demo import) left the server 30–45 MB above a later
 * start for its whole life, over the 300 MB a laptop demo may hold. The child does exactly what the server
 * does on start (same code, same flags, so nothing first-start-only can drift) and exits; its memory goes
 * back to the system, and this process then opens an initialised directory like any later start (the
 * start-up tasks find the migrations, languages and demo in place).
 *
 * Only the embedded database: on PostgreSQL the server holds no database memory. A directory that exists
 * but was left half-prepared (the child killed) is finished in-process by the normal start, as before.
 *
 * This process takes the directory's lock before the child starts and keeps it after the child exits (the
 * child works under it, LOCK_HOLDER_ENV), so an admin command started meanwhile waits for this server's admin
 * channel instead of opening the directory itself in the gap between the child and the server.
 *
 * PGlite's initdb (`createDataDirectory`, a process of its own that peaks near 0.7 GB) runs from here, before
 * the setup child: while it runs, only this process (main.ts loads the application after this step) is beside
 * it, not the setup child with the whole application loaded too, about 0.1 GB less at the first start's peak
 * (docs/performance.md, session 9). The setup child then finds the directory and starts like a later start.
 */
export async function prepareFirstStart(
  config: AppConfig,
  entry: string,
  createDataDirectory: (dataDir: string) => Promise<void> = createEmbeddedDataDirectory,
): Promise<void> {
  if (config.databaseUrl || isFirstStartChild() || embeddedDataDirectoryExists(config.dataDir)) return;
  fs.mkdirSync(config.dataDir, { recursive: true });
  const releaseLock = acquireLock(path.join(config.dataDir, EMBEDDED_LOCK_FILE));
  let code: number | null;
  try {
    await createDataDirectory(config.dataDir);
    code = await new Promise<number | null>((resolve, reject) => {
      // The child's log lines (migrations, "Demo project imported") are the first start's: shown as they are.
      const child = spawn(process.execPath, [...process.execArgv, entry], {
        env: { ...process.env, [FIRST_START_CHILD_ENV]: '1', [LOCK_HOLDER_ENV]: String(process.pid) },
        stdio: 'inherit',
      });
      child.on('error', reject);
      child.on('exit', (exitCode, signal) => resolve(signal ? 128 : exitCode));
    });
  } catch (error) {
    releaseLock();
    throw error;
  }
  // On success the lock stays: the server's own start (startEmbeddedDatabase) takes it over as its owner.
  if (code !== 0) {
    releaseLock();
    throw new Error(`The first start (creating the embedded database in ${config.dataDir}) failed with exit code ${code}; see the messages above.`);
  }
}
