import { mkdtemp, rm } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { runGit } from './git-runner';
import { WorkingCopyFactsCache, workingCopyStamp, type WorkingCopyFacts } from './working-copy-facts';

describe('WorkingCopyFactsCache', () => {
  let root: string;
  let directory: string;
  let reads: number;
  const cache = () => new WorkingCopyFactsCache();
  const expected = (fetch: string): WorkingCopyFacts => ({ remote: { fetch, push: '' } });
  const git = (args: string[]) => runGit(args, { cwd: directory });
  const reader = (fetch: string) => async () => {
    reads += 1;
    return expected(fetch);
  };

  beforeEach(async () => {
    reads = 0;
    root = await mkdtemp(path.join(os.tmpdir(), 'glossa-facts-'));
    directory = path.join(root, 'wc');
    await runGit(['init', '--quiet', '--initial-branch=main', directory]);
  });
  afterEach(() => rm(root, { recursive: true, force: true }));

  it('answers the remembered facts while .git, its config and HEAD are unchanged', async () => {
    const facts = cache();
    expect(await facts.get(directory, reader('a'))).toEqual(expected('a'));
    expect(await facts.get(directory, reader('b'))).toEqual(expected('a'));
    // A commit creates and renames lock files in .git (its mtime changes), and moves the branch: same facts.
    await git(['-c', 'user.name=T', '-c', 'user.email=t@t.invalid', 'commit', '--quiet', '--allow-empty', '-m', 'x']);
    expect(await facts.get(directory, reader('c'))).toEqual(expected('a'));
    expect(reads).toBe(1);
  });

  it('reads again after git rewrote the config, HEAD changed, or the working copy was replaced', async () => {
    const facts = cache();
    await facts.get(directory, reader('a'));
    await git(['config', 'remote.origin.url', 'https://example.org/x.git']);
    expect(await facts.get(directory, reader('b'))).toEqual(expected('b'));
    await git(['symbolic-ref', 'HEAD', 'refs/heads/other']);
    expect(await facts.get(directory, reader('c'))).toEqual(expected('c'));
    await rm(directory, { recursive: true });
    await runGit(['init', '--quiet', '--initial-branch=main', directory]);
    expect(await facts.get(directory, reader('d'))).toEqual(expected('d'));
    expect(reads).toBe(4);
  });

  it('remembers nothing for a directory that is not a working copy', async () => {
    const facts = cache();
    const missing = path.join(root, 'missing');
    expect(await workingCopyStamp(missing)).toBeNull();
    expect(await facts.get(missing, async () => null)).toBeNull();
    expect(await facts.get(missing, reader('a'))).toEqual(expected('a'));
    expect(await facts.get(missing, reader('b'))).toEqual(expected('b'));
  });

});
