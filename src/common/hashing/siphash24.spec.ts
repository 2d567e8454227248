import * as siphash from 'siphash';
import { calculateHash, calculateHashText, rawHash, sipHash24 } from './weblate-hash';

// The local SipHash-2-4 (siphash24.ts) against the `siphash` package it replaced, on messages of every
// length around the 8-byte blocks and on text with multi-byte UTF-8; the fixed vectors are in
// weblate-hash.spec.ts.

const packageHash = (key: Uint8Array, message: Uint8Array): bigint => {
  const view = new DataView(key.buffer, key.byteOffset, key.byteLength);
  const words = Uint32Array.from([0, 4, 8, 12], (offset) => view.getUint32(offset, true));
  const result = siphash.hash(words, message);
  return (BigInt(result.h >>> 0) << 32n) | BigInt(result.l >>> 0);
};

/** Deterministic pseudo-random bytes (a linear congruential generator): the same cases on every run. */
function bytes(length: number, seed: number): Uint8Array {
  const out = new Uint8Array(length);
  let state = seed;
  for (let i = 0; i < length; i += 1) {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    out[i] = state >>> 24;
  }
  return out;
}

describe('sipHash24 (local implementation)', () => {
  it('equals the siphash package for every length 0..80 under several keys', () => {
    for (let seed = 1; seed <= 5; seed += 1) {
      const key = bytes(16, seed * 7919);
      for (let length = 0; length <= 80; length += 1) {
        const message = bytes(length, seed * 31 + length);
        expect([seed, length, sipHash24(key, message)]).toEqual([seed, length, packageHash(key, message)]);
      }
    }
  });

  it('hashes texts longer than its scratch buffer, and shorter ones after them', () => {
    const key = Buffer.from('Weblate Sip Hash', 'ascii');
    for (const text of ['ž'.repeat(5000), 'a'.repeat(20000), 'short', '', '😀 emoji']) {
      expect(rawHash(text)).toBe(packageHash(key, Buffer.from(text, 'utf8')));
    }
  });

  it('calculateHashText is the decimal text of calculateHash, for both signs', () => {
    const texts = ['Message', 'ContextMessage', '', 'Příšerně žluťoučký kůň', 'a'.repeat(100)];
    for (const text of texts) expect(calculateHashText(text)).toBe(calculateHash(text).toString());
    expect(calculateHashText('Context', 'Message')).toBe('-1602104568316855346');
    expect(calculateHashText('Message')).toBe('8445691827737211251');
  });
});
