import { lstat, mkdir, readFile, realpath, rm, stat, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { COMMIT_INFO_FORMAT, CommitInfo, parseCommitInfo } from './commit-info';
import { gitBlobHash } from './git-blob-hash';
import { DEFAULT_COMMITTER, GitIdentity, formatGitIdentity, identityEnvironment } from './git-identity';
import { GitCommandError, GitResult, runGit } from './git-runner';
import { withLock } from './repository-lock';
import { assertBranchNameAllowed, assertRepositoryUrlAllowed } from './repository-url-policy';
import { AheadBehind, GitRepositoryOptions, MergeResult } from './git-repository.types';
import { assertRevision, ignoreExitCode, splitNul } from './git-output';
import { assertSafeRelativePath, isInside, resolveFileInside, UnsafePathError } from './safe-path';

export { gitBlobHash } from './git-blob-hash';
export type { CommitInfo } from './commit-info';
export type { GitIdentity } from './git-identity';
export type { AheadBehind, GitRepositoryOptions, MergeResult } from './git-repository.types';

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
        { allowLocal: options.allowLocal, timeoutMs: options.timeoutMs },
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
    await this.locked(async () => {
      await this.git(['config', '--replace-all', 'remote.origin.url', url]);
      await this.git(['config', '--unset-all', 'remote.origin.pushurl']).catch(ignoreExitCode(5));
      if (pushUrl !== undefined) await this.git(['config', 'remote.origin.pushurl', pushUrl]);
    });
  }

  /** Updates `origin/<branch>` from the remote. */
  async fetch(): Promise<void> {
    await this.locked(async () => {
      await this.assertConfiguredRemotes();
      const refspec = `+refs/heads/${this.branch}:${this.remoteRef()}`;
      await this.git(['fetch', '--prune', '--no-tags', '--no-recurse-submodules', '--', 'origin', refspec]);
    });
  }

  /** Merges `origin/<branch>` into the local branch; a failed merge is aborted and reported, not thrown. */
  async mergeUpstream(): Promise<MergeResult> {
    return this.locked(async () => {
      const committer = this.options.committer ?? DEFAULT_COMMITTER;
      const message = `Merge branch 'origin/${this.branch}' into Glossa`;
      try {
        await this.git(['merge', '--no-edit', `--message=${message}`, '--', this.remoteRef()], identityEnvironment(committer));
        return { merged: true };
      } catch (error) {
        if (!(error instanceof GitCommandError) || error.exitCode === null) throw error;
        if (await this.hasRef('MERGE_HEAD')) await this.git(['merge', '--abort']);
        return { merged: false, conflict: [error.stdout.trim(), error.stderr.trim()].filter(Boolean).join('\n') };
      }
    });
  }

  async headRevision(): Promise<string> {
    return this.locked(() => this.revParse('HEAD'));
  }

  async remoteRevision(): Promise<string> {
    return this.locked(() => this.revParse(this.remoteRef()));
  }

  /** Commit counts between the local branch and `origin/<branch>` as last fetched. */
  async aheadBehind(): Promise<AheadBehind> {
    return this.locked(async () => {
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
    return this.locked(async () => (await this.git(['--no-optional-locks', 'status', '--porcelain'])).stdout !== '');
  }

  /** `git status` text plus removable untracked files, as Weblate shows in the repository status `status`. */
  async status(): Promise<string> {
    return this.locked(async () => {
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
    return this.locked(async () => {
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
    return this.locked(async () => splitNul((await this.git(['ls-files', '-z'])).stdout));
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
   * point into `.git`, or go through a symlink (the file itself or a directory resolving elsewhere).
   */
  async writeFile(relativePath: string, content: Buffer): Promise<void> {
    const clean = assertSafeRelativePath(relativePath);
    await this.locked(async () => {
      const target = path.join(this.path, clean);
      await mkdir(path.dirname(target), { recursive: true });
      const realRoot = await realpath(this.path);
      const realParent = await realpath(path.dirname(target));
      const inside = path.relative(realRoot, realParent);
      if (!isInside(realRoot, realParent) || inside.split(path.sep).some((s) => s.toLowerCase() === '.git')) {
        throw new UnsafePathError(`File path "${relativePath}" points outside the repository.`);
      }
      const existing = await lstat(target).catch(() => null);
      if (existing && !existing.isFile()) throw new UnsafePathError(`File path "${relativePath}" is not a regular file.`);
      await writeFile(target, content);
    });
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
    await this.locked(async () => {
      await this.git(['reset', '--quiet', '--hard', this.remoteRef(), '--']);
    });
  }

  /** `git clean -f -d`: removes untracked files and directories (Weblate's cleanup). */
  async clean(): Promise<void> {
    await this.locked(async () => {
      await this.git(['clean', '-f', '-d']);
    });
  }

  /** Paths changed between two revisions (renames as delete + add). */
  async changedFiles(fromRev: string, toRev: string): Promise<string[]> {
    assertRevision(fromRev);
    assertRevision(toRev);
    return this.locked(async () => {
      const args = ['diff', '--name-only', '-z', '--no-renames', '--no-ext-diff', '--end-of-options', fromRev, toRev, '--'];
      return splitNul((await this.git(args)).stdout);
    });
  }

  /**
   * Stages `files` and commits them as `author` (the committer comes from the options). Resolves with the new
   * revision, or null when the files had no changes.
   */
  async commit(message: string, author: GitIdentity, files: string[], options: { date?: Date } = {}): Promise<string | null> {
    const authorText = formatGitIdentity(author);
    const paths = files.map(assertSafeRelativePath);
    if (paths.length === 0) return null;
    return this.locked(async () => {
      for (let i = 0; i < paths.length; i += ADD_BATCH) {
        // --force like Weblate: a translation file matched by .gitignore must still be committed.
        await this.git(['add', '--force', '--', ...paths.slice(i, i + ADD_BATCH)]);
      }
      const staged = await this.git(['diff', '--cached', '--quiet']).then(() => false, ignoreExitCode(1, true));
      if (!staged) return null;
      const env = identityEnvironment(this.options.committer ?? DEFAULT_COMMITTER, author);
      if (options.date) env.GIT_AUTHOR_DATE = options.date.toISOString();
      await this.git(['commit', '--no-verify', '--no-gpg-sign', `--author=${authorText}`, `--message=${message}`], env);
      return this.revParse('HEAD');
    });
  }

  /** Pushes the local branch to `remoteBranch` (default: the same name) on origin (its push URL if set). */
  async push(remoteBranch: string = this.branch): Promise<void> {
    assertBranchNameAllowed(remoteBranch);
    await this.locked(async () => {
      await this.assertConfiguredRemotes();
      await this.git(['push', '--no-verify', '--', 'origin', `refs/heads/${this.branch}:refs/heads/${remoteBranch}`]);
    });
  }

  private remoteRef(): string {
    return `refs/remotes/origin/${this.branch}`;
  }

  private locked<T>(fn: () => Promise<T>): Promise<T> {
    return withLock(this.path, fn, { timeoutMs: this.options.lockTimeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS });
  }

  private git(args: string[], env?: Record<string, string>): Promise<GitResult> {
    return runGit(args, { cwd: this.path, allowLocal: this.options.allowLocal, timeoutMs: this.options.timeoutMs, env });
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
  private async assertConfiguredRemotes(): Promise<void> {
    const { stdout } = await this.git(['config', '--get-all', 'remote.origin.url']);
    const push = await this.git(['config', '--get-all', 'remote.origin.pushurl']).catch(ignoreExitCode(1, { stdout: '' }));
    for (const url of [...stdout.split('\n'), ...push.stdout.split('\n')].filter(Boolean)) this.assertUrl(url);
  }
}
