import { lstat, realpath, stat } from 'node:fs/promises';
import * as path from 'node:path';

// File names reach the working copy from API users (filemask matches, uploads, downloads). Weblate was hit
// repeatedly by symlinks inside cloned repositories that pointed at server files (GHSA-g925-f788-4jh7,
// GHSA-hv99-mxm5-q397) and by a prefix check that let `repo_outside` pass as inside `repo`
// (GHSA-ffgh-3jrf-8wvh). So: reject traversal lexically, then resolve symlinks and compare whole path
// segments, and keep `.git` (which holds remote URLs with credentials) out of reach.

/** A path that would leave the working copy or touch git's own data. */
export class UnsafePathError extends Error {
  override readonly name = 'UnsafePathError';
}

/** Lexical checks only: relative, no `..`, no `.git`, no NUL. Returns the normalised POSIX path. */
export function assertSafeRelativePath(relativePath: string): string {
  if (typeof relativePath !== 'string' || relativePath === '' || relativePath.includes('\0')) {
    throw new UnsafePathError('File path must be a non-empty relative path.');
  }
  if (path.posix.isAbsolute(relativePath) || path.win32.isAbsolute(relativePath)) {
    throw new UnsafePathError(`File path "${relativePath}" must be relative to the repository.`);
  }
  const segments = relativePath.split(/[\\/]/);
  if (segments.includes('..')) throw new UnsafePathError(`File path "${relativePath}" must not contain "..".`);
  if (segments.some((segment) => segment.toLowerCase() === '.git')) {
    throw new UnsafePathError(`File path "${relativePath}" must not point into .git.`);
  }
  return path.posix.normalize(relativePath);
}

/** Whether `candidate` is `root` or inside it, comparing whole segments (so `/a/repo2` is not in `/a/repo`). */
export function isInside(root: string, candidate: string): boolean {
  const relative = path.relative(root, candidate);
  return relative === '' || (relative !== '..' && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative));
}

/**
 * Resolves `relativePath` to the real path of an existing regular file inside `root`, following symlinks only
 * while they stay inside. Throws {@link UnsafePathError} otherwise (and ENOENT errors pass through).
 */
export async function resolveFileInside(root: string, relativePath: string): Promise<string> {
  const clean = assertSafeRelativePath(relativePath);
  const realRoot = await realpath(root);
  const real = await realpath(path.join(realRoot, clean));
  const inside = path.relative(realRoot, real);
  if (!isInside(realRoot, real) || inside.split(path.sep).some((s) => s.toLowerCase() === '.git')) {
    throw new UnsafePathError(`File path "${relativePath}" points outside the repository.`);
  }
  if (!(await stat(real)).isFile()) throw new UnsafePathError(`File path "${relativePath}" is not a regular file.`);
  return real;
}

/** Where a file will be written, and the directories to create first (outermost first). */
export interface FileWritePlan {
  target: string;
  missing: string[];
}

/**
 * Checks, without creating anything, that `relativePath` can be written inside `root` (issue 10, item 10: a
 * symlinked language directory made `mkdir -p` create directories outside the checkout before the old check
 * ran): every directory on the way that exists must resolve inside `root` and outside `.git`, none may be a
 * broken symlink, and the file itself, when it exists, must be a regular file, not a symlink. The missing
 * directories sit under a checked real directory, so creating them one by one never leaves the working copy.
 */
export async function planFileInside(root: string, relativePath: string): Promise<FileWritePlan> {
  const clean = assertSafeRelativePath(relativePath);
  const realRoot = await realpath(root);
  const segments = clean.split('/');
  const missing: string[] = [];
  let current = realRoot;
  for (const segment of segments.slice(0, -1)) {
    const next = path.join(current, segment);
    if (missing.length > 0 || (await lstat(next).catch(() => null)) === null) {
      missing.push(next);
      current = next;
      continue;
    }
    const real = await realpath(next).catch(() => null);
    if (real === null) throw new UnsafePathError(`File path "${relativePath}" goes through a broken symlink.`);
    const inside = path.relative(realRoot, real);
    if (!isInside(realRoot, real) || inside.split(path.sep).some((s) => s.toLowerCase() === '.git')) {
      throw new UnsafePathError(`File path "${relativePath}" points outside the repository.`);
    }
    if (!(await stat(real)).isDirectory()) throw new UnsafePathError(`File path "${relativePath}" goes through a file.`);
    current = real;
  }
  const target = path.join(current, segments[segments.length - 1]);
  const existing = missing.length > 0 ? null : await lstat(target).catch(() => null);
  if (existing && !existing.isFile()) throw new UnsafePathError(`File path "${relativePath}" is not a regular file.`);
  return { target, missing };
}
