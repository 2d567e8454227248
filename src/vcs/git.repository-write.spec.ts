import { symlink, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { GitRepository } from './git.repository';
import { DEFAULT_COMMITTER, GitIdentityError } from './git-identity';
import { RepositoryUrlError } from './repository-url-policy';
import { UnsafePathError } from './safe-path';
import { GitSandbox, createGitSandbox } from './testing/git-sandbox';

const committer = { name: 'Glossa Bot', email: 'bot@glossa.invalid' };
const translator = { name: 'Jana Nováková', email: 'jana@example.org' };

describe('GitRepository (committing and pushing)', () => {
  let sandbox: GitSandbox;
  let repo: GitRepository;

  beforeEach(async () => {
    sandbox = await createGitSandbox({ 'translations/cs/app.json': '{"hello": "Ahoj"}\n', 'sources/app.json': '{}\n' });
    repo = await GitRepository.clone(sandbox.upstream, 'main', sandbox.clonePath, { allowLocal: true, committer });
  });
  afterEach(() => sandbox.cleanup());

  const write = (name: string, content: string) => writeFile(path.join(sandbox.clonePath, name), content);

  it('commits the named files as the translator, with the configured committer, and pushes', async () => {
    await write('translations/cs/app.json', '{"hello": "Nazdar"}\n');
    const date = new Date('2024-03-04T05:06:07Z');
    const revision = await repo.commit('Translated using Glossa (Czech)\n\nCurrently translated at 100.0%', translator,
      ['translations/cs/app.json'], { date });
    expect(revision).toMatch(/^[0-9a-f]{40}$/);
    expect(await repo.headRevision()).toBe(revision);

    const info = await repo.lastCommit();
    expect(info).toMatchObject({
      author: 'Jana Nováková <jana@example.org>',
      commit_name: 'Glossa Bot',
      commit_email: 'bot@glossa.invalid',
      summary: 'Translated using Glossa (Czech)',
      message: 'Translated using Glossa (Czech)\n\nCurrently translated at 100.0%',
    });
    expect(Date.parse(info.authordate)).toBe(date.getTime());

    expect(await repo.needsPush()).toBe(true);
    expect(await repo.aheadBehind()).toEqual({ ahead: 1, behind: 0 });
    await repo.push();
    expect(await repo.needsPush()).toBe(false);
    expect((await sandbox.git(sandbox.upstream, ['rev-parse', 'main'])).trim()).toBe(revision);
  });

  it('commits without a translator (the default identity as author) as the configured committer', async () => {
    await write('translations/cs/app.json', '{"hello": "Nazdar"}\n');
    await repo.commit('System commit', DEFAULT_COMMITTER, ['translations/cs/app.json']);
    expect(await repo.lastCommit()).toMatchObject({ author: 'Glossa Bot <bot@glossa.invalid>', commit_name: 'Glossa Bot' });
  });

  it('returns null when the files did not change', async () => {
    expect(await repo.commit('Nothing', translator, ['translations/cs/app.json'])).toBeNull();
    expect(await repo.commit('Nothing', translator, [])).toBeNull();
  });

  it('reports a commit git refuses with staged changes (not "nothing to commit") as the git error', async () => {
    // `git commit` exits with 1 both when nothing is staged and when the message is empty; only the first is null.
    await write('translations/cs/app.json', '{"hello": "Nazdar"}\n');
    await expect(repo.commit('', translator, ['translations/cs/app.json'])).rejects.toThrow(/empty commit message/);
    expect(await repo.commit('Now with a message', translator, ['translations/cs/app.json'])).toMatch(/^[0-9a-f]{40}$/);
  });

  it('reads the remote URL and push URL in one go, and an unset push URL as empty', async () => {
    expect(await repo.remoteUrls()).toEqual({ fetch: sandbox.upstream, push: '' });
    await repo.setRemoteUrl(sandbox.upstream, `${sandbox.upstream}/push`);
    expect(await repo.remoteUrls()).toEqual({ fetch: sandbox.upstream, push: `${sandbox.upstream}/push` });
  });

  it('commits new files and message text that looks like options verbatim', async () => {
    await write('new-file.json', '{}\n');
    await repo.commit('--amend', translator, ['new-file.json']);
    expect((await repo.lastCommit()).message).toBe('--amend');
    expect(await repo.listFiles()).toContain('new-file.json');
  });

  it('commits a changed tracked file and a new file together, and a removal, leaving nothing staged', async () => {
    // `commit --only` refuses a path git does not track yet; the commit then stages with `add` (both files).
    await write('translations/cs/app.json', '{"hello": "Nazdar"}\n');
    await repo.writeFile('translations/de/app.json', Buffer.from('{"hello": "Hallo"}\n'));
    const revision = await repo.commit('Both', translator, ['translations/cs/app.json', 'translations/de/app.json']);
    expect(revision).toBe((await sandbox.git(sandbox.clonePath, ['rev-parse', 'HEAD'])).trim());
    expect((await sandbox.git(sandbox.clonePath, ['show', '--name-only', '--format=', 'HEAD'])).trim().split('\n').sort())
      .toEqual(['translations/cs/app.json', 'translations/de/app.json']);

    await repo.removeFile('translations/de/app.json');
    await repo.commit('Remove German', translator, ['translations/de/app.json']);
    expect(await repo.listFiles()).not.toContain('translations/de/app.json');
    expect(await repo.needsCommit()).toBe(false);
  });

  it('commits a tracked file that .gitignore matches, and only the named files', async () => {
    await write('.gitignore', 'translations/\n');
    await write('translations/cs/app.json', '{"hello": "Nazdar"}\n');
    await write('sources/app.json', '{"changed": true}\n');
    const revision = await repo.commit('Czech only', translator, ['translations/cs/app.json']);
    expect(await repo.headRevision()).toBe(revision);
    expect((await sandbox.git(sandbox.clonePath, ['show', '--name-only', '--format=', 'HEAD'])).trim()).toBe('translations/cs/app.json');
    expect((await sandbox.git(sandbox.clonePath, ['status', '--porcelain'])).split('\n').filter(Boolean).sort()).toEqual([' M sources/app.json', '?? .gitignore']);
  });

  it('answers the new revision when the branch is only in packed-refs before the commit', async () => {
    await sandbox.git(sandbox.clonePath, ['pack-refs', '--all']);
    await write('translations/cs/app.json', '{"hello": "Nazdar"}\n');
    const revision = await repo.commit('Packed', translator, ['translations/cs/app.json']);
    expect(revision).toBe((await sandbox.git(sandbox.clonePath, ['rev-parse', 'HEAD'])).trim());
  });

  it('refuses identities that would forge commit headers and paths outside the working copy', async () => {
    await write('translations/cs/app.json', '{"hello": "Nazdar"}\n');
    await expect(repo.commit('x', { name: 'Eve <eve@evil>', email: 'a@b' }, ['translations/cs/app.json']))
      .rejects.toBeInstanceOf(GitIdentityError);
    await expect(repo.commit('x', { name: 'Eve', email: 'a@b>\ncommitter X' }, ['translations/cs/app.json']))
      .rejects.toBeInstanceOf(GitIdentityError);
    await expect(repo.commit('x', translator, ['../outside'])).rejects.toBeInstanceOf(UnsafePathError);
    await expect(repo.commit('x', translator, ['.git/config'])).rejects.toBeInstanceOf(UnsafePathError);
  });

  it('aborts a conflicting merge and reports it', async () => {
    await write('translations/cs/app.json', '{"hello": "Nazdar"}\n');
    const local = await repo.commit('Local change', translator, ['translations/cs/app.json']);
    await sandbox.commitUpstream({ 'translations/cs/app.json': '{"hello": "Čau"}\n' }, 'Upstream change');
    await repo.fetch();
    expect(await repo.aheadBehind()).toEqual({ ahead: 1, behind: 1 });

    const result = await repo.mergeUpstream();
    expect(result.merged).toBe(false);
    expect(result.conflict).toContain('CONFLICT (content): Merge conflict in translations/cs/app.json');
    expect(await repo.headRevision()).toBe(local);
    expect(await repo.needsCommit()).toBe(false);
    expect((await repo.readFile('translations/cs/app.json')).toString()).toBe('{"hello": "Nazdar"}\n');
  });

  it('creates a merge commit by the committer when both sides changed different files', async () => {
    await write('translations/cs/app.json', '{"hello": "Nazdar"}\n');
    await repo.commit('Local change', translator, ['translations/cs/app.json']);
    await sandbox.commitUpstream({ 'sources/app.json': '{"hello": "Hello"}\n' }, 'Upstream change');
    await repo.fetch();
    expect(await repo.mergeUpstream("Merge branch 'main' into Acme L10n.\n\n")).toEqual({ merged: true });
    expect(await repo.lastCommit()).toMatchObject({ author: 'Glossa Bot <bot@glossa.invalid>', summary: "Merge branch 'main' into Acme L10n." });
    expect(await repo.aheadBehind()).toEqual({ ahead: 2, behind: 0 });
  });

  it('makes a merge commit even for a fast-forward with noFastForward (merge_style merge_noff)', async () => {
    await sandbox.commitUpstream({ 'sources/app.json': '{"hello": "Hello"}\n' }, 'Upstream change');
    await repo.fetch();
    expect(await repo.mergeUpstream('Merged', { noFastForward: true })).toEqual({ merged: true });
    expect(await repo.lastCommit()).toMatchObject({ summary: 'Merged' });
    expect(await repo.aheadBehind()).toEqual({ ahead: 1, behind: 0 });
  });

  it('rebases local commits onto a diverged upstream: no merge commit, authors kept, committer configured', async () => {
    await write('translations/cs/app.json', '{"hello": "Nazdar"}\n');
    await repo.commit('Local change', translator, ['translations/cs/app.json']);
    const upstream = await sandbox.commitUpstream({ 'sources/app.json': '{"hello": "Hello"}\n' }, 'Upstream change');
    await repo.fetch();
    expect(await repo.aheadBehind()).toEqual({ ahead: 1, behind: 1 });

    expect(await repo.rebaseUpstream()).toEqual({ merged: true });
    expect(await repo.aheadBehind()).toEqual({ ahead: 1, behind: 0 });
    expect(await repo.lastCommit()).toMatchObject({ author: 'Jana Nováková <jana@example.org>', commit_name: 'Glossa Bot', summary: 'Local change' });
    expect((await sandbox.git(sandbox.clonePath, ['rev-parse', 'HEAD~1'])).trim()).toBe(upstream);
    expect((await repo.readFile('sources/app.json')).toString()).toBe('{"hello": "Hello"}\n');
  });

  it('aborts a conflicting rebase and reports it, leaving the branch as it was', async () => {
    await write('translations/cs/app.json', '{"hello": "Nazdar"}\n');
    const local = await repo.commit('Local change', translator, ['translations/cs/app.json']);
    await sandbox.commitUpstream({ 'translations/cs/app.json': '{"hello": "Čau"}\n' }, 'Upstream change');
    await repo.fetch();

    const result = await repo.rebaseUpstream();
    expect(result.merged).toBe(false);
    expect(result.conflict).toContain('CONFLICT (content): Merge conflict in translations/cs/app.json');
    expect(await repo.headRevision()).toBe(local);
    expect(await repo.needsCommit()).toBe(false);
    expect(await repo.status()).not.toMatch(/rebase/i);
    expect((await repo.readFile('translations/cs/app.json')).toString()).toBe('{"hello": "Nazdar"}\n');
  });

  it('serialises concurrent operations on one repository through the lock', async () => {
    const names = ['a', 'b', 'c', 'd', 'e'].map((n) => `translations/${n}.json`);
    await Promise.all(names.map((name) => write(name, `{"name": "${name}"}\n`)));
    // Without the lock these would race on .git/index.lock and fail.
    const revisions = await Promise.all(names.map((name) => repo.commit(`Add ${name}`, translator, [name])));
    expect(new Set(revisions).size).toBe(5);
    expect((await repo.aheadBehind()).ahead).toBe(5);
  });

  it('checks remote URLs when they are set and again before they are used', async () => {
    await expect(repo.setRemoteUrl('ext::sh -c id')).rejects.toBeInstanceOf(RepositoryUrlError);
    await expect(repo.setRemoteUrl(sandbox.upstream, '--upload-pack=x')).rejects.toBeInstanceOf(RepositoryUrlError);
    await repo.setRemoteUrl(sandbox.upstream, sandbox.upstream);
    await repo.fetch();
    // Someone edits .git/config behind our back.
    await sandbox.git(sandbox.clonePath, ['config', 'remote.origin.pushurl', 'ext::sh -c id']);
    await expect(repo.push()).rejects.toBeInstanceOf(RepositoryUrlError);
    await repo.setRemoteUrl(sandbox.upstream);
    await repo.push();

    const remoteOnly = new GitRepository(sandbox.clonePath, 'main', { allowLocal: false });
    await expect(remoteOnly.fetch()).rejects.toThrow('Local repositories are not allowed');
  });
  it('writes, removes, resets and cleans files of the working tree, refusing paths that leave it', async () => {
    await repo.writeFile('translations/fr/app.json', Buffer.from('{}\n'));
    expect((await repo.readFile('translations/fr/app.json')).toString()).toBe('{}\n');
    await expect(repo.writeFile('../outside.json', Buffer.from('x'))).rejects.toBeInstanceOf(UnsafePathError);
    await expect(repo.writeFile('.git/config', Buffer.from('x'))).rejects.toBeInstanceOf(UnsafePathError);
    await symlink(sandbox.root, path.join(sandbox.clonePath, 'link'));
    await expect(repo.writeFile('link/escape.json', Buffer.from('x'))).rejects.toBeInstanceOf(UnsafePathError);
    await symlink(path.join(sandbox.root, 'target.json'), path.join(sandbox.clonePath, 'file-link.json'));
    await expect(repo.writeFile('file-link.json', Buffer.from('x'))).rejects.toBeInstanceOf(UnsafePathError);

    await repo.commit('Add French', translator, ['translations/fr/app.json']);
    await repo.removeFile('translations/cs/app.json');
    await repo.removeFile('translations/cs/app.json');
    expect(await repo.needsCommit()).toBe(true);
    await repo.resetToUpstream();
    expect(await repo.aheadBehind()).toEqual({ ahead: 0, behind: 0 });
    expect((await repo.readFile('translations/cs/app.json')).toString()).toBe('{"hello": "Ahoj"}\n');
    await repo.clean();
    expect(await repo.needsCommit()).toBe(false);
  });
});
