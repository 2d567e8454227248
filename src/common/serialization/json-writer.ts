import { randomBytes } from 'node:crypto';

/**
 * Marks a number written verbatim (a bigint's digits, a OneDecimal's text). JSON.stringify writes it as the
 * string `"\u0001<nonce>:<digits>"`, and serializeJson then unquotes exactly those strings. The nonce is
 * random per process, so no text from a request or a repository can spell a marker: U+0001 inside a JSON
 * string is always written escaped, and nobody outside the process knows the nonce.
 */
const MARKER_PREFIX = `\u0001${randomBytes(12).toString('hex')}:`;
/** A marker string's opening as JSON.stringify writes it: the quote, U+0001 escaped, the nonce and the colon. */
const MARKER_OPENING = `"\\u0001${MARKER_PREFIX.slice(1)}`;
/** What a marker holds between its opening and its closing quote. */
const MARKER_NUMBER = /^-?[0-9]+(?:\.[0-9])?$/;

/**
 * A number that Weblate writes with one decimal place (`100.0`, `66.6`). JSON.stringify would write
 * `100`, which wlc and strict clients read as an integer (wlc-client.md §3.2).
 */
export class OneDecimal {
  constructor(readonly value: number) {}

  /** Called by JSON.stringify (see serializeJson); a non-finite value is written as null, as JSON.stringify does. */
  toJSON(): string | null {
    return Number.isFinite(this.value) ? MARKER_PREFIX + this.value.toFixed(1) : null;
  }
}

/**
 * A 64-bit integer that serializeJson writes as its exact digits, held as the marker string a bigint's toJSON
 * gives inside serializeJson. A response mapper writing many of them (a page of units has two per unit) uses
 * this instead of a bigint: JSON.stringify calls a bigint's toJSON from C++ for each one, which made a
 * 200-unit page cost about 1 ms more to serialize (docs/performance.md, "Indexed search, session 8"). The
 * string means nothing outside serializeJson, which every response goes through (send-json.ts).
 */
export type ExactInteger = string & { readonly __exactInteger: true };

export function exactInteger(value: bigint): ExactInteger {
  return (MARKER_PREFIX + value.toString()) as ExactInteger;
}

/**
 * A JSON text that serializeJson writes verbatim where it stands: a value PostgreSQL built from a response
 * mapper's field list (unit.response.ts unitJsonSql), so that a page of units reaches the socket without being
 * parsed into objects and written again (issue 15 item 2, docs/performance.md "Unit JSON from PostgreSQL").
 * Inside serializeJson it becomes a marker holding its index, which the splice after JSON.stringify replaces
 * with the text; anywhere else (Express's own res.json, a log) it is the value the text denotes.
 */
export class RawJson {
  constructor(readonly text: string) {}

  toJSON(): unknown {
    if (rawTexts === null) return JSON.parse(this.text) as unknown;
    rawTexts.push(this.text);
    return `${MARKER_PREFIX}r${rawTexts.length - 1}`;
  }
}

/** The RawJson texts met by the JSON.stringify running in stringifyWithMarkers (null outside it). */
let rawTexts: string[] | null = null;

/** A RawJson marker's opening as JSON.stringify writes it; its index and the closing quote follow. */
const RAW_OPENING = `${MARKER_OPENING}r`;

type BigIntWithJson = { toJSON?: (this: bigint) => string };

/** How many serializeJson calls are running (the calls are synchronous; a nested one must not end the outer). */
let serializing = 0;

/**
 * BigInt.prototype.toJSON is installed once, at load, and writes the marker only while serializeJson runs;
 * anywhere else it behaves as before (a toJSON someone else installed first, or JSON.stringify's own
 * TypeError). It used to be added and deleted around every call: each change of BigInt.prototype's shape
 * threw away the optimised code of every function using bigints (V8 "code dependencies" deopts, traced with
 * --trace-deopt), so every function using bigints (the unit mapper of the time) ran unoptimised and a 200-unit
 * page took about 5 ms to build instead of 0.3 ms (docs/performance.md, "Search CPU").
 */
const otherBigIntJson = (BigInt.prototype as BigIntWithJson).toJSON;
Object.defineProperty(BigInt.prototype, 'toJSON', {
  configurable: true,
  writable: true,
  enumerable: false,
  value: function bigintToJson(this: bigint): string {
    if (serializing > 0) return MARKER_PREFIX + this.toString();
    if (otherBigIntJson !== undefined) return otherBigIntJson.call(this);
    throw new TypeError('Do not know how to serialize a BigInt');
  },
});

/**
 * Compact JSON as DRF renders it, plus two things JSON.stringify cannot do: `bigint` values become exact
 * integer literals (id_hash/content_hash exceed 2^53, architecture.md "The contract") and OneDecimal
 * values keep their decimal point. UTF-8 stays unescaped; undefined fields are left out.
 *
 * The native JSON.stringify does the work (a hand-written walker that stringified each string on its own
 * cost 0.5 ms of a 50-unit page, docs/performance.md): bigints and OneDecimals turn into marker strings
 * through toJSON, and one pass over the output replaces each marker with its bare number. A bigint becomes
 * a marker only inside this (synchronous) call, so nothing else in the process sees one.
 */
export function serializeJson(value: unknown): string {
  const { text, raws } = stringifyWithMarkers(value);
  return spliceRawTexts(unquoteMarkers(text), raws);
}

