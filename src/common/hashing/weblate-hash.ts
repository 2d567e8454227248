import * as siphash from 'siphash';

// Weblate hashes with SipHash-2-4 under this fixed 16-byte ASCII key
// (languages-formats-hashing.md §3.1, weblate-api.md §9.1).
const WEBLATE_KEY = siphash.string16_to_key('Weblate Sip Hash');

// The unsigned result is shifted onto the signed range by subtracting 2^63; this is an
// offset, not a two's-complement cast (§3.1).
const OFFSET = 1n << 63n;
const U64_LIMIT = 1n << 64n;

// The package returns the 64-bit result as unsigned 32-bit halves {h, l}.
function toU64(result: siphash.SipHashResult): bigint {
  return (BigInt(result.h >>> 0) << 32n) | BigInt(result.l >>> 0);
}

// The package takes the key as four little-endian 32-bit words (what string16_to_key builds).
function keyWords(key: Uint8Array): Uint32Array {
  const view = new DataView(key.buffer, key.byteOffset, key.byteLength);
  return Uint32Array.from([0, 4, 8, 12], (offset) => view.getUint32(offset, true));
}

/** Plain SipHash-2-4 with a 16-byte key, read as the little-endian unsigned 64-bit output (§3.1). */
export function sipHash24(key: Uint8Array, message: Uint8Array): bigint {
  if (key.length !== 16) throw new RangeError('SipHash key must be 16 bytes');
  return toU64(siphash.hash(keyWords(key), message));
}

/** Weblate's `raw_hash`: SipHash-2-4 of the UTF-8 of `parts` joined with no separator (unsigned). */
export function rawHash(...parts: string[]): bigint {
  return toU64(siphash.hash(WEBLATE_KEY, Buffer.from(parts.join(''), 'utf8')));
}

/**
 * Weblate's `calculate_hash`: signed 64-bit value in [-2^63, 2^63).
 * id_hash of a monolingual unit = calculateHash(context); content_hash = calculateHash(source, context) (§3.1).
 */
export function calculateHash(...parts: string[]): bigint {
  return rawHash(...parts) - OFFSET;
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
