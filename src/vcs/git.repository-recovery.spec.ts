import { mkdir, mkdtemp, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { GitRepository, type RepositoryClaims } from './git.repository';
import { GitCommandError } from './git-runner';
import { UnsafePathError } from './safe-path';
import { GitSandbox, createGitSandbox } from './testing/git-sandbox';

// Issue 10: item 7 (a killed git's lock files wedge the repository) and item 10 (a symlinked directory made
// writeFile create directories outside the working copy before refusing).

const committer = { name: 'Glossa Bot', email: 'bot@glossa.invalid' };
const translator = { name: 'Jana Nováková', email: 'jana@example.org' };
const CS = 'translations/cs/app.json';

/** Claims as another live process working in every repository makes them look: never unclaimed. */
const busyElsewhere: RepositoryClaims = { claim: async () => async () => undefined };

describe('GitRepository (stale git locks and symlinked directories)', () => {
  let sandbox: GitSandbox;
  let repo: GitRepository;
  let removed: string[][];

  beforeEach(async () => {
    sandbox = await createGitSandbox({ [CS]: '{"hello": "Ahoj"}\n', 'sources/app.json': '{}\n' });
    removed = [];
    repo = await GitRepository.clone(sandbox.upstream, 'main', sandbox.clonePath, { allowLocal: true, committer });
    repo = new GitRepository(sandbox.clonePath, 'main', { allowLocal: true, committer, onStaleLocks: (_dir, files) => removed.push(files) });
  });
  afterEach(() => sandbox.cleanup());

  /** The lock files a git killed in the middle of a commit leaves behind (index and branch ref). */
  async function leaveKilledCommitLocks(): Promise<void> {
    await writeFile(path.join(sandbox.clonePath, '.git', 'index.lock'), 'DIRC partial index');
    await writeFile(path.join(sandbox.clonePath, '.git', 'refs', 'heads', 'main.lock'), '');
  }

  it('proves the lock wedges plain git, then commits, pushes, resets and cleans after removing it', async () => {
    await leaveKilledCommitLocks();
    await writeFile(path.join(sandbox.clonePath, CS), '{"hello": "Nazdar"}\n');
    // What every later operation met before: git refuses while index.lock exists.
    await expect(sandbox.git(sandbox.clonePath, ['add', '--', CS])).rejects.toThrow(/index\.lock': File exists/);

    const revision = await repo.commit('Translated', translator, [CS]);
    expect(revision).toMatch(/^[0-9a-f]{40}$/);
    expect(removed).toEqual([['.git/index.lock', '.git/refs/heads/main.lock']]);
    await repo.push();
    expect((await sandbox.git(sandbox.upstream, ['rev-parse', 'main'])).trim()).toBe(revision);

    await leaveKilledCommitLocks();
    await writeFile(path.join(sandbox.clonePath, 'untracked.txt'), 'x');
    await repo.clean();
    expect(await readdir(sandbox.clonePath)).not.toContain('untracked.txt');
    await leaveKilledCommitLocks();
    await repo.resetToUpstream();
    expect(removed).toHaveLength(3);
  });

  it('removes lock files at start-up (recoverStaleLocks) and leaves other files alone', async () => {
    await leaveKilledCommitLocks();
    await writeFile(path.join(sandbox.clonePath, '.git', 'config.lock'), '');
    await mkdir(path.join(sandbox.clonePath, '.git', 'refs', 'remotes', 'origin'), { recursive: true });
    await writeFile(path.join(sandbox.clonePath, '.git', 'refs', 'remotes', 'origin', 'main.lock'), '');
    // A tracked file named *.lock in the working tree is not git's.
    await writeFile(path.join(sandbox.clonePath, 'yarn.lock'), 'kept');
    const files = await GitRepository.recoverStaleLocks(sandbox.clonePath);
    expect(files.sort()).toEqual(['.git/config.lock', '.git/index.lock', '.git/refs/heads/main.lock', '.git/refs/remotes/origin/main.lock']);
    expect(await readdir(sandbox.clonePath)).toContain('yarn.lock');
    expect(await GitRepository.recoverStaleLocks(sandbox.clonePath)).toEqual([]);
  });

  it('leaves the locks alone while another live process works in the repository', async () => {
    const shared = new GitRepository(sandbox.clonePath, 'main', { allowLocal: true, committer, claims: busyElsewhere });
    await leaveKilledCommitLocks();
    await writeFile(path.join(sandbox.clonePath, CS), '{"hello": "Nazdar"}\n');
    await expect(shared.commit('Translated', translator, [CS])).rejects.toBeInstanceOf(GitCommandError);
    expect(await GitRepository.recoverStaleLocks(sandbox.clonePath, { claims: busyElsewhere })).toEqual([]);
    expect(await readdir(path.join(sandbox.clonePath, '.git'))).toContain('index.lock');
  });

  it('refuses a file under a symlinked directory before creating any directory outside the working copy', async () => {
    const outside = await mkdtemp(path.join(os.tmpdir(), 'glossa-outside-'));
    try {
      // The parent of the language directories is a symlink: mkdir -p would have created outside/de.
      await symlink(outside, path.join(sandbox.clonePath, 'locale'));
      await expect(repo.writeFile('locale/de/app.json', Buffer.from('{}\n'))).rejects.toBeInstanceOf(UnsafePathError);
      await expect(repo.assertWritable('locale/de/deeper/app.json')).rejects.toBeInstanceOf(UnsafePathError);
      // The language directory itself is a symlink, to a directory that does not exist (yet).
      await symlink(path.join(outside, 'missing', 'de'), path.join(sandbox.clonePath, 'translations', 'de'));
      await expect(repo.writeFile('translations/de/app.json', Buffer.from('{}\n'))).rejects.toBeInstanceOf(UnsafePathError);
      expect(await readdir(outside)).toEqual([]);
      // A directory inside the working copy, even through a symlink staying inside, still works.
      await symlink(path.join(sandbox.clonePath, 'translations'), path.join(sandbox.clonePath, 'inside-link'));
      await repo.writeFile('inside-link/fr/app.json', Buffer.from('{}\n'));
      expect((await repo.readFile('translations/fr/app.json')).toString()).toBe('{}\n');
      await repo.writeFile('new/dir/tree/app.json', Buffer.from('{}\n'));
      expect((await repo.readFile('new/dir/tree/app.json')).toString()).toBe('{}\n');
    } finally {
      await rm(outside, { recursive: true, force: true });
    }
  });
});
