import { lstat, readFile } from 'node:fs/promises';
import * as path from 'node:path';

// Reading the commit a branch points at from the files git keeps it in, instead of a `git rev-parse` process
// (issue 11: every process a commit request starts forks the whole server; see docs/performance.md "One edit
// written back: fewer git processes and a remembered entry table"). Only the plain layout is read: `.git` a
// directory, `HEAD` the symbolic ref `refs/heads/<branch>`, the branch a loose ref file holding one object
// id, which is what git's files backend leaves right after it moved the branch (a commit writes the loose ref
// even when the branch is also in packed-refs). Anything else (a `.git` file of a linked worktree, a detached
// or other HEAD, packed-only refs, the reftable backend, an unexpected content) answers null and the caller
// asks git.

const OBJECT_ID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

/** The commit id `refs/heads/<branch>` holds when HEAD names that branch, or null when git must be asked. */
export async function readBranchHead(workingCopy: string, branch: string): Promise<string | null> {
  try {
    const gitDir = path.join(workingCopy, '.git');
    if (!(await lstat(gitDir)).isDirectory()) return null;
    const head = (await readFile(path.join(gitDir, 'HEAD'), 'utf8')).trim();
    // `branch` passed assertBranchNameAllowed (GitRepository's constructor): no `..`, no leading `-`.
    if (head !== `ref: refs/heads/${branch}`) return null;
    const ref = path.join(gitDir, 'refs', 'heads', ...branch.split('/'));
    if (!(await lstat(ref)).isFile()) return null;
    const id = (await readFile(ref, 'utf8')).trim();
    return OBJECT_ID.test(id) ? id : null;
  } catch {
    return null;
  }
}
