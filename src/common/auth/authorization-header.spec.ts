import { parseAuthorizationHeader } from './authorization-header';
import { generateUserToken, hashToken } from './token-hash';

describe('parseAuthorizationHeader', () => {
  it('reads Token and Bearer keys', () => {
    expect(parseAuthorizationHeader('Token abc')).toBe('abc');
    expect(parseAuthorizationHeader('Bearer abc')).toBe('abc');
    expect(parseAuthorizationHeader(undefined)).toBeNull();
    expect(parseAuthorizationHeader('Basic Zm9vOmJhcg==')).toBeNull();
  });

  it('rejects malformed headers with DRF texts', () => {
    expect(() => parseAuthorizationHeader('Token')).toThrow('Invalid token header. No credentials provided.');
    expect(() => parseAuthorizationHeader('Token a b')).toThrow('Invalid token header. Token string should not contain spaces.');
  });
});

describe('tokens', () => {
  it('generates Weblate-style keys and hashes them', () => {
    expect(generateUserToken()).toMatch(/^wlu_[A-Za-z0-9]{36}$/);
    expect(hashToken('x')).toMatch(/^[0-9a-f]{64}$/);
  });
});
