import { Inject, Injectable, Logger } from '@nestjs/common';
import { mkdir, mkdtemp, readdir, rename, rm } from 'node:fs/promises';
import * as path from 'node:path';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { ProcessClaims } from '../jobs/process-claims';
import { GitRepository } from '../vcs/git.repository';
import { assertGitIdentity, DEFAULT_COMMITTER, type GitIdentity } from '../vcs/git-identity';
import type { GitRepositoryOptions } from '../vcs/git-repository.types';
import { runGit } from '../vcs/git-runner';
import { listRemoteFiles, type RemoteFiles } from '../vcs/remote-files';
import { PUBLIC_HOSTS_ONLY } from '../vcs/repository-host-policy';
import { WorkingCopyFactsCache } from '../vcs/working-copy-facts';
import { assertRepositoryUrlAllowed } from '../vcs/repository-url-policy';

// Components are clones under DATA_DIR (architecture.md "Runtime shape"): <dataDir>/vcs/<project>/<component>.

/**
 * How long validating a component may wait for its repository (issue 12): the request waits for it, so it is
 * shorter than a background clone's limit; the probe reads file names only, which is quick for any healthy remote.
 */
export const PROBE_TIMEOUT_MS = 60_000;

/** Where the demo repository is built (DemoSeeder); the one local repository allowed without the setting. */
export const DEMO_REPOSITORY_DIRNAME = 'demo-repository';

export interface ComponentRepositorySettings {
  projectSlug: string;
  componentSlug: string;
  repo: string;
  push: string;
  /** Empty: the remote's default branch (resolved on clone). */
  branch: string;
}

export interface OpenedWorkingCopy {
  repository: GitRepository;
  /** The branch in use; differs from the settings when they named none. */
  branch: string;
  cloned: boolean;
}

