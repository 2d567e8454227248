import type { GitRepositoryOptions } from './git-repository.types';
import { splitNul } from './git-output';
import { runGit } from './git-runner';
import { PUBLIC_HOSTS_ONLY } from './repository-host-policy';
import { assertBranchNameAllowed, assertRepositoryUrlAllowed } from './repository-url-policy';

// What a component's settings are validated against before the component exists (Weblate fetches the
// repository in Component.clean() and checks the file mask and template against it; issue 12). Only the
// names of the files at the tip of the branch are needed, so the clone is as small as git allows: one
// commit deep, without file contents (blob-less, where the server supports filters) and without a checkout.
// Every limit of a clone applies (URL and host policy, timeout, output buffer).

export interface RemoteFiles {
  /** The branch read: the one asked for, or the remote's default branch. */
  branch: string;
  /** Tracked paths at the tip of the branch, with `/` separators. */
  files: string[];
}

/**
 * Lists the files of `branch` ('' for the remote's default branch) of `url`, cloning into `scratch`, an empty
 * directory the caller removes afterwards. Throws GitCommandError (or GitNetworkError) when git fails.
 */
export async function listRemoteFiles(url: string, branch: string, scratch: string, options: GitRepositoryOptions): Promise<RemoteFiles> {
  assertRepositoryUrlAllowed(url, { allowLocal: options.allowLocal });
  if (branch !== '') assertBranchNameAllowed(branch);
  const network = { urls: [url], direction: 'fetch' as const, policy: options.hostPolicy ?? PUBLIC_HOSTS_ONLY, lookup: options.hostLookup };
  const run = { allowLocal: options.allowLocal, timeoutMs: options.timeoutMs };
  await runGit(
    [
      'clone', '--no-local', '--depth', '1', '--filter=blob:none', '--no-checkout', '--single-branch', '--no-tags',
      ...(branch !== '' ? ['--branch', branch] : []),
      '--', url, scratch,
    ],
    { ...run, network },
  );
  const head = (await runGit(['symbolic-ref', '--short', 'HEAD'], { ...run, cwd: scratch })).stdout.trim();
  const listing = await runGit(['ls-tree', '-r', '-z', '--name-only', '--full-tree', 'HEAD'], { ...run, cwd: scratch });
  return { branch: head, files: splitNul(listing.stdout) };
}
