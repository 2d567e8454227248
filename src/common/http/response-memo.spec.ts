import { KeptAnswer, MAX_AGE_MS, ResponseMemo } from './response-memo';

describe('ResponseMemo', () => {
  const body = (bytes: number): string => 'x'.repeat(bytes);

  it('gives back what was kept for a key, with its version, bytes and tag', () => {
    const memo = new ResponseMemo();
    memo.keep('k', '1/2', { payload: '{"a":1}', byteLength: 7, etag: '"tag"' });
    expect(memo.get('k')).toMatchObject<Partial<KeptAnswer>>({ version: '1/2', payload: '{"a":1}', byteLength: 7, etag: '"tag"' });
    expect(memo.get('other')).toBeUndefined();
  });

  it('replaces an answer kept under the same key, counting its bytes once', () => {
    const memo = new ResponseMemo(10_000);
    memo.keep('k', 'v1', { payload: body(100), byteLength: 100, etag: '"a"' });
    memo.keep('k', 'v2', { payload: body(200), byteLength: 200, etag: '"b"' });
    expect(memo.size).toBe(1);
    expect(memo.get('k')?.version).toBe('v2');
    expect(memo.totalBytes).toBe(200 + 'k'.length + 'v2'.length);
  });

  it('stays within its bytes, dropping the least recently used answers first', () => {
    const memo = new ResponseMemo(1_000);
    memo.keep('a', 'v', { payload: body(300), byteLength: 300, etag: '"a"' });
    memo.keep('b', 'v', { payload: body(300), byteLength: 300, etag: '"b"' });
    memo.keep('c', 'v', { payload: body(300), byteLength: 300, etag: '"c"' });
    memo.get('a'); // a is now more recent than b
    memo.keep('d', 'v', { payload: body(300), byteLength: 300, etag: '"d"' });
    expect(memo.get('b')).toBeUndefined();
    expect(['a', 'c', 'd'].map((key) => memo.get(key)?.etag)).toEqual(['"a"', '"c"', '"d"']);
    expect(memo.totalBytes).toBeLessThanOrEqual(1_000);
  });

  it('does not keep a body larger than an entry may be, nor one larger than the whole memo', () => {
    const memo = new ResponseMemo(10_000);
    memo.keep('k', 'v', { payload: body(20_000), byteLength: 20_000, etag: '"big"' });
    expect(memo.get('k')).toBeUndefined();
    const large = new ResponseMemo();
    large.keep('k', 'v', { payload: Buffer.alloc(100_000), byteLength: 100_000, etag: '"big"' });
    expect(large.get('k')).toBeUndefined();
    expect(large.totalBytes).toBe(0);
  });

  it('drops the previous answer of a key when the new one is too large to keep', () => {
    const memo = new ResponseMemo(10_000);
    memo.keep('k', 'v1', { payload: body(10), byteLength: 10, etag: '"small"' });
    memo.keep('k', 'v2', { payload: body(20_000), byteLength: 20_000, etag: '"big"' });
    expect(memo.get('k')).toBeUndefined();
    expect(memo.totalBytes).toBe(0);
  });

  it('never answers with an entry older than the age its versions are trusted for', () => {
    let now = 1_000;
    const memo = new ResponseMemo(10_000, () => now);
    memo.keep('k', 'v', { payload: body(10), byteLength: 10, etag: '"t"' });
    now += MAX_AGE_MS;
    expect(memo.get('k')?.etag).toBe('"t"');
    now += 1;
    expect(memo.get('k')).toBeUndefined();
    expect(memo.size).toBe(0);
    expect(memo.totalBytes).toBe(0);
  });
});
