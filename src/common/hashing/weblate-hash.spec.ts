import { calculateHash, checksumToHash, hashToChecksum, rawHash, sipHash24 } from './weblate-hash';

// Vectors from languages-formats-hashing.md §3.2/§3.3/§2.2 and weblate-api.md §9.1.

const ascii = (text: string): Uint8Array => Buffer.from(text, 'ascii');
const range = (length: number): Uint8Array => Uint8Array.from({ length }, (_, i) => i);

describe('sipHash24 (reference vectors, §3.2 and weblate-api §9.1)', () => {
  it('key 00..0f, message 00..0e', () => {
    expect(sipHash24(range(16), range(15))).toBe(0xa129ca6149be45e5n);
  });

  it('key 00..0f, empty message gives bytes 31 0e 0e dd 47 db 6f 72 (little-endian)', () => {
    expect(sipHash24(range(16), new Uint8Array(0))).toBe(0x726fdb47dd0e0e31n);
  });

  it('key "sixteencharstrng", message "i need a hash of this"', () => {
    expect(sipHash24(ascii('sixteencharstrng'), ascii('i need a hash of this'))).toBe(10796923698683394048n);
  });

  it('key "0123456789ABCDEF", message "a"', () => {
    expect(sipHash24(ascii('0123456789ABCDEF'), ascii('a'))).toBe(12398370950267227270n);
  });

  it('rejects keys that are not 16 bytes', () => {
    expect(() => sipHash24(range(15), range(1))).toThrow(RangeError);
  });

  it('handles every message length around the 8-byte block boundaries', () => {
    // Only checks that lengths 0..40 run and differ; correctness is pinned by the vectors above.
    const seen = new Set<bigint>();
    for (let length = 0; length <= 40; length++) seen.add(sipHash24(range(16), range(length)));
    expect(seen.size).toBe(41);
  });
});

describe('calculateHash / checksums (Weblate unit tests, §3.2, weblate-api §9.1)', () => {
  it('calculate_hash("Message")', () => {
    expect(calculateHash('Message')).toBe(8445691827737211251n);
    expect(hashToChecksum(8445691827737211251n)).toBe('f5351ff85ab23173');
    expect(rawHash('Message').toString(16)).toBe('f5351ff85ab23173');
  });

  it('calculate_hash("Context", "Message") hashes the concatenation', () => {
    expect(calculateHash('Context', 'Message')).toBe(-1602104568316855346n);
    expect(calculateHash('ContextMessage')).toBe(-1602104568316855346n);
  });

  it('hashes the UTF-8 encoding of non-ASCII text', () => {
    expect(calculateHash('Příšerně žluťoučký kůň úpěl ďábelské ódy')).toBe(-4296353750398394478n);
  });

  it('calculate_hash("") and calculate_hash() are the hash of the empty string', () => {
    expect(calculateHash('')).toBe(2141328909150225308n);
    expect(calculateHash()).toBe(2141328909150225308n);
    expect(hashToChecksum(calculateHash(''))).toBe('9db7874c312c839c');
  });
});

describe('recorded real-server units (wlc 1.13 test data, §3.2)', () => {
  it('monolingual context A, source "String \'A\'"', () => {
    const idHash = calculateHash('A');
    expect(idHash).toBe(-6306725157533644379n);
    expect(calculateHash("String 'A'", 'A')).toBe(6706964138259559415n);
    expect(hashToChecksum(idHash)).toBe('287a02e2393009a5');
  });

  it('monolingual context B', () => {
    expect(calculateHash('B')).toBe(94239120442185084n);
    expect(hashToChecksum(94239120442185084n)).toBe('814ecdfb11e6d57c');
  });

  it('bilingual PO unit source "mr", empty context', () => {
    expect(calculateHash('mr', '')).toBe(3515632860997702012n);
  });
});

describe('json-nested worked examples (§3.3 and §2.2)', () => {
  const cases: Array<[context: string, source: string, idHash: bigint, contentHash: bigint, checksum: string]> = [
    ['app.title', 'Weblate', -6717303852330811496n, -95846635629574223n, '22c757bc71757f98'],
    ['messages.greeting', 'Hello, {name}!', -3002744788083073225n, 146268378239130230n, '56541b8643271f37'],
    [
      'errors.network.timeout',
      'Zpráva – čas vypršel',
      6869293640914731514n,
      4345228016189828435n,
      'df54a22bdc9281fa',
    ],
    [
      'cart.items',
      '{count} item\x1e\x1e{count} items',
      1816141635243407310n,
      -3108333615550042591n,
      '99343b31e67af7ce',
    ],
    ['list[0]', 'First', -4384817994132090469n, -271234623273053001n, '4325ff441f04119b'],
    // §2.2 table (template sources/main.json)
    ['app.greeting', 'Hello, {name}!', -6722914994396313773n, 2877657794238324096n, '22b3686e9fdc4753'],
    ['cart.items', '{count} items in cart', 1816141635243407310n, 307477479833810214n, '99343b31e67af7ce'],
    ['list[1]', 'Second', 2687294331881052410n, 1212373771198498151n, 'a54b2ff4fab0d8fa'],
  ];

  it.each(cases)('%s', (context, source, idHash, contentHash, checksum) => {
    expect(calculateHash(context)).toBe(idHash);
    expect(calculateHash(source, context)).toBe(contentHash);
    expect(hashToChecksum(idHash)).toBe(checksum);
    expect(checksumToHash(checksum)).toBe(idHash);
  });
});

describe('hashToChecksum / checksumToHash edges', () => {
  it('zero-pads to 16 digits and maps the range ends', () => {
    expect(hashToChecksum(-(1n << 63n))).toBe('0000000000000000');
    expect(hashToChecksum((1n << 63n) - 1n)).toBe('ffffffffffffffff');
    expect(hashToChecksum(-(1n << 63n) + 255n)).toBe('00000000000000ff');
  });

  it('accepts unpadded and uppercase checksums (older Weblate wrote unpadded ones)', () => {
    expect(checksumToHash('ff')).toBe(-(1n << 63n) + 255n);
    expect(checksumToHash('F5351FF85AB23173')).toBe(8445691827737211251n);
  });

  it('rejects invalid input', () => {
    expect(() => checksumToHash('')).toThrow(RangeError);
    expect(() => checksumToHash('xyz')).toThrow(RangeError);
    expect(() => checksumToHash('0'.repeat(17))).toThrow(RangeError);
    expect(() => hashToChecksum(1n << 63n)).toThrow(RangeError);
  });
});
