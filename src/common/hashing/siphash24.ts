// SipHash-2-4 (Aumasson & Bernstein) over 32-bit halves held in local variables (issue 11, PO import speed).
// The `siphash` package this replaces allocates a {h, l} object per 64-bit add and rotation, and a Buffer per
// message: about 1.2 million hashes per 300,000-unit import made it a tenth of the main thread's time there,
// most of it garbage collection. This version allocates nothing per hash except the result; the messages are
// encoded into one reusable scratch buffer. Results are pinned by the reference vectors in
// weblate-hash.spec.ts (languages-formats-hashing.md §3.2) and compared with the package in siphash24.spec.ts.

/** The key as four little-endian 32-bit words: k0 = (w1 << 32) | w0, k1 = (w3 << 32) | w2. */
export type SipKey = readonly [number, number, number, number];

export function sipKey(key: Uint8Array): SipKey {
  if (key.length !== 16) throw new RangeError('SipHash key must be 16 bytes');
  const word = (offset: number): number => (key[offset] | (key[offset + 1] << 8) | (key[offset + 2] << 16) | (key[offset + 3] << 24)) >>> 0;
  return [word(0), word(4), word(8), word(12)];
}

/** The 64-bit result as unsigned 32-bit halves, written into `out` ([low, high]) to avoid an allocation. */
export function sipHash24Into(key: SipKey, message: Uint8Array, length: number, out: Uint32Array): void {
  // v0..v3 as (high, low) pairs of unsigned 32-bit numbers.
  let v0h = (key[1] ^ 0x736f6d65) >>> 0;
  let v0l = (key[0] ^ 0x70736575) >>> 0;
  let v1h = (key[3] ^ 0x646f7261) >>> 0;
  let v1l = (key[2] ^ 0x6e646f6d) >>> 0;
  let v2h = (key[1] ^ 0x6c796765) >>> 0;
  let v2l = (key[0] ^ 0x6e657261) >>> 0;
  let v3h = (key[3] ^ 0x74656462) >>> 0;
  let v3l = (key[2] ^ 0x79746573) >>> 0;
  let t: number;
  // Message words: every full 8-byte block, then the last one (the remaining bytes, and the length mod 256
  // in the top byte); after them one more step that is the finalisation (v2 ^= 0xff, 4 rounds). The round
  // is written once, inside the loop, so no closure or state array is needed.
  const words = (length >>> 3) + 1;
  let i = 0;
  for (let k = 0; k <= words; k += 1) {
    let ml = 0;
    let mh = 0;
    let rounds = 2;
    if (k + 1 < words) {
      ml = (message[i] | (message[i + 1] << 8) | (message[i + 2] << 16) | (message[i + 3] << 24)) >>> 0;
      mh = (message[i + 4] | (message[i + 5] << 8) | (message[i + 6] << 16) | (message[i + 7] << 24)) >>> 0;
      i += 8;
    } else if (k + 1 === words) {
      mh = (length & 0xff) << 24;
      for (let shift = 0; i < length; i += 1, shift += 8) {
        if (shift < 32) ml |= message[i] << shift;
        else mh |= message[i] << (shift - 32);
      }
      ml >>>= 0;
      mh >>>= 0;
    } else {
      v2l = (v2l ^ 0xff) >>> 0;
      rounds = 4;
    }
    v3l = (v3l ^ ml) >>> 0;
    v3h = (v3h ^ mh) >>> 0;
    for (let r = 0; r < rounds; r += 1) {
      // v0 += v1; v1 = rotl(v1, 13); v1 ^= v0; v0 = rotl(v0, 32)
      t = (v0l + v1l) >>> 0;
      v0h = (v0h + v1h + (t < v0l ? 1 : 0)) >>> 0;
      v0l = t;
      t = ((v1h << 13) | (v1l >>> 19)) >>> 0;
      v1l = ((v1l << 13) | (v1h >>> 19)) >>> 0;
      v1h = (t ^ v0h) >>> 0;
      v1l = (v1l ^ v0l) >>> 0;
      t = v0h;
      v0h = v0l;
      v0l = t;
      // v2 += v3; v3 = rotl(v3, 16); v3 ^= v2
      t = (v2l + v3l) >>> 0;
      v2h = (v2h + v3h + (t < v2l ? 1 : 0)) >>> 0;
      v2l = t;
      t = ((v3h << 16) | (v3l >>> 16)) >>> 0;
      v3l = ((v3l << 16) | (v3h >>> 16)) >>> 0;
      v3h = (t ^ v2h) >>> 0;
      v3l = (v3l ^ v2l) >>> 0;
      // v0 += v3; v3 = rotl(v3, 21); v3 ^= v0
      t = (v0l + v3l) >>> 0;
      v0h = (v0h + v3h + (t < v0l ? 1 : 0)) >>> 0;
      v0l = t;
      t = ((v3h << 21) | (v3l >>> 11)) >>> 0;
      v3l = ((v3l << 21) | (v3h >>> 11)) >>> 0;
      v3h = (t ^ v0h) >>> 0;
      v3l = (v3l ^ v0l) >>> 0;
      // v2 += v1; v1 = rotl(v1, 17); v1 ^= v2; v2 = rotl(v2, 32)
      t = (v2l + v1l) >>> 0;
      v2h = (v2h + v1h + (t < v2l ? 1 : 0)) >>> 0;
      v2l = t;
      t = ((v1h << 17) | (v1l >>> 15)) >>> 0;
      v1l = ((v1l << 17) | (v1h >>> 15)) >>> 0;
      v1h = (t ^ v2h) >>> 0;
      v1l = (v1l ^ v2l) >>> 0;
      t = v2h;
      v2h = v2l;
      v2l = t;
    }
    v0l = (v0l ^ ml) >>> 0;
    v0h = (v0h ^ mh) >>> 0;
  }
  out[0] = (v0l ^ v1l ^ v2l ^ v3l) >>> 0;
  out[1] = (v0h ^ v1h ^ v2h ^ v3h) >>> 0;
}
