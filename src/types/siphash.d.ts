// The `siphash` package (jedisct1, 1.2.0) ships no typings; only the calls we use are declared.
declare module 'siphash' {
  /** A 64-bit value as high and low unsigned 32-bit halves. */
  export interface SipHashResult {
    h: number;
    l: number;
  }
  /** SipHash-2-4; string messages are UTF-8 encoded by the package. */
  export function hash(key: Uint32Array, message: string | Uint8Array): SipHashResult;
  export function hash_hex(key: Uint32Array, message: string | Uint8Array): string;
  /** Builds the key from a string whose UTF-8 encoding is exactly 16 bytes; throws otherwise. */
  export function string16_to_key(key: string): Uint32Array;
  export function string_to_u8(value: string): Uint8Array;
}
