import { gitBlobHash } from './git-blob-hash';

describe('gitBlobHash', () => {
  // Values printed by `git hash-object`.
  it.each<[string, Buffer, string]>([
    ['the empty blob', Buffer.alloc(0), 'e69de29bb2d1d6434b8b29ae775ad8c2e48c5391'],
    ['"hello\\n"', Buffer.from('hello\n'), 'ce013625030ba8dba906f756967f9e9ca394464a'],
  ])('hashes %s like git', (_name, content, expected) => {
    expect(gitBlobHash(content)).toBe(expected);
  });

  it('counts bytes, not characters', () => {
    expect(gitBlobHash(Buffer.from('Příliš\n'))).not.toBe(gitBlobHash(Buffer.from('Prilis\n')));
  });
});
