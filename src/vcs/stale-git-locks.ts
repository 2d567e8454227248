import { lstat, readdir, rm } from 'node:fs/promises';
import * as path from 'node:path';

// Issue 10, item 7: git takes a lock by creating `<file>.lock` next to the file it rewrites (`index.lock`,
// `HEAD.lock`, `refs/heads/main.lock`, `config.lock`, `packed-refs.lock`, `shallow.lock`, …) and renames
// it over the file when done. A git killed in between (kill -9 of the server, an OOM kill, a container
// stop) leaves the lock behind, and every later git command that needs that file fails with "Unable to
// create '…/index.lock': File exists" until someone removes it. Removing a lock is only safe when no git
// process can be running in the repository: callers establish that first (see ProcessClaims and
// GitRepository.locked), this module only finds and removes the files.

/** Directories under `.git` whose files git writes through `.lock` files (refs nest arbitrarily deep). */
const NESTED = ['refs', 'logs', path.join('objects', 'info'), path.join('objects', 'pack')];
/** Ref names nest, but never this deep in a Glossa clone; the bound keeps a hostile tree from costing much. */
const MAX_DEPTH = 12;

/** Removes every `*.lock` file git may have left in the repository of `workingCopy`; answers them (relative to the working copy). */
export async function removeStaleGitLocks(workingCopy: string): Promise<string[]> {
  const gitDir = path.join(workingCopy, '.git');
  const info = await lstat(gitDir).catch(() => null);
  // Only a real .git directory (never a symlink or a `gitdir:` file pointing elsewhere).
  if (!info?.isDirectory()) return [];
  const found: string[] = [];
  await collectLocks(gitDir, 0, found, false);
  for (const nested of NESTED) await collectLocks(path.join(gitDir, nested), 0, found, true);
  for (const file of found) await rm(file, { force: true });
  return found.map((file) => path.relative(workingCopy, file).split(path.sep).join('/'));
}

async function collectLocks(directory: string, depth: number, found: string[], recurse: boolean): Promise<void> {
  const entries = await readdir(directory, { withFileTypes: true }).catch(() => []);
  for (const entry of entries) {
    const full = path.join(directory, entry.name);
    // Dirent types come from lstat: a symlink is neither a file nor a directory here, so none is followed.
    if (entry.isFile() && entry.name.endsWith('.lock')) found.push(full);
    else if (recurse && entry.isDirectory() && depth < MAX_DEPTH) await collectLocks(full, depth + 1, found, true);
  }
}
