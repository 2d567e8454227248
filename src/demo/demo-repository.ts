import { copyFile, mkdir, mkdtemp, readdir, rename, rm } from 'node:fs/promises';
import * as path from 'node:path';
import { GitRepository } from '../vcs/git.repository';
import { runGit } from '../vcs/git-runner';

// The demo component needs a real git repository (components are clones), but a repository cannot be
// shipped inside this project's own git history. So the plain files in `demo/` are turned into one on
// first start, with a fixed author and fixed dates: the same files always give the same revision.

export const DEMO_AUTHOR = { name: 'Glossa Demo', email: 'demo@glossa.invalid' };
export const DEMO_BRANCH = 'main';
export const DEMO_COMMIT_MESSAGE = 'Add Glossa demo translations';
const DEMO_DATE = '2024-01-01T00:00:00+00:00';

/**
 * `demo/` at the project root. Compiled code lives in dist/demo/, two levels below the root. Jest runs the
 * sources as native ES modules, where `__dirname` does not exist (and `import.meta` cannot be written in
 * this CommonJS build); Jest's working directory is the project root, so that is the fallback.
 */
export function demoSourceDirectory(): string {
  const projectRoot = typeof __dirname === 'string' ? path.resolve(__dirname, '../..') : process.cwd();
  return path.join(projectRoot, 'demo');
}

/**
 * Creates the demo git repository at `targetDir` from `sourceDir` and returns its absolute path. When
 * `targetDir` already holds a repository with a commit, it is returned untouched (restarts keep the
 * demo's history, including commits Glossa made since).
 */
export async function buildDemoRepository(targetDir: string, sourceDir: string = demoSourceDirectory()): Promise<string> {
  const target = path.resolve(targetDir);
  if (await hasCommittedRepository(target)) {
    await acceptPushes(target);
    return target;
  }
  if (!(await isMissingOrEmpty(target))) {
    throw new Error(`Cannot create the demo repository: ${target} exists and is not a git repository.`);
  }
  await mkdir(path.dirname(target), { recursive: true });
  // Build beside the target and rename at the end, so a crash never leaves a half-made repository that a
  // later start would mistake for a valid one.
  const staging = await mkdtemp(path.join(path.dirname(target), `.${path.basename(target)}-building-`));
  try {
    await copyTree(sourceDir, staging);
    const env = {
      GIT_AUTHOR_NAME: DEMO_AUTHOR.name,
      GIT_AUTHOR_EMAIL: DEMO_AUTHOR.email,
      GIT_AUTHOR_DATE: DEMO_DATE,
      GIT_COMMITTER_NAME: DEMO_AUTHOR.name,
      GIT_COMMITTER_EMAIL: DEMO_AUTHOR.email,
      GIT_COMMITTER_DATE: DEMO_DATE,
    };
    const git = (args: string[]) => runGit(args, { cwd: staging, env });
    // An empty template: no sample hooks or other files copied from the system's git installation.
    await git(['init', '--quiet', '--template=', `--initial-branch=${DEMO_BRANCH}`]);
    await git(['add', '--all']);
    await git(['commit', '--quiet', '--no-verify', '--no-gpg-sign', `--message=${DEMO_COMMIT_MESSAGE}`]);
    await acceptPushes(staging);
    await rename(staging, target);
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    // Another process may have finished the same build first; its result is just as good.
    if (await hasCommittedRepository(target)) return target;
    throw error;
  }
  return target;
}

/**
 * The demo repository is the demo component's push target too, so `wlc push demo/app` works out of the box
 * (issue 15 "The first hour"). It has a working tree with `main` checked out, which git refuses to push into
 * unless told to update that tree as well; nobody edits the tree, so the update always applies cleanly.
 */
async function acceptPushes(directory: string): Promise<void> {
  await runGit(['config', 'receive.denyCurrentBranch', 'updateInstead'], { cwd: directory });
}

async function hasCommittedRepository(directory: string): Promise<boolean> {
  if (!(await GitRepository.isWorkingCopy(directory))) return false;
  try {
    await runGit(['rev-parse', '--verify', '--quiet', 'HEAD^{commit}'], { cwd: directory });
    return true;
  } catch {
    return false;
  }
}

async function isMissingOrEmpty(directory: string): Promise<boolean> {
  try {
    return (await readdir(directory)).length === 0;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return true;
    throw error;
  }
}

/** Copies regular files and directories; anything else (symlinks, devices) has no place in the demo. */
async function copyTree(from: string, to: string): Promise<void> {
  await mkdir(to, { recursive: true });
  for (const entry of await readdir(from, { withFileTypes: true })) {
    const source = path.join(from, entry.name);
    const destination = path.join(to, entry.name);
    if (entry.isDirectory()) await copyTree(source, destination);
    else if (entry.isFile()) await copyFile(source, destination);
  }
}
