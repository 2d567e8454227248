import type { GitIdentity } from './git-identity';
import type { HostLookup, RepositoryHostPolicy } from './repository-host-policy';

export interface GitRepositoryOptions {
  /** Whether local (`file://`, absolute path) remotes are allowed; the operator's setting. */
  allowLocal: boolean;
  /** Committer of every commit and author of merge commits. */
  committer?: GitIdentity;
  /** Which non-public hosts clone, fetch and push may reach (default: none; ALLOW_PRIVATE_REPOSITORY_HOSTS). */
  hostPolicy?: RepositoryHostPolicy;
  /** Resolves host names for that check (default: the system resolver); tests replace it. */
  hostLookup?: HostLookup;
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
