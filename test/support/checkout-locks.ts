import { createHash } from 'node:crypto';
import { open, readFile, unlink } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { processIsAlive } from '../../src/database/embedded-lock';
import { pollUntil } from './wait';

// Coordination between the Jest workers of one checkout (jest.config.cjs runs two): a plain lock for work
// only one worker may do at a time (the build, an embedded first start).
// Everything lives in the temp directory, named after the checkout, like the parse worker's transpiled copy
// (src/formats/parse-worker/worker-script.ts); an entry left by a killed process is ignored once it is gone.

// Jest runs from the repository root (jest.config.cjs); ESM test modules have no __dirname.
const CHECKOUT = createHash('sha256').update(process.cwd()).digest('hex').slice(0, 16);

const lockPath = (name: string): string => path.join(os.tmpdir(), `glossa-${name}-${CHECKOUT}.lock`);

/** The pid written in a lock file, 0 when there is none yet (a holder that has not written its id) or no file. */
async function holderOf(lockFile: string): Promise<number> {
  return Number((await readFile(lockFile, 'utf8').catch(() => '')).trim()) || 0;
}

/**
 * Runs `work` while holding the lock file `name` of this checkout: the second worker waits for the first to
 * finish (an event: the lock file disappears). A lock left by a killed worker is taken over once its process
 * is gone.
 */
export async function withCheckoutLock<T>(name: string, holderWork: string, work: () => Promise<T>): Promise<T> {
  const lockFile = lockPath(name);
  await pollUntil(
    async () => {
      try {
        const handle = await open(lockFile, 'wx');
        await handle.writeFile(String(process.pid));
        await handle.close();
        return true;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        const holder = await holderOf(lockFile);
        // An empty file is a holder that has not written its id yet; a dead holder's lock is removed.
        if (holder > 0 && !processIsAlive(holder)) await unlink(lockFile).catch(() => undefined);
        return undefined;
      }
    },
    `the lock ${lockFile} (held by another Jest worker's ${holderWork})`,
  );
  try {
    return await work();
  } finally {
    await unlink(lockFile).catch(() => undefined);
  }
}
