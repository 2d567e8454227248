import * as fs from 'node:fs';
import * as path from 'node:path';

// The embedded database's lock file, in its own module so the admin CLI can find out whether a server owns
// DATA_DIR without loading PGlite (a command forwarded to a running server stays well under a second).

/** Under DATA_DIR: holds the pid of the process that has the embedded database open. */
export const EMBEDDED_LOCK_FILE = 'glossa.lock';

/** PGlite has no lock of its own: two processes on one directory silently lose data (§5). */
export function acquireLock(lockPath: string): () => void {
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      const fd = fs.openSync(lockPath, 'wx');
      fs.writeSync(fd, String(process.pid));
      fs.closeSync(fd);
      return () => fs.rmSync(lockPath, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = Number(fs.readFileSync(lockPath, 'utf8').trim());
      if (Number.isInteger(owner) && owner > 0 && owner !== process.pid && isAlive(owner)) {
        throw new Error(`The embedded database in ${path.dirname(lockPath)} is in use by process ${owner}.`, { cause: error });
      }
      // The previous owner died without cleaning up (kill -9): the lock is stale.
      fs.rmSync(lockPath, { force: true });
    }
  }
  throw new Error(`Could not lock ${lockPath}`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The live process (other than this one) that holds the embedded database under `dataDir`, if any. */
export function embeddedDatabaseOwner(dataDir: string): number | null {
  let owner: number;
  try {
    owner = Number(fs.readFileSync(path.join(dataDir, EMBEDDED_LOCK_FILE), 'utf8').trim());
  } catch {
    return null;
  }
  return Number.isInteger(owner) && owner > 0 && owner !== process.pid && isAlive(owner) ? owner : null;
}
