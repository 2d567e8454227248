import { lookup as dnsLookup } from 'node:dns/promises';
import { inRange, isPublicAddress, parseAddress, parseRange, type AddressRange, type ParsedAddress } from './network-address';

// Which non-public hosts the server may connect to on behalf of an API caller, shared by the repository URL
// policy (src/vcs/repository-host-policy.ts, ALLOW_PRIVATE_REPOSITORY_HOSTS) and webhook targets
// (src/modules/addons, WEBHOOK_RESTRICT_PRIVATE / WEBHOOK_PRIVATE_ALLOWLIST): a host is resolved the way the
// connecting program will resolve it, and it is refused when any of its addresses is not public unicast,
// unless the operator allows that host name or network.

/** Which non-public hosts the operator allows. */
export interface HostPolicy {
  /** `true`: no host check at all (a server inside a trusted network, tests of local servers). */
  allowAllPrivate: boolean;
  /** Host names (lower case, no trailing dot) whose non-public addresses are allowed. */
  allowedNames: readonly string[];
  /** Non-public networks that are allowed. */
  allowedRanges: readonly AddressRange[];
}

/** The default: only public hosts. */
export const PUBLIC_HOSTS_ONLY: HostPolicy = Object.freeze({ allowAllPrivate: false, allowedNames: [], allowedRanges: [] });

/** Every host allowed. */
export const ANY_HOST: HostPolicy = Object.freeze({ allowAllPrivate: true, allowedNames: [], allowedRanges: [] });

/** Resolves a host name to IP addresses (all of them, in resolver order). Replaceable in tests. */
export type HostLookup = (host: string) => Promise<string[]>;

const LOOKUP_TIMEOUT_MS = 10_000;

/** A host name as git, curl and ssh read one (lower case; underscores occur in internal names). */
export const HOST_NAME = /^[a-z0-9_](?:[a-z0-9_.-]*[a-z0-9_.])?$/;

/** getaddrinfo, as git, curl, ssh and Node's http client use it: it also reads `2130706433`, `0x7f.1` and `127.1` as 127.0.0.1. */
export const systemLookup: HostLookup = async (host) => {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`DNS lookup of ${host} timed out`)), LOOKUP_TIMEOUT_MS);
  });
  try {
    const answers = await Promise.race([dnsLookup(host, { all: true, verbatim: true }), timeout]);
    return answers.map((answer) => answer.address);
  } finally {
    clearTimeout(timer);
  }
};

/** Why a host was refused; each user of the policy words its own message. */
export class HostRefusedError extends Error {
  override readonly name = 'HostRefusedError';

  constructor(readonly reason: 'non-public' | 'unresolved') {
    super(reason === 'non-public' ? 'The host has a non-public address.' : 'The host name could not be resolved.');
  }
}

export interface HostAddressOptions {
  lookup?: HostLookup;
  /** `refuse` an unresolvable name (before connecting), or `accept` it (null) when a URL is only being stored. */
  unresolved: 'refuse' | 'accept';
}

/**
 * The addresses of `host` (a name, or an address literal without brackets), each checked against `policy`;
 * throws {@link HostRefusedError} when one is refused (a client may try them all). Resolves with null when
 * the name does not resolve and `unresolved` is `accept`. With every host allowed nothing is looked up ([]).
 */
export async function checkedHostAddresses(host: string, policy: HostPolicy, options: HostAddressOptions): Promise<ParsedAddress[] | null> {
  if (policy.allowAllPrivate) return [];
  const addresses = await addressesOf(host, options);
  if (addresses === null) return null;
  const nameAllowed = policy.allowedNames.includes(host.replace(/\.$/, ''));
  for (const address of addresses) {
    if (isPublicAddress(address) || nameAllowed || policy.allowedRanges.some((range) => inRange(address, range))) continue;
    throw new HostRefusedError('non-public');
  }
  return addresses;
}

async function addressesOf(host: string, options: HostAddressOptions): Promise<ParsedAddress[] | null> {
  const literal = parseAddress(host);
  if (literal) return [literal];
  // curl answers `localhost` and `*.localhost` itself with loopback (RFC 6761), whatever DNS says.
  if (/(^|\.)localhost\.?$/.test(host)) return [parseAddress('127.0.0.1')!, parseAddress('::1')!];
  let answers: string[];
  try {
    answers = await (options.lookup ?? systemLookup)(host);
  } catch {
    answers = [];
  }
  const addresses = answers.map(parseAddress).filter((address): address is ParsedAddress => address !== null);
  if (addresses.length > 0) return addresses;
  if (options.unresolved === 'accept') return null;
  throw new HostRefusedError('unresolved');
}

/**
 * Reads a list of host names and IP networks (`gitlab.internal, 10.20.0.0/16, fd00::/8`) allowed although
 * they are not public; `problems` names the entries that are neither.
 */
export function parseHostAllowlist(text: string): { names: string[]; ranges: AddressRange[]; problems: string[] } {
  const names: string[] = [];
  const ranges: AddressRange[] = [];
  const problems: string[] = [];
  for (const entry of text.split(',').map((part) => part.trim().toLowerCase()).filter(Boolean)) {
    const range = parseRange(entry);
    if (range) ranges.push(range);
    else if (/^[0-9./]+$/.test(entry) || entry.includes(':')) problems.push(`"${entry}" is not a valid IP address or network`);
    else if (HOST_NAME.test(entry.replace(/\.$/, ''))) names.push(entry.replace(/\.$/, ''));
    else problems.push(`"${entry}" is neither a host name nor an IP network`);
  }
  return { names, ranges, problems };
}
