import { mkdtemp, readdir, rm } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { GitCommandError } from './git-runner';
import { listRemoteFiles } from './remote-files';
import { RepositoryUrlError } from './repository-url-policy';
import { createGitSandbox, type GitSandbox } from './testing/git-sandbox';

describe('listRemoteFiles', () => {
  let sandbox: GitSandbox;
  let scratch: string;

  beforeEach(async () => {
    sandbox = await createGitSandbox({ 'sources/app.json': '{}\n', 'translations/cs/app.json': '{"a": "b"}\n' });
    scratch = path.join(await mkdtemp(path.join(os.tmpdir(), 'glossa-probe-')), 'clone');
  });
  afterEach(async () => {
    await rm(path.dirname(scratch), { recursive: true, force: true });
    await sandbox.cleanup();
  });

  it('lists the tracked files of the default branch without checking them out', async () => {
    const listed = await listRemoteFiles(sandbox.upstream, '', scratch, { allowLocal: true });
    expect(listed).toEqual({ branch: 'main', files: ['sources/app.json', 'translations/cs/app.json'] });
    // Nothing but the repository metadata is written.
    expect(await readdir(scratch)).toEqual(['.git']);
  });

  it('reads a named branch and sees its latest commit', async () => {
    await sandbox.commitUpstream({ 'translations/de/app.json': '{}\n' }, 'German');
    const listed = await listRemoteFiles(sandbox.upstream, 'main', scratch, { allowLocal: true });
    expect(listed.files).toContain('translations/de/app.json');
  });

  it('fails with git\'s error for an unknown branch, and refuses what the URL policy refuses', async () => {
    await expect(listRemoteFiles(sandbox.upstream, 'no-such-branch', scratch, { allowLocal: true })).rejects.toBeInstanceOf(GitCommandError);
    await expect(listRemoteFiles(sandbox.upstream, '', scratch, { allowLocal: false })).rejects.toBeInstanceOf(RepositoryUrlError);
    await expect(listRemoteFiles(sandbox.upstream, '--upload-pack=x', scratch, { allowLocal: true })).rejects.toThrow();
  });
});
