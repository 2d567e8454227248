import { createHash } from 'node:crypto';
import { entityTag, matchHits, noneMatchHits } from './preconditions';

describe('entityTag', () => {
  it('is the quoted base64url SHA-1 of the UTF-8 bytes, for a string and for its bytes alike', () => {
    const body = '{"name":"Čeština – ünïcode ✓","count":12345678901234567890}';
    const expected = `"${createHash('sha1').update(Buffer.from(body, 'utf8')).digest('base64url')}"`;
    expect(entityTag(body)).toBe(expected);
    expect(entityTag(Buffer.from(body, 'utf8'))).toBe(expected);
    expect(entityTag('')).toBe('"2jmj7l5rSw0yVb_vlWAYkK_YBwk"');
  });
});

describe('conditional request headers', () => {
  const tag = entityTag('{}');
  it('If-None-Match compares weakly and understands lists and *', () => {
    expect(noneMatchHits(`W/${tag}`, tag)).toBe(true);
    expect(noneMatchHits(`"other", ${tag}`, tag)).toBe(true);
    expect(noneMatchHits('*', tag)).toBe(true);
    expect(noneMatchHits('"other"', tag)).toBe(false);
    expect(noneMatchHits(undefined, tag)).toBe(false);
  });
  it('If-Match compares strongly', () => {
    expect(matchHits(tag, tag)).toBe(true);
    expect(matchHits(`W/${tag}`, tag)).toBe(false);
    expect(matchHits('*', tag)).toBe(true);
  });
});
