import { hashToken, MAX_REMEMBERED_KEY_LENGTH, RECENT_TOKEN_HASHES, requestTokenHash } from './token-hash';

describe('requestTokenHash', () => {
  it('is hashToken, for a remembered key and for a new one', () => {
    expect(requestTokenHash('wlu_first')).toBe(hashToken('wlu_first'));
    expect(requestTokenHash('wlu_first')).toBe(hashToken('wlu_first'));
    expect(requestTokenHash('wlu_second')).toBe(hashToken('wlu_second'));
  });

  it('stays right past its bound (the oldest keys are hashed again)', () => {
    for (let i = 0; i <= RECENT_TOKEN_HASHES + 5; i++) expect(requestTokenHash(`key-${i}`)).toBe(hashToken(`key-${i}`));
    expect(requestTokenHash('key-0')).toBe(hashToken('key-0'));
  });

  it('hashes a key longer than any real one every time, right as well', () => {
    const long = `wlu_${'x'.repeat(MAX_REMEMBERED_KEY_LENGTH)}`;
    expect(requestTokenHash(long)).toBe(hashToken(long));
    expect(requestTokenHash(long)).toBe(hashToken(long));
  });
});
