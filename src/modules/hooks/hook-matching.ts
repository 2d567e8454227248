// Which component repositories a push notification names (integration.md §1.5, Weblate 2026.7's
// get_hook_components and trans/hooks/fallback.py, restated). Pure functions; the service runs them on the
// rows a bounded SQL preselection returns.
//
// 1. Exact: the component's `repo` equals a candidate URL, or the candidate with a trailing `/`, or — for an
//    http(s) candidate — the same URL with credentials (`https://user:token@host/path`). Case-sensitive.
// 2. Fallback, only when nothing matched exactly: the notification's full name (owner/name) is the evidence.
//    Candidates whose path is that full name give (host, port, path) keys, compared case-insensitively and
//    without `.git`, whatever their spelling (https, ssh://, scp-like `git@host:path`, git://); loopback hosts
//    give none. A component matches when its repo ends with the full name (with `/` or `.git`) and its own
//    key is one of them: `git@github.com:Acme/App.git` is found by a payload that lists only
//    `https://github.com/acme/app`, a repository of another host with the same name is not (Weblate's fix
//    of CVE-2025-67492, which let crafted payloads update and enumerate unrelated components).

export type MatchMethod = 'exact' | 'fallback';

/** Host (lower case), port (empty when the scheme's default) and path (lower case, no `.git`, no edge slashes). */
export interface RepositoryKey {
  host: string;
  port: string;
  path: string;
}

const DEFAULT_PORTS: Record<string, string> = { http: '80', https: '443', ssh: '22', git: '9418', 'git+ssh': '22', 'ssh+git': '22' };

const SCHEME_URL = /^([a-z][a-z0-9+.-]*):\/\/(?:[^@/?#]*@)?(\[[^\]/]+\]|[^/:?#]+)(?::(\d*))?([^?#]*)/i;
/** `user@host:path` (scp-like); the path must not start with `//` (that would be a scheme URL). */
const SCP_URL = /^(?:[^@/:]+@)?([^/:@]+):(?!\/\/)(.+)$/;

function normalisedPath(path: string): string {
  let p = path.toLowerCase().replace(/^\/+/, '').replace(/\/+$/, '');
  if (p.endsWith('.git')) p = p.slice(0, -4);
  return p;
}

/** The key of a repository URL, or null for what is not a network URL (local paths, `weblate://` links). */
export function repositoryKey(url: string): RepositoryKey | null {
  const spelled = url.startsWith('hg::') ? url.slice(4) : url;
  const scheme = SCHEME_URL.exec(spelled);
  if (scheme) {
    const protocol = scheme[1].toLowerCase();
    if (protocol === 'file' || protocol === 'weblate') return null;
    const port = scheme[3] && scheme[3] !== DEFAULT_PORTS[protocol] ? scheme[3] : '';
    return { host: scheme[2].toLowerCase(), port, path: normalisedPath(decodeSafely(scheme[4])) };
  }
  if (spelled.includes('://')) return null;
  const scp = SCP_URL.exec(spelled);
  if (scp) return { host: scp[1].toLowerCase(), port: '', path: normalisedPath(scp[2]) };
  return null;
}

function decodeSafely(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

function keyText(key: RepositoryKey): string {
  return `${key.host}\n${key.port}\n${key.path}`;
}

function isLoopback(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '');
  return bare === 'localhost' || bare.endsWith('.localhost') || /^127\./.test(bare) || bare === '::1' || bare === '0.0.0.0';
}

/** Whether `repo` is a candidate exactly, with a trailing slash, or with credentials before an http(s) host. */
export function exactlyMatches(repo: string, candidates: readonly string[]): boolean {
  for (const candidate of candidates) {
    if (repo === candidate || repo === `${candidate}/`) return true;
    const scheme = /^(https?):\/\//.exec(candidate);
    if (!scheme) continue;
    const prefix = scheme[0];
    const rest = candidate.slice(prefix.length);
    for (const tail of [rest, `${rest}/`]) {
      if (!repo.startsWith(prefix) || !repo.endsWith(`@${tail}`)) continue;
      // The credentials sit between the scheme and the host: no `/` in them.
      const credentials = repo.slice(prefix.length, repo.length - tail.length - 1);
      if (credentials !== '' && !credentials.includes('/')) return true;
    }
  }
  return false;
}

/**
 * The full name as the fallback uses it: slashes and `.git` stripped, lower case; null when it has fewer
 * than two segments or a last segment shorter than three characters (too vague to match on).
 */
export function fallbackFullName(fullName: string): string | null {
  const segments = normalisedPath(fullName).split('/');
  if (segments.length < 2 || segments.some((segment) => segment === '')) return null;
  if (segments[segments.length - 1].length < 3) return null;
  return segments.join('/');
}

/** The keys the candidates give as evidence for `fullName` (already normalised). */
export function fallbackEvidence(candidates: readonly string[], fullName: string): Set<string> {
  const evidence = new Set<string>();
  for (const candidate of candidates) {
    const key = repositoryKey(candidate);
    if (key && key.path === fullName && !isLoopback(key.host)) evidence.add(keyText(key));
  }
  return evidence;
}

/** Whether `repo` ends with the full name (case-insensitively) and its key is in the evidence. */
export function fallbackMatches(repo: string, fullName: string, evidence: ReadonlySet<string>): boolean {
  const lower = repo.toLowerCase();
  if (![fullName, `${fullName}/`, `${fullName}.git`].some((suffix) => lower.endsWith(suffix))) return false;
  const key = repositoryKey(repo);
  return key !== null && evidence.has(keyText(key));
}

/** LIKE patterns (with `\` escapes) that preselect what {@link exactlyMatches} may accept. */
export function exactPatterns(candidates: readonly string[]): string[] {
  const patterns = new Set<string>();
  for (const candidate of candidates) {
    const escaped = escapeLike(candidate);
    patterns.add(escaped);
    patterns.add(`${escaped}/`);
    const scheme = /^(https?):\/\//.exec(candidate);
    if (scheme) {
      const rest = escapeLike(candidate.slice(scheme[0].length));
      patterns.add(`${scheme[0]}%@${rest}`);
      patterns.add(`${scheme[0]}%@${rest}/`);
    }
  }
  return [...patterns];
}

/** Lower-case LIKE patterns that preselect what {@link fallbackMatches} may accept. */
export function fallbackPatterns(fullName: string): string[] {
  const escaped = escapeLike(fullName);
  return [`%${escaped}`, `%${escaped}/`, `%${escaped}.git`];
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}
