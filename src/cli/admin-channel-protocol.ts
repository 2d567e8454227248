import * as path from 'node:path';

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
