import { lstat } from 'node:fs/promises';
import * as path from 'node:path';

// What opening a working copy learns from git (that the directory is the top of a working copy, the branch
// HEAD names, the configured remote URLs) cost two or three git processes per operation, and every process
// forks the whole server first (issue 11, docs/performance.md "One edit written back: fewer git processes and
// a remembered entry table"). The answers only change when git rewrites `.git/config` or `.git/HEAD`, or when
// the `.git` directory is replaced (a new clone is renamed into place). git rewrites both files by renaming a
// `.lock` file over them (a new inode), an editor changes at least the size or the mtime, so a stamp of those
// three is checked (three lstat calls; `.git` by identity only, its mtime moves with every commit's lock
// files) before the remembered answers are used, and anything different asks git again.

export interface WorkingCopyFacts {
  /** The remote URLs as `.git/config` holds them ('' when unset). */
  remote: { fetch: string; push: string };
  /** The branch HEAD names, when it was asked (only components without a configured branch need it). */
  headBranch?: string;
}

/** Remembered facts per working-copy directory, used while the directory's stamp is unchanged. */
export class WorkingCopyFactsCache {
  private readonly entries = new Map<string, { stamp: string; facts: WorkingCopyFacts }>();

  /**
   * The facts of `directory`: remembered ones while its stamp is unchanged, else `read()`'s (null: not a
   * working copy, nothing remembered). The stamp is taken before reading, so a change made while `read` runs
   * makes the next call read again.
   */
  async get(directory: string, read: () => Promise<WorkingCopyFacts | null>): Promise<WorkingCopyFacts | null> {
    const stamp = await workingCopyStamp(directory);
    const known = this.entries.get(directory);
    if (stamp !== null && known?.stamp === stamp) return known.facts;
    this.entries.delete(directory);
    const facts = await read();
    if (facts && stamp !== null) this.entries.set(directory, { stamp, facts });
    return facts;
  }
}

/** Identity of `.git`, identity and version of `.git/config` and `.git/HEAD`; null when one is missing (or `.git` is no directory). */
export async function workingCopyStamp(directory: string): Promise<string | null> {
  const gitDir = path.join(directory, '.git');
  try {
    const [dir, ...files] = await Promise.all([gitDir, path.join(gitDir, 'config'), path.join(gitDir, 'HEAD')].map((file) => lstat(file, { bigint: true })));
    if (!dir.isDirectory()) return null;
    // The directory by identity only: its mtime changes with every lock file git creates in it (each commit).
    return [`${dir.dev}:${dir.ino}`, ...files.map((info) => `${info.dev}:${info.ino}:${info.size}:${info.mtimeNs}:${info.ctimeNs}`)].join('/');
  } catch {
    return null;
  }
}
