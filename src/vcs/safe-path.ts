import { realpath, stat } from 'node:fs/promises';
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
