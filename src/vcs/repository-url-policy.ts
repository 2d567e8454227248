// Repository URLs and branch names come from API users, and git treats both as far more than addresses:
// `ext::sh -c …` runs a command, `--upload-pack=…` is an option, `ssh://-oProxyCommand=…` reaches ssh's
// command line, and `file://` or a bare path reads the server's disk. Everything is checked here, once,
// before any value reaches git (architecture.md: "no ext::, no option-looking values, local paths only
// where configured"). The runner's protocol allow-list (GIT_ALLOW_PROTOCOL) is the second line of defence.

/** A repository URL the server refuses to use; the message is safe to show to API users. */
export class RepositoryUrlError extends Error {
  override readonly name = 'RepositoryUrlError';
}

/** Names the setting that would allow it (issue 15: a refusal that a setting controls names the setting). */
export const LOCAL_REPOSITORY_MESSAGE = 'Local repositories are not allowed on this server (ALLOW_LOCAL_REPOSITORIES).';

/** A branch name git would misread (an option, a special ref) or reject. */
export class BranchNameError extends Error {
  override readonly name = 'BranchNameError';
}

export interface RepositoryUrlPolicyOptions {
  /** Whether `file://` URLs and absolute local paths are accepted (an operator setting, off by default). */
  allowLocal: boolean;
}

const MAX_URL_LENGTH = 2048;
const NETWORK_SCHEMES = new Set(['https', 'http', 'ssh', 'git']);
// Whitespace (including Unicode spaces), C0/C1 controls and NUL: none belong in a URL, and some let a value
// smuggle a second argument or a newline into logs and git's own config file.
const SPACE_OR_CONTROL = /[\s\u0000-\u001f\u007f-\u009f]/u;
// git's remote-helper syntax `<transport>::<address>` (ext::, fd::, or any installed git-remote-* helper).
const REMOTE_HELPER = /^[A-Za-z0-9+.-]*::/;
const SCHEME_URL = /^([A-Za-z][A-Za-z0-9+.-]*):\/\//;
// scp-like `[user@]host:path`; git takes this form whenever a ':' comes before any '/'.
const SCP_LIKE = /^(?:([^@/:[\]]+)@)?(\[[^\]/]+\]|[^@/:[\]]+):(.+)$/s;

/** Throws {@link RepositoryUrlError} unless `url` is a repository address the server may hand to git. */
export function assertRepositoryUrlAllowed(url: string, options: RepositoryUrlPolicyOptions): void {
  if (typeof url !== 'string' || url.length === 0) throw new RepositoryUrlError('Repository URL must not be empty.');
  if (url.length > MAX_URL_LENGTH) throw new RepositoryUrlError('Repository URL is too long.');
  if (url.startsWith('-')) throw new RepositoryUrlError('Repository URL must not start with "-".');
  if (SPACE_OR_CONTROL.test(url)) {
    throw new RepositoryUrlError('Repository URL must not contain spaces or control characters.');
  }
  if (REMOTE_HELPER.test(url)) {
    throw new RepositoryUrlError('Remote helper URLs ("transport::address", such as ext::) are not allowed.');
  }

  const scheme = SCHEME_URL.exec(url)?.[1]?.toLowerCase();
  if (scheme === 'file') return assertLocalFileUrl(url, options);
  if (scheme !== undefined) {
    if (!NETWORK_SCHEMES.has(scheme)) {
      throw new RepositoryUrlError(`The "${scheme}" protocol is not allowed; use https, http, ssh or git.`);
    }
    return assertNetworkUrl(url);
  }
  if (url.startsWith('/')) {
    if (!options.allowLocal) throw new RepositoryUrlError(LOCAL_REPOSITORY_MESSAGE);
    return;
  }
  const firstColon = url.indexOf(':');
  const firstSlash = url.indexOf('/');
  if (firstColon > 0 && (firstSlash === -1 || firstColon < firstSlash)) return assertScpLike(url);
  throw new RepositoryUrlError(
    'Unsupported repository URL; use an https://, http://, ssh:// or git:// URL, or user@host:path.',
  );
}

