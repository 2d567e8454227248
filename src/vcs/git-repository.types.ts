import type { GitIdentity } from './git-identity';

export interface GitRepositoryOptions {
  /** Whether local (`file://`, absolute path) remotes are allowed; the operator's setting. */
  allowLocal: boolean;
  /** Committer of every commit and author of merge commits. */
  committer?: GitIdentity;
  /** Per git command. */
  timeoutMs?: number;
  /** How long to wait for the repository lock before a RepositoryLockTimeoutError. */
  lockTimeoutMs?: number;
}

export interface MergeResult {
  /** True when the working copy now contains the upstream branch (also when it already did). */
  merged: boolean;
  /** git's explanation when the merge failed and was aborted (conflicts, local changes in the way). */
  conflict?: string;
}

export interface AheadBehind {
  /** Local commits upstream does not have (to push). */
  ahead: number;
  /** Upstream commits the working copy does not have (to merge). */
  behind: number;
}
