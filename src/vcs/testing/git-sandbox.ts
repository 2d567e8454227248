import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { runGit } from '../git-runner';

// Test support: a throw-away "remote" (bare repository) seeded from a scratch working copy, all under
// os.tmpdir(), so specs exercise the real git binary without any network.

const TEST_IDENTITY = {
  GIT_AUTHOR_NAME: 'Upstream Dev',
  GIT_AUTHOR_EMAIL: 'dev@upstream.invalid',
  GIT_COMMITTER_NAME: 'Upstream Dev',
  GIT_COMMITTER_EMAIL: 'dev@upstream.invalid',
};

export interface GitSandbox {
  /** Temporary directory holding everything below. */
  root: string;
  /** Bare repository playing the remote. */
  upstream: string;
  /** Where a test may clone to (does not exist yet). */
  clonePath: string;
  /** Commits `files` (path → content) to upstream's `main` as the upstream developer; returns the revision. */
  commitUpstream(files: Record<string, string | Buffer>, message: string): Promise<string>;
  /** Runs git in any directory of the sandbox with the upstream identity. */
  git(cwd: string, args: string[]): Promise<string>;
  cleanup(): Promise<void>;
}

export async function createGitSandbox(files: Record<string, string | Buffer>): Promise<GitSandbox> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'glossa-git-'));
  const upstream = path.join(root, 'upstream.git');
  const seed = path.join(root, 'seed');
  const git = async (cwd: string, args: string[]): Promise<string> =>
    (await runGit(args, { cwd, allowLocal: true, env: TEST_IDENTITY })).stdout;

  await git(root, ['init', '--quiet', '--bare', '--initial-branch=main', upstream]);
  await git(root, ['init', '--quiet', '--initial-branch=main', seed]);
  await git(seed, ['remote', 'add', 'origin', upstream]);

  const commitUpstream = async (changes: Record<string, string | Buffer>, message: string): Promise<string> => {
    for (const [name, content] of Object.entries(changes)) {
      await mkdir(path.dirname(path.join(seed, name)), { recursive: true });
      await writeFile(path.join(seed, name), content);
    }
    await git(seed, ['add', '--all']);
    await git(seed, ['commit', '--quiet', '--message', message]);
    await git(seed, ['push', '--quiet', 'origin', 'main']);
    return (await git(seed, ['rev-parse', 'HEAD'])).trim();
  };
  await commitUpstream(files, 'Initial commit');

  return {
    root,
    upstream,
    clonePath: path.join(root, 'clone'),
    commitUpstream,
    git,
    cleanup: () => rm(root, { recursive: true, force: true }),
  };
}