function assertNetworkUrl(url: string): void {
  // WHATWG and git do not agree on what a backslash means in an authority, so refuse the ambiguity.
  if (url.includes('\\')) throw new RepositoryUrlError('Repository URL must not contain backslashes.');
  // WHATWG would read `https:///host/x` as `https://host/x`; git would not. Demand the host right after `//`.
  if (/^[^:]+:\/\/[/?#]/.test(url)) throw new RepositoryUrlError('Repository URL must name a host.');
  // `user@a@b`: programs disagree on which '@' ends the user part, so they would disagree on the host (the
  // one checked is not the one reached). A '@' in a password is written `%40`.
  if ((/^[^:]+:\/\/([^/?#]*)/.exec(url)?.[1] ?? '').split('@').length > 2) {
    throw new RepositoryUrlError('Repository URL must not contain more than one "@" before the host; write "%40" in a password.');
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new RepositoryUrlError('Could not parse the repository URL.');
  }
  const host = safeDecode(parsed.hostname);
  if (host === '') throw new RepositoryUrlError('Repository URL must name a host.');
  assertNotOptionLike(host, 'host');
  assertNotOptionLike(safeDecode(parsed.username), 'user name');
}

function assertScpLike(url: string): void {
  const match = SCP_LIKE.exec(url);
  if (!match) throw new RepositoryUrlError('Could not parse the repository URL (expected user@host:path).');
  const [, user, host] = match;
  assertNotOptionLike(host, 'host');
  if (user !== undefined) assertNotOptionLike(user, 'user name');
}

function assertLocalFileUrl(url: string, options: RepositoryUrlPolicyOptions): void {
  if (!options.allowLocal) throw new RepositoryUrlError(LOCAL_REPOSITORY_MESSAGE);
  // Only file:///absolute/path (or file://localhost/...): a host part would mean a network share.
  if (!/^file:\/\/(localhost)?\/[^/]/i.test(url)) {
    throw new RepositoryUrlError('A file:// repository URL must name an absolute local path.');
  }
}

function assertNotOptionLike(value: string, what: string): void {
  // ssh and older git pass the host and user straight to a command line (CVE-2017-1000117).
  if (value.startsWith('-')) throw new RepositoryUrlError(`Repository URL ${what} must not start with "-".`);
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    throw new RepositoryUrlError('Could not parse the repository URL.');
  }
}

// `scheme://userinfo@` — userinfo runs up to the last '@' before the path starts.
const URL_USERINFO = /^([A-Za-z][A-Za-z0-9+.-]*:\/\/)[^/?#]*@/;
const URL_USERINFO_IN_TEXT = /\b([A-Za-z][A-Za-z0-9+.-]*:\/\/)[^\s/?#'"]*@/g;
// scp-like `user:password@host:path`: a ':' before the '@' means a password (`git@host:path` has none).
const SCP_PASSWORD = /^[^@/:[\]]*:[^@/]*@(?=[^@/]*:)/;
const SCP_PASSWORD_IN_TEXT = /(^|[\s'"(<])[^\s'"@/:]+:[^\s'"@/]*@(?=[^\s'"@/:]+:)/g;
// Query (and fragment) parameters whose name says they hold a secret: GitLab's `private_token`, OAuth's
// `access_token`, `token`, `api_key`, `password`, `auth`, signatures of pre-signed URLs (`sig`, `X-Amz-Signature`)…
const SECRET_PARAMETER = /([?&;#])([^=&;#\s'"]*(?:token|key|secret|passw|pwd|auth|sig|credential|session)[^=&;#\s'"]*)=([^&;#\s'"]*)/gi;
/** What a secret query value is replaced with. */
export const REDACTED = '***';

/**
 * The URL without its credentials, for API output and logs (issue 10 item 10). Like Weblate, the whole
 * `user:password@` of a URL goes: a token is often sent as the user name alone. The password of an scp-like
 * `user:password@host:path` goes with its user; `git@host:path` has no secret and stays as is. Query
 * parameters named like secrets (`?private_token=…`, `?access_token=…`) keep their name, not their value.
 */
export function redactRepositoryUrl(url: string): string {
  const withoutUser = SCHEME_URL.test(url) ? url.replace(URL_USERINFO, '$1') : url.replace(SCP_PASSWORD, '');
  return withoutUser.replace(SECRET_PARAMETER, `$1$2=${REDACTED}`);
}

/** Removes URL credentials wherever they appear in free text (git's stderr quotes remote URLs; log lines). */
export function redactRepositoryUrlsInText(text: string): string {
  return text
    .replace(URL_USERINFO_IN_TEXT, '$1')
    .replace(SCP_PASSWORD_IN_TEXT, '$1')
    .replace(SECRET_PARAMETER, `$1$2=${REDACTED}`);
}

/**
 * Whether `submitted` is what {@link redactRepositoryUrl} shows for `stored`: a client that sends a GET body
 * back with PUT sends the redacted URL, which must not replace the stored one with its credentials.
 */
export function isRedactedFormOf(submitted: string, stored: string): boolean {
  return submitted !== stored && redactRepositoryUrl(stored) === submitted;
}

// Weblate refuses these as branch names (weblate/vcs/git.py) because git resolves them as special refs.
const RESERVED_BRANCHES = new Set([
  'HEAD', 'FETCH_HEAD', 'ORIG_HEAD', 'MERGE_HEAD', 'CHERRY_PICK_HEAD', 'REBASE_HEAD', 'REVERT_HEAD', 'BISECT_HEAD',
  'AUTO_MERGE',
]);

/**
 * Throws {@link BranchNameError} unless `branch` is a plain branch name (the rules of
 * `git check-ref-format --branch`, checked in-process so it costs no git call).
 */
export function assertBranchNameAllowed(branch: string): void {
  const invalid = (): never => {
    throw new BranchNameError(`"${branch}" is not a valid branch name.`);
  };
  if (typeof branch !== 'string' || branch === '' || branch.length > 255) invalid();
  if (branch.startsWith('-') || branch.startsWith('refs/') || RESERVED_BRANCHES.has(branch)) invalid();
  if (SPACE_OR_CONTROL.test(branch) || /[~^:?*[\\]/.test(branch)) invalid();
  if (branch.includes('..') || branch.includes('@{') || branch === '@') invalid();
  if (branch.startsWith('/') || branch.endsWith('/') || branch.endsWith('.') || branch.includes('//')) invalid();
  for (const part of branch.split('/')) {
    if (part.startsWith('.') || part.endsWith('.lock')) invalid();
  }
}
