import * as fs from 'node:fs';
import * as path from 'node:path';

// The embedded database's lock file, in its own module so the admin CLI can find out whether a server owns
// DATA_DIR without loading PGlite (a command forwarded to a running server stays well under a second).

/** Under DATA_DIR: holds the pid of the process that has the embedded database open. */
export const EMBEDDED_LOCK_FILE = 'glossa.lock';

/**
 * Set by a lock holder in the environment of a child it hands the database to (the first start's setup child,
 * src/bootstrap/first-start.ts): the holder's pid. The child then uses the directory under its parent's lock,
 * so no other process (an admin CLI call, a second server) can take the directory between the child's exit
 * and the server opening it.
 */
export const LOCK_HOLDER_ENV = 'GLOSSA_EMBEDDED_LOCK_HOLDER';

/** Refusal to open an embedded database another live process has open; the message is for the operator. */
export class EmbeddedDatabaseInUseError extends Error {}

/**
 * Creates the lock file with this process's pid already in it: written to a file of its own, then linked to the
 * lock's name, which fails if the lock exists. Opening the lock's name and then writing would leave a moment in
 * which the lock exists but names nobody, and a process reading it then (a second server, an admin command)
 * would take it for a stale lock.
 */
function createLockFile(lockPath: string): void {
  const written = `${lockPath}.${process.pid}`;
  fs.writeFileSync(written, String(process.pid));
  try {
    fs.linkSync(written, lockPath);
  } finally {
    fs.rmSync(written, { force: true });
  }
}

/** PGlite has no lock of its own: two processes on one directory silently lose data (§5). */
export function acquireLock(lockPath: string, env: NodeJS.ProcessEnv = process.env): () => void {
  const holder = Number(env[LOCK_HOLDER_ENV]);
  const release = () => fs.rmSync(lockPath, { force: true });
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      createLockFile(lockPath);
      return release;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = pidInFile(lockPath);
      // Held for this process by its parent: the parent keeps the lock and releases it.
      if (owner === holder && owner === process.ppid) return () => undefined;
      // This process holds it already (it prepared the first start, src/bootstrap/first-start.ts) and keeps it
      // as it is. Removing and creating it again left a moment in which the lock named no owner: an admin
      // command waiting for this server then found the directory free and ran in its own process, which the
      // lock, back a moment later, refused ("in use"; cli-embedded e2e under CPU contention, session 16).
      if (owner === process.pid) return release;
      if (owner !== null && processIsAlive(owner)) {
        throw new EmbeddedDatabaseInUseError(
          `The embedded database in ${path.dirname(lockPath)} is in use by process ${owner}. Stop that process, or let it run the command: a running server takes admin commands through its admin channel.`,
          { cause: error },
        );
      }
      // The previous owner died without cleaning up (kill -9): the lock is stale.
      fs.rmSync(lockPath, { force: true });
    }
  }
  throw new Error(`Could not lock ${lockPath}`);
}

/** Whether a process with this id runs (signal 0 only checks); EPERM means it runs under another user. */
export function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The live process (other than this one) that holds the embedded database under `dataDir`, if any. */
export function embeddedDatabaseOwner(dataDir: string): number | null {
  const owner = pidInFile(path.join(dataDir, EMBEDDED_LOCK_FILE));
  return owner !== null && owner !== process.pid && processIsAlive(owner) ? owner : null;
}

/** The process id a lock or mark file under DATA_DIR holds, or null (no file, or not a pid). */
export function pidInFile(file: string): number | null {
  let pid: number;
  try {
    pid = Number(fs.readFileSync(file, 'utf8').trim());
  } catch {
    return null;
  }
  return Number.isInteger(pid) && pid > 0 ? pid : null;
}