/**
 * JSON.stringify with bigints, OneDecimals and RawJson values as marker strings (undefined is written as
 * `null`), and the RawJson texts met, by index.
 */
function stringifyWithMarkers(value: unknown): { text: string; raws: string[] } {
  let text: string | undefined;
  const outer = rawTexts;
  const raws: string[] = [];
  rawTexts = raws;
  serializing += 1;
  try {
    text = JSON.stringify(value);
  } finally {
    serializing -= 1;
    rawTexts = outer;
  }
  return { text: text ?? 'null', raws };
}

/**
 * `text` with each RawJson marker replaced by its text. The markers were written by this process, after the
 * number markers were removed, and a RawJson text is never searched: a marker spelled inside one (which would
 * need the process's nonce) stays as it is.
 */
function spliceRawTexts(text: string, raws: readonly string[]): string {
  if (raws.length === 0) return text;
  let out = '';
  let copied = 0;
  let at = text.indexOf(RAW_OPENING);
  while (at !== -1) {
    const start = at + RAW_OPENING.length;
    const end = text.indexOf('"', start);
    const index = end === -1 ? NaN : Number(text.slice(start, end));
    if (Number.isInteger(index) && index >= 0 && index < raws.length) {
      out += text.slice(copied, at) + raws[index];
      copied = end + 1;
      at = text.indexOf(RAW_OPENING, copied);
    } else {
      at = text.indexOf(RAW_OPENING, at + 1);
    }
  }
  return out + text.slice(copied);
}

/** JSON texts at least this long (UTF-16 code units) are finished as bytes by serializeJsonPayload. */
const LARGE_TEXT = 16 * 1024;

/**
 * serializeJson's bytes for a response body: a string for a small body (Node sends it in one write with the
 * headers, send-json.ts), a Buffer for a large one. A large text is encoded to UTF-8 once and its markers are
 * removed from the bytes: done on the string, a 200-unit page (400 markers, 170 kB) became a rope of 800
 * pieces that was copied flat again before it was hashed for the ETag, measured for Content-Length and
 * encoded for the socket, which together cost about as much as JSON.stringify itself (docs/performance.md,
 * "Indexed search, session 10"). The marker opening and the digits are ASCII, which UTF-8 never uses inside
 * a multi-byte character, so they are found in the bytes exactly as in the text.
 */
export function serializeJsonPayload(value: unknown): string | Buffer {
  // A body that is one JSON text already (a unit's JSON from PostgreSQL, a kept root) is sent as it is: the
  // marker round trip below would give the same text.
  if (value instanceof RawJson) return value.text.length < LARGE_TEXT ? value.text : Buffer.from(value.text, 'utf8');
  const { text, raws } = stringifyWithMarkers(value);
  if (raws.length > 0) {
    // The text around RawJson values (an envelope) is small: its markers go on the string, then the bytes
    // of the whole are encoded once.
    const whole = spliceRawTexts(unquoteMarkers(text), raws);
    return whole.length < LARGE_TEXT ? whole : Buffer.from(whole, 'utf8');
  }
  return text.length < LARGE_TEXT ? unquoteMarkers(text) : unquoteMarkerBytes(Buffer.from(text, 'utf8'));
}

const MARKER_OPENING_BYTES = Buffer.from(MARKER_OPENING, 'latin1');
const QUOTE = 0x22;

/** unquoteMarkers over UTF-8 bytes: each marker string replaced by its number, into a new Buffer. */
function unquoteMarkerBytes(bytes: Buffer): Buffer {
  let at = bytes.indexOf(MARKER_OPENING_BYTES);
  if (at === -1) return bytes;
  const out = Buffer.allocUnsafe(bytes.length);
  let written = 0;
  let copied = 0;
  while (at !== -1) {
    const start = at + MARKER_OPENING_BYTES.length;
    const end = bytes.indexOf(QUOTE, start);
    if (end !== -1 && MARKER_NUMBER.test(bytes.toString('latin1', start, end))) {
      written += bytes.copy(out, written, copied, at);
      written += bytes.copy(out, written, start, end);
      copied = end + 1;
      at = bytes.indexOf(MARKER_OPENING_BYTES, copied);
    } else {
      at = bytes.indexOf(MARKER_OPENING_BYTES, at + 1);
    }
  }
  written += bytes.copy(out, written, copied);
  return out.subarray(0, written);
}


/**
 * `text` with each marker string replaced by the number it holds. A loop of indexOf and slices: the global
 * regular expression that did this took 3–7 ms for a 200-unit page (400 markers in 170 kB), this about 0.3 ms
 * (docs/performance.md, "Indexed search, session 9"). What does not hold a number stays as it is.
 */
function unquoteMarkers(text: string): string {
  let at = text.indexOf(MARKER_OPENING);
  if (at === -1) return text;
  let out = '';
  let copied = 0;
  while (at !== -1) {
    const start = at + MARKER_OPENING.length;
    const end = text.indexOf('"', start);
    const number = end === -1 ? '' : text.slice(start, end);
    if (MARKER_NUMBER.test(number)) {
      out += text.slice(copied, at) + number;
      copied = end + 1;
      at = text.indexOf(MARKER_OPENING, copied);
    } else {
      at = text.indexOf(MARKER_OPENING, at + 1);
    }
  }
  return out + text.slice(copied);
}
