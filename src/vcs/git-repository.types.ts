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
  /**
   * Tells whether other live processes work in the repository (ProcessClaims, src/jobs). Without it only this
   * process is considered, which is right when no other process uses the same working copies.
   */
  claims?: RepositoryClaims;
  /** Told about git lock files removed because a killed git left them (for the log). */
  onStaleLocks?: (workingCopy: string, removed: string[]) => void;
}

/** Claims on names held by live processes (the shape of ProcessClaims in src/jobs). */
export interface RepositoryClaims {
  /**
   * Marks `name` as worked on by this process until the returned function is called; `whenUnclaimed` runs
   * first, exclusively, when no live process had it claimed.
   */
  claim(name: string, whenUnclaimed?: () => Promise<void>): Promise<() => Promise<void>>;
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
