import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { readBranchHead } from './head-ref';

describe('readBranchHead', () => {
  let root: string;
  const id = 'a'.repeat(40);

  beforeEach(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'glossa-head-'));
    await mkdir(path.join(root, '.git', 'refs', 'heads', 'release'), { recursive: true });
  });
  afterEach(() => rm(root, { recursive: true, force: true }));

  const put = (file: string, content: string) => writeFile(path.join(root, '.git', file), content);

  it('reads the loose ref of the branch HEAD names, nested names too', async () => {
    await put('HEAD', 'ref: refs/heads/main\n');
    await put('refs/heads/main', `${id}\n`);
    expect(await readBranchHead(root, 'main')).toBe(id);
    await put('HEAD', 'ref: refs/heads/release/1.0\n');
    await put('refs/heads/release/1.0', `${'b'.repeat(64)}\n`);
    expect(await readBranchHead(root, 'release/1.0')).toBe('b'.repeat(64));
  });

  it('answers null (ask git) for another branch, a detached HEAD, a packed-only ref or odd content', async () => {
    await put('HEAD', 'ref: refs/heads/main\n');
    expect(await readBranchHead(root, 'main')).toBeNull();
    await put('refs/heads/main', 'ref: refs/heads/other\n');
    expect(await readBranchHead(root, 'main')).toBeNull();
    await put('refs/heads/main', `${id}\n`);
    expect(await readBranchHead(root, 'other')).toBeNull();
    await put('HEAD', `${id}\n`);
    expect(await readBranchHead(root, 'main')).toBeNull();
  });

  it('answers null when .git is a file (a linked worktree)', async () => {
    await rm(path.join(root, '.git'), { recursive: true });
    await writeFile(path.join(root, '.git'), 'gitdir: /elsewhere\n');
    expect(await readBranchHead(root, 'main')).toBeNull();
  });
});
