import {
  ANY_HOST as ANY_HOST_POLICY,
  checkedHostAddresses,
  HOST_NAME,
  HostRefusedError,
  parseHostAllowlist,
  PUBLIC_HOSTS_ONLY as PUBLIC_HOSTS_POLICY,
  systemLookup as systemHostLookup,
  type HostLookup as SharedHostLookup,
  type HostPolicy,
} from '../common/net/host-policy';
import { formatAddress, parseAddress, type ParsedAddress } from '../common/net/network-address';

// Where a repository URL makes the server connect to (issue 10 item 6). The URL policy
// (repository-url-policy.ts) decides what git may be given; this decides which hosts git may reach: the host
// is resolved the way git, ssh and curl will resolve it, and private, loopback, link-local and other
// non-public addresses are refused unless ALLOW_PRIVATE_REPOSITORY_HOSTS allows them (the address rules are
// shared with webhook targets: src/common/net/host-policy.ts). The check runs when a
// URL is written and again right before every git command that goes to the network (DNS may have changed in
// between); for http(s) the checked addresses are then pinned (curl's resolve list), so a second, different
// DNS answer (rebinding) cannot redirect git, and HTTP redirects are refused outright, since their target is
// never checked (GHSA-45m9-pf98-8jmq, GHSA-hfpv-mc5v-p9mm).

/** Which non-public repository hosts the operator allows (ALLOW_PRIVATE_REPOSITORY_HOSTS). */
export type RepositoryHostPolicy = HostPolicy;

/** The default: only public hosts. */
export const PUBLIC_HOSTS_ONLY: RepositoryHostPolicy = PUBLIC_HOSTS_POLICY;

/** Every host allowed (ALLOW_PRIVATE_REPOSITORY_HOSTS=true). */
export const ANY_HOST: RepositoryHostPolicy = ANY_HOST_POLICY;

/** A repository host the server will not connect to; the message is safe to show to whoever set the URL. */
export class RepositoryHostError extends Error {
  override readonly name = 'RepositoryHostError';
}

export const PRIVATE_HOST_MESSAGE =
  'The repository host is a private, loopback, link-local or otherwise non-public address, which this server does not connect to (ALLOW_PRIVATE_REPOSITORY_HOSTS).';

/** Resolves a host name to IP addresses (all of them, in resolver order). Replaceable in tests. */
export type HostLookup = SharedHostLookup;

/** getaddrinfo, as git, curl and ssh use it. */
export const systemLookup: HostLookup = systemHostLookup;

export type NetworkScheme = 'http' | 'https' | 'ssh' | 'git';

/** The host a network repository URL makes git (or ssh, or curl) connect to. */
export interface RepositoryTarget {
  scheme: NetworkScheme;
  /** As the connecting program sees it: lower case, IPv6 without brackets. */
  host: string;
  port: number;
}

const DEFAULT_PORTS: Record<NetworkScheme, number> = { http: 80, https: 443, ssh: 22, git: 9418 };

/**
 * The connection target of `url`, or null for a local repository (an absolute path or `file://`). Throws
 * {@link RepositoryHostError} for a host no connecting program would read the same way we do.
 */
export function repositoryTarget(url: string): RepositoryTarget | null {
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):\/\//.exec(url)?.[1]?.toLowerCase();
  if (scheme === 'file' || (scheme === undefined && url.startsWith('/'))) return null;
  if (scheme === 'http' || scheme === 'https') return httpTarget(url, scheme);
  if (scheme === 'ssh' || scheme === 'git') {
    // git percent-decodes a URL before taking it apart (connect.c: url_decode), so do the same; the host
    // is what follows the last '@' of the authority (ssh splits user@host there).
    const decoded = percentDecode(url.slice(scheme.length + 3));
    const authority = decoded.split('/', 1)[0];
    return hostAndPort(authority.slice(authority.lastIndexOf('@') + 1), scheme);
  }
  if (scheme !== undefined) throw new RepositoryHostError(`The "${scheme}" protocol is not allowed.`);
  // scp-like `[user@]host:path`: no decoding, the host ends at the first ':' (git's host_end).
  const bracketed = /^(?:[^@/:[\]]+@)?\[([^\]/]+)\]:/.exec(url);
  if (bracketed) return checkedTarget(bracketed[1], 'ssh', DEFAULT_PORTS.ssh);
  const beforeColon = url.split(':', 1)[0];
  return checkedTarget(beforeColon.slice(beforeColon.lastIndexOf('@') + 1), 'ssh', DEFAULT_PORTS.ssh);
}

function httpTarget(url: string, scheme: 'http' | 'https'): RepositoryTarget {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new RepositoryHostError('Could not parse the repository URL.');
  }
  // WHATWG, like curl, reads IPv4 in any spelling (`http://0x7f.1/` is 127.0.0.1) and lower-cases names.
  const host = parsed.hostname.startsWith('[') ? parsed.hostname.slice(1, -1) : parsed.hostname;
  return checkedTarget(host, scheme, parsed.port === '' ? DEFAULT_PORTS[scheme] : Number(parsed.port));
}

