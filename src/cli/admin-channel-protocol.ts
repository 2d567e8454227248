import * as fs from 'node:fs';
import * as path from 'node:path';
import { pidInFile } from '../database/embedded-lock';

// The admin channel's wire format, shared by the server (admin-channel.ts) and `npx glossa`
// (admin-channel-client.ts). One request per connection, newline-delimited JSON both ways:
//   client -> server: {"argv": ["createadmin", "--username", "alice"]}
//   server -> client: {"out": "..."} | {"err": "..."} | {"progress": 42} ... then {"exit": 0}

/** Under DATA_DIR, beside the embedded database's lock file. */
export const ADMIN_SOCKET_FILE = 'admin.sock';
/** A command line is short; anything longer is not a CLI invocation. */
export const MAX_ADMIN_REQUEST_BYTES = 64 * 1024;
export const MAX_ADMIN_ARGS = 100;

export type AdminReply = { out: string } | { err: string } | { progress: number } | { exit: number };

export function adminSocketPath(dataDir: string): string {
  return path.join(dataDir, ADMIN_SOCKET_FILE);
}

/**
 * Under DATA_DIR while a server starts on the embedded database: its pid, from before it takes the database's
 * lock until its admin channel opens. A command that finds the lock's owner named here waits for the channel
 * as long as that process lives (a first start on a slow machine can take minutes), instead of the bounded
 * wait it gives an owner that may never open one (another command running in-process).
 */
export const ADMIN_STARTING_FILE = 'admin.starting';

/** Marks this process as a server starting on `dataDir`; answers the function that removes the mark (also run at exit). */
export function markServerStarting(dataDir: string): () => void {
  const file = path.join(dataDir, ADMIN_STARTING_FILE);
  fs.mkdirSync(dataDir, { recursive: true });
  fs.writeFileSync(file, String(process.pid));
  const clear = (): void => {
    process.removeListener('exit', clear);
    // Only this process's own mark: a second server refused on the same directory must not clear the first's.
    if (startingServer(dataDir) === process.pid) fs.rmSync(file, { force: true });
  };
  process.once('exit', clear);
  return clear;
}

/** The pid a starting server wrote under `dataDir`, or null. */
export function startingServer(dataDir: string): number | null {
  return pidInFile(path.join(dataDir, ADMIN_STARTING_FILE));
}

/** `{"argv": [...]}` with at most MAX_ADMIN_ARGS strings, or null. */
export function parseAdminRequest(line: string): string[] | null {
  let request: unknown;
  try {
    request = JSON.parse(line);
  } catch {
    return null;
  }
  const argv = (request as { argv?: unknown } | null)?.argv;
  if (!Array.isArray(argv) || argv.length > MAX_ADMIN_ARGS || !argv.every((arg) => typeof arg === 'string')) return null;
  return argv as string[];
}
