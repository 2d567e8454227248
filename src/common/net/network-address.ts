import { isIPv4, isIPv6 } from 'node:net';

// Which IP addresses a URL set through the API may make the server connect to (server-side request forgery:
// repository URLs, issue 10 item 6; webhook targets, issue 14 item 2). Such a host is reached on behalf of
// whoever set the URL, so anything that is not ordinary public unicast is refused: this host, the private networks behind it, link-local
// (cloud metadata at 169.254.169.254), multicast, and the special-purpose blocks of IANA's IPv4 and IPv6
// registries. Weblate's guard missed ranges once (GHSA-vmfc-9982-2m45); the lists below follow the
// registries rather than memory, and IPv6 forms that carry an IPv4 address are judged by that address.

/** An address as [version, value] with the value as a bigint (32 or 128 bits). */
export interface ParsedAddress {
  version: 4 | 6;
  value: bigint;
}

/** A network in CIDR form, parsed. */
export interface AddressRange {
  version: 4 | 6;
  base: bigint;
  prefix: number;
}

// IANA IPv4 Special-Purpose Address Registry, plus multicast and the reserved 240/4.
const IPV4_SPECIAL = [
  '0.0.0.0/8', // "this network" (0.0.0.0 reaches the local host on Linux)
  '10.0.0.0/8',
  '100.64.0.0/10', // carrier-grade NAT
  '127.0.0.0/8',
  '169.254.0.0/16', // link-local, cloud metadata services
  '172.16.0.0/12',
  '192.0.0.0/24', // IETF protocol assignments
  '192.0.2.0/24', // documentation
  '192.31.196.0/24', // AS112
  '192.52.193.0/24', // AMT
  '192.88.99.0/24', // 6to4 relay anycast
  '192.168.0.0/16',
  '192.175.48.0/24', // AS112 direct delegation
  '198.18.0.0/15', // benchmarking
  '198.51.100.0/24', // documentation
  '203.0.113.0/24', // documentation
  '224.0.0.0/4', // multicast
  '240.0.0.0/4', // reserved, and 255.255.255.255 broadcast
].map(parseRangeOrThrow);

// IPv6: only global unicast (2000::/3) is reachable at all; within it, the special-purpose blocks go too.
const IPV6_GLOBAL_UNICAST = parseRangeOrThrow('2000::/3');
const IPV6_SPECIAL = [
  '2001::/23', // IETF protocol assignments, Teredo (2001::/32) included
  '2001:db8::/32', // documentation
  '2002::/16', // 6to4: tunnels to any IPv4 address, private ones included
  '3fff::/20', // documentation
].map(parseRangeOrThrow);
// IPv6 forms whose last 32 bits are an IPv4 address the packet ends up at: judge that address.
const IPV6_EMBEDDING_IPV4 = [
  '::ffff:0:0/96', // IPv4-mapped
  '::/96', // IPv4-compatible (deprecated); also :: and ::1, which the IPv4 check refuses as 0.0.0.0/8
  '64:ff9b::/96', // NAT64 well-known prefix (DNS64 answers for IPv4-only hosts)
].map(parseRangeOrThrow);

/** The address in `text` (canonical dotted quad or any IPv6 spelling, brackets allowed), or null. */
export function parseAddress(text: string): ParsedAddress | null {
  const bare = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  if (isIPv4(bare)) {
    return { version: 4, value: bare.split('.').reduce((acc, part) => (acc << 8n) | BigInt(Number(part)), 0n) };
  }
  // A zone id (fe80::1%eth0) names an interface: only link-local addresses have one, and those are refused.
  if (!isIPv6(bare) || bare.includes('%')) return null;
  return { version: 6, value: parseIPv6(bare) };
}

/** `10.0.0.0/8`, `fd00::/8` or a single address (a /32 or /128). Null when it is neither. */
export function parseRange(text: string): AddressRange | null {
  const [address, prefixText, extra] = text.trim().split('/');
  if (extra !== undefined) return null;
  const parsed = parseAddress(address);
  if (!parsed) return null;
  const bits = parsed.version === 4 ? 32 : 128;
  const prefix = prefixText === undefined ? bits : /^\d{1,3}$/.test(prefixText) ? Number(prefixText) : NaN;
  if (!(prefix >= 0 && prefix <= bits)) return null;
  const shift = BigInt(bits - prefix);
  return { version: parsed.version, base: (parsed.value >> shift) << shift, prefix };
}

export function inRange(address: ParsedAddress, range: AddressRange): boolean {
  if (address.version !== range.version) return false;
  const shift = BigInt((address.version === 4 ? 32 : 128) - range.prefix);
  return address.value >> shift === range.base >> shift;
}

/**
 * True for addresses a repository host may have: public unicast. False for loopback, private, shared,
 * link-local, unique-local, multicast, unspecified, documentation and other special-purpose addresses,
 * and for IPv6 addresses that carry one of those IPv4 addresses.
 */
export function isPublicAddress(address: ParsedAddress): boolean {
  if (address.version === 4) return !IPV4_SPECIAL.some((range) => inRange(address, range));
  const embedded = IPV6_EMBEDDING_IPV4.find((range) => inRange(address, range));
  if (embedded) return isPublicAddress({ version: 4, value: address.value & 0xffffffffn });
  return inRange(address, IPV6_GLOBAL_UNICAST) && !IPV6_SPECIAL.some((range) => inRange(address, range));
}

/** The address in the form curl and ssh take: dotted quad, or IPv6 in brackets. */
export function formatAddress(address: ParsedAddress): string {
  if (address.version === 4) {
    return [24n, 16n, 8n, 0n].map((shift) => String((address.value >> shift) & 0xffn)).join('.');
  }
  const words = [];
  for (let i = 7; i >= 0; i--) words.push(((address.value >> BigInt(i * 16)) & 0xffffn).toString(16));
  return `[${words.join(':')}]`;
}

function parseIPv6(text: string): bigint {
  // node:net validated the spelling; expand an embedded dotted quad and the `::` run, then read 8 words.
  let source = text;
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(source);
  if (dotted) {
    const octets = dotted[1].split('.').map(Number);
    source = `${source.slice(0, dotted.index)}${((octets[0] << 8) | octets[1]).toString(16)}:${((octets[2] << 8) | octets[3]).toString(16)}`;
  }
  const [head, tail] = source.split('::');
  const headWords = head === '' ? [] : head.split(':');
  const tailWords = tail === undefined || tail === '' ? [] : tail.split(':');
  const words = tail === undefined ? headWords : [...headWords, ...Array(8 - headWords.length - tailWords.length).fill('0'), ...tailWords];
  return words.reduce((acc, word) => (acc << 16n) | BigInt(parseInt(word, 16)), 0n);
}

function parseRangeOrThrow(text: string): AddressRange {
  const range = parseRange(text);
  if (!range) throw new Error(`Bad built-in range ${text}`);
  return range;
}