@Injectable()
export class WorkingCopyService {
  private readonly logger = new Logger(WorkingCopyService.name);
  private readonly facts = new WorkingCopyFactsCache();

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly claims: ProcessClaims,
  ) {}

  directory(projectSlug: string, componentSlug: string): string {
    for (const slug of [projectSlug, componentSlug]) {
      // Slugs are validated by the API, but they become path segments here: refuse anything that is not one.
      if (slug === '' || slug === '.' || slug === '..' || /[/\\\u0000]/.test(slug)) {
        throw new Error(`"${slug}" cannot be used as a directory name.`);
      }
    }
    return path.join(this.config.dataDir, 'vcs', projectSlug, componentSlug);
  }

  /** Local repositories follow ALLOW_LOCAL_REPOSITORIES, except the demo repository Glossa built itself. */
  allowLocal(repo: string, explicitlyAllowed = false): boolean {
    if (explicitlyAllowed || this.config.allowLocalRepositories) return true;
    const demo = path.join(this.config.dataDir, DEMO_REPOSITORY_DIRNAME);
    return path.isAbsolute(repo) && path.resolve(repo) === demo;
  }

  /**
   * The existing working copy, or null when the component was never cloned. Its remote follows the stored
   * settings before any operation runs (issue 12): a push right after the push URL was changed goes to the new
   * URL, without waiting for the re-import the change queued.
   */
  async open(settings: ComponentRepositorySettings, allowLocalOverride = false): Promise<GitRepository | null> {
    const directory = this.directory(settings.projectSlug, settings.componentSlug);
    const allowLocal = this.allowLocal(settings.repo, allowLocalOverride);
    // Remembered while .git, its config and HEAD are unchanged (working-copy-facts.ts): no git process here
    // on the commit path of issue 11.
    const facts = await this.facts.get(directory, async () => {
      if (!(await GitRepository.isWorkingCopy(directory))) return null;
      const headBranch = settings.branch ? undefined : await currentBranch(directory);
      const remote = await new GitRepository(directory, settings.branch || headBranch!, this.options(allowLocal)).remoteUrls();
      return { remote, headBranch };
    });
    if (!facts) return null;
    if (!settings.branch && facts.headBranch === undefined) facts.headBranch = await currentBranch(directory);
    const branch = settings.branch || facts.headBranch!;
    const repository = new GitRepository(directory, branch, this.options(allowLocal));
    if (facts.remote.fetch !== settings.repo || facts.remote.push !== settings.push) {
      // Rewrites .git/config, so the next open reads the facts again.
      await repository.setRemoteUrl(settings.repo, settings.push || undefined);
    }
    return repository;
  }

  /**
   * The files of the branch the settings name, for validating a component before it is stored (issue 12):
   * read from a throw-away blob-less clone under <DATA_DIR>/probes, removed whatever happens.
   */
  async remoteFiles(repo: string, branch: string): Promise<RemoteFiles> {
    const root = path.join(this.config.dataDir, 'probes');
    await mkdir(root, { recursive: true });
    const scratch = await mkdtemp(path.join(root, 'probe-'));
    try {
      const options = { ...this.options(this.allowLocal(repo)), timeoutMs: PROBE_TIMEOUT_MS };
      return await listRemoteFiles(repo, branch, path.join(scratch, 'clone'), options);
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  }

  /** Opens the working copy, cloning it first when needed (into a temporary directory, renamed at the end). */
  async ensure(settings: ComponentRepositorySettings, allowLocalOverride = false): Promise<OpenedWorkingCopy> {
    const allowLocal = this.allowLocal(settings.repo, allowLocalOverride);
    const existing = await this.open(settings, allowLocalOverride);
    if (existing) {
      await existing.setRemoteUrl(settings.repo, settings.push || undefined);
      return { repository: existing, branch: existing.branch, cloned: false };
    }
    assertRepositoryUrlAllowed(settings.repo, { allowLocal });
    const branch = settings.branch || (await remoteDefaultBranch(settings.repo, this.options(allowLocal)));
    const directory = this.directory(settings.projectSlug, settings.componentSlug);
    await mkdir(path.dirname(directory), { recursive: true });
    const staging = await mkdtemp(`${directory}.cloning-`);
    try {
      await GitRepository.clone(settings.repo, branch, staging, this.options(allowLocal));
      // Whatever is at the target is not a working copy (checked above): a leftover of an interrupted run.
      await rm(directory, { recursive: true, force: true });
      await rename(staging, directory);
    } catch (error) {
      await rm(staging, { recursive: true, force: true });
      throw error;
    }
    const repository = new GitRepository(directory, branch, this.options(allowLocal));
    if (settings.push) await repository.setRemoteUrl(settings.repo, settings.push);
    return { repository, branch, cloned: true };
  }

  /**
   * Start-up (issue 10, item 7): removes the git lock files a killed process left in every working copy no
   * live process works in. Operations do the same before they run git; this keeps the repository status
   * right from the start. Answers the number of working copies repaired.
   */
  async recoverStaleLocks(): Promise<number> {
    let repaired = 0;
    for (const directory of await this.workingCopyDirectories()) {
      try {
        const removed = await GitRepository.recoverStaleLocks(directory, this.options(false));
        if (removed.length > 0) repaired += 1;
      } catch (error) {
        // One unreadable working copy must not keep the server from starting; its operations will say why.
        this.logger.error(`Could not check ${directory} for stale git locks: ${(error as Error).message}`);
      }
    }
    return repaired;
  }

  /**
   * Options of every working copy: local repositories as allowed, network hosts as
   * ALLOW_PRIVATE_REPOSITORY_HOSTS says, stale git locks recovered under this process's claims.
   */
  options(allowLocal: boolean): GitRepositoryOptions {
    return {
      allowLocal,
      committer: this.committer(),
      hostPolicy: this.config.privateRepositoryHosts,
      hostLookup: this.config.repositoryHostLookup,
      claims: this.claims,
      onStaleLocks: (workingCopy, removed) =>
        this.logger.warn(`Removed stale git lock files left by a killed git in ${path.relative(this.config.dataDir, workingCopy)}: ${removed.join(', ')}`),
    };
  }

  /**
   * The committer of every commit and the author of merge commits: the site (SITE_TITLE), as Weblate commits
   * as its own site identity. A title git cannot record in a header keeps the default name.
   */
  private committer(): GitIdentity {
    const identity = { name: this.config.siteTitle, email: DEFAULT_COMMITTER.email };
    try {
      assertGitIdentity(identity);
      return identity;
    } catch {
      return DEFAULT_COMMITTER;
    }
  }

  /** <dataDir>/vcs/<project>/<component>, without clones in progress (`*.cloning-*`). */
  private async workingCopyDirectories(): Promise<string[]> {
    const root = path.join(this.config.dataDir, 'vcs');
    const directories: string[] = [];
    for (const project of await readdir(root, { withFileTypes: true }).catch(() => [])) {
      if (!project.isDirectory()) continue;
      for (const component of await readdir(path.join(root, project.name), { withFileTypes: true })) {
        if (component.isDirectory() && !component.name.includes('.cloning-')) directories.push(path.join(root, project.name, component.name));
      }
    }
    return directories;
  }
}

/** The branch the remote's HEAD points at (`git ls-remote --symref <url> HEAD`). */
export async function remoteDefaultBranch(url: string, options: GitRepositoryOptions): Promise<string> {
  const { allowLocal, hostPolicy = PUBLIC_HOSTS_ONLY, hostLookup } = options;
  assertRepositoryUrlAllowed(url, { allowLocal });
  const network = { urls: [url], direction: 'fetch' as const, policy: hostPolicy, lookup: hostLookup };
  const { stdout } = await runGit(['ls-remote', '--symref', '--', url, 'HEAD'], { allowLocal, network });
  const match = /^ref: refs\/heads\/(\S+)\tHEAD$/m.exec(stdout);
  if (!match) throw new Error('Could not determine the default branch of the repository.');
  return match[1];
}

async function currentBranch(directory: string): Promise<string> {
  const { stdout } = await runGit(['symbolic-ref', '--short', 'HEAD'], { cwd: directory });
  return stdout.trim();
}
