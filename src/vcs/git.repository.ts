import { constants as fsConstants } from 'node:fs';
import { lstat, mkdir, readFile, realpath, rm, stat, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { COMMIT_INFO_FORMAT, CommitInfo, parseCommitInfo } from './commit-info';
import { gitBlobHash } from './git-blob-hash';
import { readBranchHead } from './head-ref';
import { DEFAULT_COMMITTER, GitIdentity, formatGitIdentity, identityEnvironment } from './git-identity';
import { GitCommandError, GitResult, NetworkAccess, runGit } from './git-runner';
import { PUBLIC_HOSTS_ONLY } from './repository-host-policy';
import { withLock } from './repository-lock';
import { assertBranchNameAllowed, assertRepositoryUrlAllowed } from './repository-url-policy';
import { AheadBehind, GitRepositoryOptions, MergeResult, RepositoryClaims } from './git-repository.types';
import { removeStaleGitLocks } from './stale-git-locks';
import { assertRevision, ignoreExitCode, splitNul } from './git-output';
import { assertSafeRelativePath, planFileInside, resolveFileInside } from './safe-path';

export { gitBlobHash } from './git-blob-hash';
export type { CommitInfo } from './commit-info';
export type { GitIdentity } from './git-identity';
export type { AheadBehind, GitRepositoryOptions, MergeResult, RepositoryClaims } from './git-repository.types';

const DEFAULT_LOCK_TIMEOUT_MS = 120_000;
// Keeps each `git add` command line well below the kernel's argument size limit.
const ADD_BATCH = 500;

/**
 * One working copy on disk tracking `origin/<branch>`. Every method holds the repository's lock for its
 * whole duration, so callers never see a half-finished merge or commit.
 */
export class GitRepository {
  readonly path: string;

  constructor(
    workingCopy: string,
    readonly branch: string,
    private readonly options: GitRepositoryOptions,
  ) {
    assertBranchNameAllowed(branch);
    this.path = path.resolve(workingCopy);
  }

  /** Clones `url` (only `branch`, no tags, no submodules) into `target`, which must not exist or be empty. */
  static async clone(url: string, branch: string, target: string, options: GitRepositoryOptions): Promise<GitRepository> {
    assertRepositoryUrlAllowed(url, { allowLocal: options.allowLocal });
    const repository = new GitRepository(target, branch, options);
    await repository.locked(() =>
      runGit(
        // --no-local: even a local source goes through the file transport, so the protocol allow-list applies
        // and nothing is hard-linked from (or symlinked into) the source's object store (CVE-2022-39253).
        ['clone', '--no-local', '--branch', branch, '--single-branch', '--no-tags', '--', url, repository.path],
        { allowLocal: options.allowLocal, timeoutMs: options.timeoutMs, network: repository.network([url], 'fetch') },
      ),
    );
    return repository;
  }

  /** Whether `directory` is the top of a git working copy. */
  static async isWorkingCopy(directory: string): Promise<boolean> {
    try {
      const { stdout } = await runGit(['rev-parse', '--show-toplevel'], { cwd: directory });
      return stdout.trim() === (await realpath(directory));
    } catch {
      return false;
    }
  }

  /** Points `origin` at new URLs (checked against the policy); `pushUrl` undefined removes a push URL. */
  async setRemoteUrl(url: string, pushUrl?: string): Promise<void> {
    this.assertUrl(url);
    if (pushUrl !== undefined) this.assertUrl(pushUrl);
    await this.gitLocked(async () => {
      await this.git(['config', '--replace-all', 'remote.origin.url', url]);
      await this.git(['config', '--unset-all', 'remote.origin.pushurl']).catch(ignoreExitCode(5));
      if (pushUrl !== undefined) await this.git(['config', 'remote.origin.pushurl', pushUrl]);
    });
  }

  /** The configured `origin` URL and push URL ('' when none is set), as stored in the working copy. */
  async remoteUrls(): Promise<{ fetch: string; push: string }> {
    return this.gitLocked(async () => {
      // Both keys in one git process (every repository operation opens the working copy this way). -z: each
      // entry is `key\nvalue\0`; like `config --get`, the last value of a key wins. Exit code 1: neither is set.
      const { stdout } = await this.git(['config', '-z', '--get-regexp', '^remote\\.origin\\.(url|pushurl)$']).catch(ignoreExitCode(1, { stdout: '' }));
      const urls = { fetch: '', push: '' };
      for (const entry of splitNul(stdout)) {
        const newline = entry.indexOf('\n');
        const key = newline === -1 ? entry : entry.slice(0, newline);
        const value = newline === -1 ? '' : entry.slice(newline + 1).trim();
        if (key === 'remote.origin.url') urls.fetch = value;
        else if (key === 'remote.origin.pushurl') urls.push = value;
      }
      return urls;
    });
  }

  /** Updates `origin/<branch>` from the remote. */
  async fetch(): Promise<void> {
    await this.gitLocked(async () => {
      const { fetchUrls } = await this.assertConfiguredRemotes();
      const refspec = `+refs/heads/${this.branch}:${this.remoteRef()}`;
      await this.git(['fetch', '--prune', '--no-tags', '--no-recurse-submodules', '--', 'origin', refspec], undefined, this.network(fetchUrls, 'fetch'));
    });
  }

  /**
   * Merges `origin/<branch>` into the local branch (a fast-forward when there are no local commits); a failed
   * merge is aborted and reported, not thrown. `message` is the merge commit's message (the caller renders
   * the component's merge_message).
   */
  async mergeUpstream(message = `Merge branch 'origin/${this.branch}'`, options: { noFastForward?: boolean } = {}): Promise<MergeResult> {
    return this.gitLocked(async () => {
      const committer = this.options.committer ?? DEFAULT_COMMITTER;
      const fastForward = options.noFastForward ? ['--no-ff'] : [];
      try {
        await this.git(['merge', '--no-edit', '--no-gpg-sign', ...fastForward, `--message=${message}`, '--', this.remoteRef()], identityEnvironment(committer));
        return { merged: true };
      } catch (error) {
        if (!(error instanceof GitCommandError) || error.exitCode === null) throw error;
        if (await this.hasRef('MERGE_HEAD')) await this.git(['merge', '--abort']);
        return { merged: false, conflict: conflictText(error) };
      }
    });
  }

  /**
   * Replays the local commits on top of `origin/<branch>` (Weblate's merge_style "rebase"): authors and
   * messages are kept, the committer is the configured one. A failed rebase is aborted (the branch is back
   * where it was) and reported, not thrown.
   */
  async rebaseUpstream(): Promise<MergeResult> {
    return this.gitLocked(async () => {
      const committer = this.options.committer ?? DEFAULT_COMMITTER;
      try {
        // The upstream ref is built from a validated branch name, never option-looking.
        await this.git(['-c', 'commit.gpgSign=false', 'rebase', '--no-autostash', '--no-autosquash', this.remoteRef()], identityEnvironment(committer));
        return { merged: true };
      } catch (error) {
        if (!(error instanceof GitCommandError) || error.exitCode === null) throw error;
        if ((await this.hasRef('REBASE_HEAD')) || (await this.rebaseInProgress())) await this.git(['rebase', '--abort']);
        return { merged: false, conflict: conflictText(error) };
      }
    });
  }

  /** Whether a stopped rebase left its state directory behind. */
  private async rebaseInProgress(): Promise<boolean> {
    for (const name of ['rebase-merge', 'rebase-apply']) {
      const { stdout } = await this.git(['rev-parse', '--git-path', name]);
      const exists = await stat(path.resolve(this.path, stdout.trim())).then(() => true, () => false);
      if (exists) return true;
    }
    return false;
  }

  async headRevision(): Promise<string> {
    return this.gitLocked(() => this.revParse('HEAD'));
  }

  async remoteRevision(): Promise<string> {
    return this.gitLocked(() => this.revParse(this.remoteRef()));
  }

  /** Commit counts between the local branch and `origin/<branch>` as last fetched. */
  async aheadBehind(): Promise<AheadBehind> {
    return this.gitLocked(async () => {
      const { stdout } = await this.git(['rev-list', '--left-right', '--count', `HEAD...${this.remoteRef()}`, '--']);
      const [ahead, behind] = stdout.trim().split(/\s+/).map(Number);
      return { ahead, behind };
    });
  }

  async needsMerge(): Promise<boolean> {
    return (await this.aheadBehind()).behind > 0;
  }

  async needsPush(): Promise<boolean> {
    return (await this.aheadBehind()).ahead > 0;
  }

  /** Whether the working tree has uncommitted changes (tracked or untracked). */
  async needsCommit(): Promise<boolean> {
    return this.gitLocked(async () => (await this.git(['--no-optional-locks', 'status', '--porcelain'])).stdout !== '');
  }

  /** `git status` text plus removable untracked files, as Weblate shows in the repository status `status`. */
  async status(): Promise<string> {
    return this.gitLocked(async () => {
      const { stdout } = await this.git(['--no-optional-locks', 'status']);
      const cleanups = (await this.git(['clean', '-f', '-d', '-n'])).stdout;
      return cleanups ? `${stdout}\nPossible cleanups:\n\n${cleanups}` : stdout;
    });
  }

  /** Git blob id of the file as it is in the working tree now (Weblate's translation `revision`). */
  async blobHash(relativePath: string): Promise<string> {
    return gitBlobHash(await this.readFile(relativePath));
  }

  /** Details of `revision` (default HEAD) in the shape of Weblate's `remote_commit`. */
  async lastCommit(revision = 'HEAD'): Promise<CommitInfo> {
    assertRevision(revision);
    return this.gitLocked(async () => {
      const { stdout } = await this.git(['log', '-1', '--no-show-signature', COMMIT_INFO_FORMAT, '--end-of-options', revision, '--']);
      return parseCommitInfo(stdout);
    });
  }

  /** Details of `origin/<branch>` as last fetched. */
  async lastRemoteCommit(): Promise<CommitInfo> {
    return this.lastCommit(this.remoteRef());
  }

  /** Tracked files, relative to the working copy, with `/` separators. */
  async listFiles(): Promise<string[]> {
    return this.gitLocked(async () => splitNul((await this.git(['ls-files', '-z'])).stdout));
  }

  /** Contents of a file in the working tree; refuses paths that leave it or point into `.git`. */
  async readFile(relativePath: string): Promise<Buffer> {
    return this.locked(async () => readFile(await resolveFileInside(this.path, relativePath)));
  }

  /** Size in bytes of a file of the working tree (same path rules as readFile), to refuse huge files unread. */
  async fileSize(relativePath: string): Promise<number> {
    return this.locked(async () => (await stat(await resolveFileInside(this.path, relativePath))).size);
  }

  /**
   * Writes a file of the working tree (creating its directories). Refuses paths that leave the working copy,
   * point into `.git`, or go through a symlink (the file itself or a directory resolving elsewhere), and checks
   * that before it creates anything (planFileInside).
   */
  async writeFile(relativePath: string, content: Buffer): Promise<void> {
    await this.locked(async () => {
      const { target, missing } = await planFileInside(this.path, relativePath);
      for (const directory of missing) {
        await mkdir(directory).catch(async (error: NodeJS.ErrnoException) => {
          // Created meanwhile: fine only as a real directory.
          if (error.code !== 'EEXIST' || !(await lstat(directory)).isDirectory()) throw error;
        });
      }
      // O_NOFOLLOW: a symlink put in the file's place after the check is refused, not followed.
      await writeFile(target, content, { flag: fsConstants.O_WRONLY | fsConstants.O_CREAT | fsConstants.O_TRUNC | fsConstants.O_NOFOLLOW });
    });
  }

  /** Throws UnsafePathError when writeFile would refuse `relativePath`; creates nothing. */
  async assertWritable(relativePath: string): Promise<void> {
    await this.locked(() => planFileInside(this.path, relativePath));
  }

  /** Removes a file of the working tree (nothing when it is already gone); same path rules as readFile. */
  async removeFile(relativePath: string): Promise<void> {
    await this.locked(async () => {
      const file = await resolveFileInside(this.path, relativePath).catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return null;
        throw error;
      });
      if (file) await rm(file);
    });
  }

  /** `git reset --hard origin/<branch>`: drops local commits and changes to tracked files (Weblate's reset). */
  async resetToUpstream(): Promise<void> {
    await this.gitLocked(async () => {
      await this.git(['reset', '--quiet', '--hard', this.remoteRef(), '--']);
    });
  }

  /** `git clean -f -d`: removes untracked files and directories (Weblate's cleanup). */
  async clean(): Promise<void> {
    await this.gitLocked(async () => {
      await this.git(['clean', '-f', '-d']);
    });
  }

  /** Paths changed between two revisions (renames as delete + add). */
  async changedFiles(fromRev: string, toRev: string): Promise<string[]> {
    assertRevision(fromRev);
    assertRevision(toRev);
    return this.gitLocked(async () => {
      const args = ['diff', '--name-only', '-z', '--no-renames', '--no-ext-diff', '--end-of-options', fromRev, toRev, '--'];
      return splitNul((await this.git(args)).stdout);
    });
  }

  /**
   * Stages `files` and commits them as `author` (the committer comes from the options). Resolves with the new
   * revision, or null when the files had no changes.
   */
  async commit(message: string, author: GitIdentity, files: string[], options: { date?: Date } = {}): Promise<string | null> {
    // DEFAULT_COMMITTER as author means "no user" (a system commit): it is made by the configured committer,
    // the site, so that every commit without a translator names the same identity.
    const authorText = formatGitIdentity(author === DEFAULT_COMMITTER ? (this.options.committer ?? DEFAULT_COMMITTER) : author);
    const paths = files.map(assertSafeRelativePath);
    if (paths.length === 0) return null;
    return this.gitLocked(async () => {
      const env = identityEnvironment(this.options.committer ?? DEFAULT_COMMITTER, author);
      if (options.date) env.GIT_AUTHOR_DATE = options.date.toISOString();
      // --quiet: the summary git prints otherwise holds a diffstat, i.e. a diff of every committed file
      // (a third of a CPU second for a 6 MB PO file, issue 11).
      const commitArgs = ['commit', '--quiet', '--no-verify', '--no-gpg-sign', `--author=${authorText}`, `--message=${message}`];
      for (let i = 0; i < paths.length; i += ADD_BATCH) {
        // --force like Weblate: a translation file matched by .gitignore must still be committed.
        await this.git(['add', '--force', '--', ...paths.slice(i, i + ADD_BATCH)]);
      }
      // No separate `diff --cached --quiet` first: `git commit` itself refuses with exit code 1 when nothing
      // is staged, and only then is the index asked whether that was the reason (so an empty message stays an
      // error).
      try {
        await this.git(commitArgs, env);
      } catch (error) {
        if (!(error instanceof GitCommandError) || error.exitCode !== 1) throw error;
        const staged = await this.git(['diff', '--cached', '--quiet']).then(() => false, ignoreExitCode(1, true));
        if (!staged) return null;
        throw error;
      }
      return this.committedHead();
    });
  }

  /** The commit just made: read from the branch's ref file when the layout allows it (head-ref.ts), else asked. */
  private async committedHead(): Promise<string> {
    return (await readBranchHead(this.path, this.branch)) ?? this.revParse('HEAD');
  }

  /** Pushes the local branch to `remoteBranch` (default: the same name) on origin (its push URL if set). */
  async push(remoteBranch: string = this.branch): Promise<void> {
    assertBranchNameAllowed(remoteBranch);
    await this.gitLocked(async () => {
      const { pushUrls } = await this.assertConfiguredRemotes();
      const refspec = `refs/heads/${this.branch}:refs/heads/${remoteBranch}`;
      await this.git(['push', '--no-verify', '--', 'origin', refspec], undefined, this.network(pushUrls, 'push'));
    });
  }

  private remoteRef(): string {
    return `refs/remotes/origin/${this.branch}`;
  }

  /**
   * Removes the lock files a killed git left in `workingCopy` (issue 10, item 7), when no live process works
   * in it; answers what was removed. Every git operation of a GitRepository does this first; this is for
   * start-up, before any operation.
   */
  static recoverStaleLocks(workingCopy: string, options: Pick<GitRepositoryOptions, 'claims' | 'onStaleLocks' | 'lockTimeoutMs'> = {}): Promise<string[]> {
    const directory = path.resolve(workingCopy);
    let removed: string[] = [];
    return withLock(
      directory,
      async () => {
        const release = await claimRepository(directory, options.claims, async () => {
          removed = await removeStaleLocksReported(directory, options.onStaleLocks);
        });
        await release();
        return removed;
      },
      { timeoutMs: options.lockTimeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS },
    );
  }

  /** Holds the in-process lock: for file work that runs no git. */
  private locked<T>(fn: () => Promise<T>): Promise<T> {
    return withLock(this.path, fn, { timeoutMs: this.options.lockTimeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS });
  }

  /**
   * Holds the in-process lock and this process's claim on the repository while `fn` runs git. Holding the
   * in-process lock means no git of this process runs here; when no other live process has the repository
   * claimed either, any git lock file found is a killed git's and is removed first (issue 10, item 7).
   */
  private gitLocked<T>(fn: () => Promise<T>): Promise<T> {
    return this.locked(async () => {
      const release = await claimRepository(this.path, this.options.claims, async () => {
        await removeStaleLocksReported(this.path, this.options.onStaleLocks);
      });
      try {
        return await fn();
      } finally {
        await release();
      }
    });
  }

  private git(args: string[], env?: Record<string, string>, network?: NetworkAccess): Promise<GitResult> {
    // A detached automatic gc/maintenance would keep running in the working copy after the command returned,
    // outside the lock and the claim, and its lock files would look abandoned: run it in the foreground.
    const foreground = ['-c', 'gc.autoDetach=false', '-c', 'maintenance.autoDetach=false'];
    return runGit([...foreground, ...args], { cwd: this.path, allowLocal: this.options.allowLocal, timeoutMs: this.options.timeoutMs, env, network });
  }

  /** What a command reaching `urls` needs: the host policy (issue 10 item 6), checked by runGit. */
  private network(urls: string[], direction: NetworkAccess['direction']): NetworkAccess {
    return { urls, direction, policy: this.options.hostPolicy ?? PUBLIC_HOSTS_ONLY, lookup: this.options.hostLookup };
  }

  private async revParse(ref: string): Promise<string> {
    return (await this.git(['rev-parse', '--verify', '--end-of-options', `${ref}^{commit}`])).stdout.trim();
  }

  private async hasRef(ref: string): Promise<boolean> {
    return this.git(['rev-parse', '-q', '--verify', '--end-of-options', ref]).then(() => true, ignoreExitCode(1, false));
  }

  private assertUrl(url: string): void {
    assertRepositoryUrlAllowed(url, { allowLocal: this.options.allowLocal });
  }

  // The URLs in .git/config were checked when set, but the file is on disk; check again before git uses them.
  // Resolves with the URLs git fetches from and pushes to (the push URL, or the URL when there is none).
  private async assertConfiguredRemotes(): Promise<{ fetchUrls: string[]; pushUrls: string[] }> {
    const { stdout } = await this.git(['config', '--get-all', 'remote.origin.url']);
    const push = await this.git(['config', '--get-all', 'remote.origin.pushurl']).catch(ignoreExitCode(1, { stdout: '' }));
    const fetchUrls = stdout.split('\n').filter(Boolean);
    const pushUrls = push.stdout.split('\n').filter(Boolean);
    for (const url of [...fetchUrls, ...pushUrls]) this.assertUrl(url);
    return { fetchUrls, pushUrls: pushUrls.length > 0 ? pushUrls : fetchUrls };
  }
}

/** What git said about a failed merge or rebase (stdout names the conflicts, stderr the reason). */
function conflictText(error: GitCommandError): string {
  return [error.stdout.trim(), error.stderr.trim()].filter(Boolean).join('\n');
}

/** This process's claim on a repository (in-process only without `claims`: the in-process lock is then the whole truth). */
async function claimRepository(directory: string, claims: RepositoryClaims | undefined, whenUnclaimed: () => Promise<void>): Promise<() => Promise<void>> {
  if (!claims) {
    await whenUnclaimed();
    return async () => undefined;
  }
  return claims.claim(`repository:${directory}`, whenUnclaimed);
}

/**
 * removeStaleGitLocks, told to `onStaleLocks`. A lock that cannot be removed (permissions) is left to git,
 * whose own "File exists" error then explains the failed operation.
 */
async function removeStaleLocksReported(directory: string, onStaleLocks: GitRepositoryOptions['onStaleLocks']): Promise<string[]> {
  const removed = await removeStaleGitLocks(directory).catch(() => []);
  if (removed.length > 0) onStaleLocks?.(directory, removed);
  return removed;
}