function hostAndPort(authority: string, scheme: 'ssh' | 'git'): RepositoryTarget {
  const v6 = /^\[([^\]]+)\](?::(\d*))?$/.exec(authority);
  const [host, port] = v6 ? [v6[1], v6[2]] : authority.split(/:(?=\d*$)/);
  return checkedTarget(host ?? '', scheme, port ? Number(port) : DEFAULT_PORTS[scheme]);
}

function checkedTarget(rawHost: string, scheme: NetworkScheme, port: number): RepositoryTarget {
  const host = rawHost.toLowerCase();
  if (!(port >= 1 && port <= 65535)) throw new RepositoryHostError('The repository URL names an invalid port.');
  if (parseAddress(host) === null && !HOST_NAME.test(host)) {
    throw new RepositoryHostError('The repository URL does not name a valid host.');
  }
  return { scheme, host, port };
}

/** A target together with the addresses it was found to have (empty when no check was made). */
export interface CheckedRepositoryTarget {
  target: RepositoryTarget;
  addresses: ParsedAddress[];
}

export interface HostCheckOptions {
  lookup?: HostLookup;
  /**
   * What to do when the name does not resolve: `refuse` before connecting (git would fail anyway), or
   * `accept` when a URL is only being stored (a host may be down, or the server offline, at that moment).
   */
  unresolved: 'refuse' | 'accept';
}

/**
 * Resolves the host of `url` and checks every address against `policy`. Resolves with the addresses to pin
 * (null for a local repository); throws {@link RepositoryHostError} for a refused host. A name is refused
 * when any of its addresses is refused: git may try them all.
 */
export async function checkRepositoryHost(
  url: string,
  policy: RepositoryHostPolicy,
  options: HostCheckOptions,
): Promise<CheckedRepositoryTarget | null> {
  const target = repositoryTarget(url);
  if (target === null) return null;
  try {
    const addresses = await checkedHostAddresses(target.host, policy, options);
    return { target, addresses: addresses ?? [] };
  } catch (error) {
    if (!(error instanceof HostRefusedError)) throw error;
    throw new RepositoryHostError(error.reason === 'non-public' ? PRIVATE_HOST_MESSAGE : 'The repository host name could not be resolved.');
  }
}

/**
 * git `-c` settings for a network command to the checked targets: no HTTP redirects (their targets were
 * never checked) and curl's resolve list pinned to the checked addresses, replacing any inherited entries.
 * With every host allowed there is nothing to enforce, and git's defaults apply.
 */
export function networkGitConfig(policy: RepositoryHostPolicy, targets: readonly CheckedRepositoryTarget[]): string[] {
  if (policy.allowAllPrivate) return [];
  const settings = ['http.followRedirects=false', 'http.curloptResolve='];
  for (const { target, addresses } of targets) {
    if ((target.scheme === 'http' || target.scheme === 'https') && addresses.length > 0 && parseAddress(target.host) === null) {
      settings.push(`http.curloptResolve=${target.host}:${target.port}:${addresses.map(formatAddress).join(',')}`);
    }
  }
  return settings.flatMap((setting) => ['-c', setting]);
}

/**
 * The ssh command that connects to the checked address of an ssh target (`-o HostName=`), looking up its
 * host key under the URL's name as ssh would have (`-o HostKeyAlias=`), so a second DNS answer cannot send
 * ssh elsewhere. git runs GIT_SSH_COMMAND through the shell: the name passed the strict host-name pattern
 * and the address is formatted here, and both are single-quoted. Null when there is nothing to pin.
 */
export function pinnedSshCommand(policy: RepositoryHostPolicy, targets: readonly CheckedRepositoryTarget[]): string | null {
  const ssh = targets.filter(({ target }) => target.scheme === 'ssh');
  if (policy.allowAllPrivate || ssh.length !== 1 || ssh[0].addresses.length === 0) return null;
  const { target, addresses } = ssh[0];
  const address = formatAddress(addresses[0]).replace(/^\[|\]$/g, '');
  if (parseAddress(target.host) !== null) return `ssh -o BatchMode=yes -o 'HostName=${address}'`;
  if (!HOST_NAME.test(target.host)) return null;
  const alias = target.port === DEFAULT_PORTS.ssh ? target.host : `[${target.host}]:${target.port}`;
  return `ssh -o BatchMode=yes -o 'HostName=${address}' -o 'HostKeyAlias=${alias}'`;
}

/**
 * Reads ALLOW_PRIVATE_REPOSITORY_HOSTS: `false` (or empty), `true`, or a comma-separated list of host names
 * and IP networks (`gitlab.internal, 10.20.0.0/16, fd00::/8`) allowed although they are not public.
 */
export function parsePrivateHostSetting(raw: string | undefined): { policy: RepositoryHostPolicy; problems: string[] } {
  const text = (raw ?? '').trim();
  if (['', '0', 'false', 'no', 'off'].includes(text.toLowerCase())) return { policy: PUBLIC_HOSTS_ONLY, problems: [] };
  if (['1', 'true', 'yes', 'on'].includes(text.toLowerCase())) return { policy: ANY_HOST, problems: [] };
  const { names, ranges, problems } = parseHostAllowlist(text);
  return { policy: { allowAllPrivate: false, allowedNames: names, allowedRanges: ranges }, problems };
}

/** git's url_decode: `%XX` becomes the byte; anything else stays as it is. */
function percentDecode(text: string): string {
  return text.replace(/%([0-9a-fA-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}
