import { sipHash24Into, sipKey } from './siphash24';

// Weblate hashes with SipHash-2-4 under this fixed 16-byte ASCII key
// (languages-formats-hashing.md §3.1, weblate-api.md §9.1).
const WEBLATE_KEY = sipKey(Buffer.from('Weblate Sip Hash', 'ascii'));

// The unsigned result is shifted onto the signed range by subtracting 2^63; this is an
// offset, not a two's-complement cast (§3.1).
const OFFSET = 1n << 63n;
const U64_LIMIT = 1n << 64n;

// One result slot and one scratch buffer for the UTF-8 of the hashed text, reused by every hash: an import
// hashes each unit's text twice or more, and a Buffer per hash was most of the garbage that made.
const RESULT = new Uint32Array(2);
// Eight bytes to read a result as a signed 64-bit number (little-endian whatever the platform's order).
const SIGNED = new DataView(new ArrayBuffer(8));
let scratch = Buffer.allocUnsafeSlow(4096);

const toU64 = (): bigint => (BigInt(RESULT[1]) << 32n) | BigInt(RESULT[0]);

/** Plain SipHash-2-4 with a 16-byte key, read as the little-endian unsigned 64-bit output (§3.1). */
export function sipHash24(key: Uint8Array, message: Uint8Array): bigint {
  sipHash24Into(sipKey(key), message, message.length, RESULT);
  return toU64();
}

/** SipHash of the UTF-8 of `text` under Weblate's key, left in RESULT. */
function hashText(text: string): void {
  // UTF-8 takes at most 3 bytes per UTF-16 code unit.
  if (text.length * 3 > scratch.length) scratch = Buffer.allocUnsafeSlow(Math.max(text.length * 3, scratch.length * 2));
  const length = scratch.write(text, 0, 'utf8');
  sipHash24Into(WEBLATE_KEY, scratch, length, RESULT);
}

/** Weblate's `raw_hash`: SipHash-2-4 of the UTF-8 of `parts` joined with no separator (unsigned). */
export function rawHash(...parts: string[]): bigint {
  hashText(parts.join(''));
  return toU64();
}

/**
 * Weblate's `calculate_hash`: signed 64-bit value in [-2^63, 2^63).
 * id_hash of a monolingual unit = calculateHash(context); content_hash = calculateHash(source, context) (§3.1).
 */
export function calculateHash(...parts: string[]): bigint {
  return rawHash(...parts) - OFFSET;
}

/**
 * calculateHash(...parts).toString(), the decimal text units store, with one BigInt instead of four: the
 * unsigned value minus 2^63 is the signed 64-bit reading of the value with its top bit flipped.
 */
export function calculateHashText(...parts: string[]): string {
  hashText(parts.length === 1 ? parts[0] : parts.join(''));
  SIGNED.setUint32(0, RESULT[0], true);
  SIGNED.setUint32(4, (RESULT[1] ^ 0x80000000) >>> 0, true);
  return SIGNED.getBigInt64(0, true).toString();
}

/** `hash_to_checksum`: id_hash + 2^63 as 16 zero-padded lowercase hex digits (the `?checksum=` of web_url). */
export function hashToChecksum(idHash: bigint): string {
  const unsigned = idHash + OFFSET;
  if (unsigned < 0n || unsigned >= U64_LIMIT) {
    throw new RangeError(`Hash ${idHash} is outside the signed 64-bit range`);
  }
  return unsigned.toString(16).padStart(16, '0');
}

/**
 * `checksum_to_hash`: the inverse of hashToChecksum. Unpadded checksums (written by Weblate ≈4.5–4.10,
 * weblate-api.md §9.1) are accepted too.
 */
export function checksumToHash(hex: string): bigint {
  if (!/^[0-9a-fA-F]{1,16}$/.test(hex)) {
    throw new RangeError(`Invalid checksum: ${JSON.stringify(hex)}`);
  }
  return BigInt(`0x${hex}`) - OFFSET;
}
