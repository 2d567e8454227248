import { symlink, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { GitRepository, gitBlobHash } from './git.repository';
import { RepositoryUrlError } from './repository-url-policy';
import { UnsafePathError } from './safe-path';
import { GitSandbox, createGitSandbox } from './testing/git-sandbox';

const committer = { name: 'Glossa Bot', email: 'bot@glossa.invalid' };
const options = { allowLocal: true, committer };
const initialFiles = {
  'sources/app.json': '{"hello": "Hello"}\n',
  'translations/cs/app.json': '{"hello": "Ahoj, světe – čeština"}\n',
  'translations/de/app.json': '{}\n',
};

describe('GitRepository (reading and updating)', () => {
  let sandbox: GitSandbox;
  let repo: GitRepository;
  let initialRevision: string;

  beforeAll(async () => {
    sandbox = await createGitSandbox(initialFiles);
    initialRevision = (await sandbox.git(sandbox.upstream, ['rev-parse', 'main'])).trim();
    repo = await GitRepository.clone(sandbox.upstream, 'main', sandbox.clonePath, options);
  });
  afterAll(() => sandbox.cleanup());

  it('clones the branch and lists the tracked files', async () => {
    expect(repo.path).toBe(sandbox.clonePath);
    expect(await GitRepository.isWorkingCopy(sandbox.clonePath)).toBe(true);
    expect(await GitRepository.isWorkingCopy(sandbox.root)).toBe(false);
    expect(await repo.listFiles()).toEqual(['sources/app.json', 'translations/cs/app.json', 'translations/de/app.json']);
    expect(await repo.headRevision()).toBe(initialRevision);
    expect(await repo.remoteRevision()).toBe(initialRevision);
    expect((await repo.readFile('sources/app.json')).toString()).toBe(initialFiles['sources/app.json']);
  });

  it('refuses local URLs when local repositories are not allowed, before touching the disk', async () => {
    const target = path.join(sandbox.root, 'refused');
    await expect(GitRepository.clone(sandbox.upstream, 'main', target, { allowLocal: false }))
      .rejects.toBeInstanceOf(RepositoryUrlError);
    await expect(GitRepository.clone(`file://${sandbox.upstream}`, 'main', target, { allowLocal: false }))
      .rejects.toThrow('Local repositories are not allowed');
    await expect(GitRepository.clone('ext::sh -c touch% /tmp/x', 'main', target, options)).rejects.toBeInstanceOf(RepositoryUrlError);
    await expect(GitRepository.clone(sandbox.upstream, '--upload-pack=x', target, options)).rejects.toThrow('not a valid branch name');
    expect(existsSync(target)).toBe(false);
  });

  it('computes the blob hash of a working-tree file exactly like git hash-object', async () => {
    const expected = (await sandbox.git(sandbox.clonePath, ['hash-object', 'translations/cs/app.json'])).trim();
    expect(await repo.blobHash('translations/cs/app.json')).toBe(expected);
    expect(gitBlobHash(await repo.readFile('translations/cs/app.json'))).toBe(expected);
  });

  it('describes the last commit in the shape of Weblate’s remote_commit', async () => {
    const info = await repo.lastCommit();
    expect(Object.keys(info)).toEqual([
      'revision', 'shortrevision', 'author', 'author_name', 'author_email', 'authordate',
      'commit', 'commit_name', 'commit_email', 'commitdate', 'message', 'summary',
    ]);
    expect(info).toMatchObject({
      revision: initialRevision,
      author: 'Upstream Dev <dev@upstream.invalid>',
      author_name: 'Upstream Dev',
      author_email: 'dev@upstream.invalid',
      commit: 'Upstream Dev <dev@upstream.invalid>',
      message: 'Initial commit',
      summary: 'Initial commit',
    });
    expect(initialRevision.startsWith(info.shortrevision)).toBe(true);
    expect(info.authordate).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d([+-]\d\d:\d\d|Z)$/);
    expect(Number.isNaN(Date.parse(info.commitdate))).toBe(false);
    expect(await repo.lastRemoteCommit()).toEqual(info);
  });

  it('reports a clean working copy in status text', async () => {
    expect(await repo.status()).toContain('On branch main');
    expect(await repo.status()).toContain('nothing to commit, working tree clean');
    expect(await repo.needsCommit()).toBe(false);
    await writeFile(path.join(sandbox.clonePath, 'stray.tmp'), 'x');
    expect(await repo.status()).toContain('Possible cleanups:\n\nWould remove stray.tmp');
    expect(await repo.needsCommit()).toBe(true);
  });

  it('fetches an upstream commit, sees it needs merging, and merges it', async () => {
    const upstreamRevision = await sandbox.commitUpstream(
      { 'translations/de/app.json': '{"hello": "Hallo"}\n', 'translations/fr/app.json': '{"hello": "Bonjour"}\n' },
      'Add German and French\n\nTranslated upstream.',
    );
    expect(await repo.needsMerge()).toBe(false);
    await repo.fetch();
    expect(await repo.remoteRevision()).toBe(upstreamRevision);
    expect(await repo.needsMerge()).toBe(true);
    expect(await repo.needsPush()).toBe(false);
    expect(await repo.aheadBehind()).toEqual({ ahead: 0, behind: 1 });
    expect((await repo.lastRemoteCommit()).message).toBe('Add German and French\n\nTranslated upstream.');
    expect((await repo.lastRemoteCommit()).summary).toBe('Add German and French');

    expect(await repo.mergeUpstream()).toEqual({ merged: true });
    expect(await repo.headRevision()).toBe(upstreamRevision);
    expect(await repo.needsMerge()).toBe(false);
    expect((await repo.readFile('translations/de/app.json')).toString()).toBe('{"hello": "Hallo"}\n');
    expect(await repo.changedFiles(initialRevision, upstreamRevision)).toEqual([
      'translations/de/app.json',
      'translations/fr/app.json',
    ]);
    expect(await repo.mergeUpstream()).toEqual({ merged: true });
  });

  it('refuses to read outside the working copy or inside .git', async () => {
    const outside = path.join(sandbox.root, 'secret.txt');
    await writeFile(outside, 'server secret');
    await symlink(outside, path.join(sandbox.clonePath, 'leak.json'));
    await symlink('../../sources/app.json', path.join(sandbox.clonePath, 'translations/cs/alias.json'));
    await symlink(path.join(sandbox.clonePath, '.git', 'config'), path.join(sandbox.clonePath, 'config-link'));

    for (const unsafe of ['../secret.txt', '/etc/passwd', '.git/config', 'translations/../../secret.txt', 'leak.json',
      'config-link', 'translations', '']) {
      await expect(repo.readFile(unsafe)).rejects.toBeInstanceOf(UnsafePathError);
    }
    // A symlink that stays inside the working copy is fine.
    expect((await repo.readFile('translations/cs/alias.json')).toString()).toBe(initialFiles['sources/app.json']);
    await expect(repo.blobHash('leak.json')).rejects.toBeInstanceOf(UnsafePathError);
  });

  it('refuses option-looking revisions', async () => {
    await expect(repo.lastCommit('--output=/tmp/x')).rejects.toThrow('not a valid revision');
    await expect(repo.changedFiles('-p', 'HEAD')).rejects.toThrow('not a valid revision');
  });
});
