import { Logger } from '@nestjs/common';
import {
  checkRepositoryHost,
  networkGitConfig,
  pinnedSshCommand,
  type CheckedRepositoryTarget,
  type HostLookup,
  type RepositoryHostPolicy,
} from './repository-host-policy';
import { spawnThroughHelper } from './git-spawner';
import { redactRepositoryUrl, redactRepositoryUrlsInText } from './repository-url-policy';

// Every git invocation in Glossa goes through runGit: execFile with an argument array (never a shell; run by
// the small helper process of git-spawner.ts), a scrubbed environment, a timeout, and configuration that
// turns off everything a repository or a remote could use to run code on this server.

export const DEFAULT_GIT_TIMEOUT_MS = 5 * 60_000;
const DEFAULT_MAX_BUFFER = 64 * 1024 * 1024;

export interface GitRunOptions {
  /** Working directory; git finds the repository from here. */
  cwd?: string;
  /** Permit the `file` transport (local clones and fetches); mirrors the URL policy's allowLocal. */
  allowLocal?: boolean;
  timeoutMs?: number;
  maxBuffer?: number;
  /** Extra variables (committer identity, dates). They win over the defaults, so keep them to data. */
  env?: Record<string, string>;
  /** Set for every command that contacts a remote (clone, ls-remote, fetch, push): see {@link NetworkAccess}. */
  network?: NetworkAccess;
}

/**
 * A command that reaches a remote (issue 10 item 6): each URL's host is resolved and checked against the
 * policy right before git runs, http(s) connections are pinned to the checked addresses, redirects are
 * refused, and a failure is reported without git's words (see {@link GitNetworkError}).
 */
export interface NetworkAccess {
  /** Every URL the command may contact (the remote's URL and push URL). */
  urls: readonly string[];
  policy: RepositoryHostPolicy;
  /** `fetch` for clone, ls-remote and fetch; `push` for push. Only chooses the words of the message. */
  direction: 'fetch' | 'push';
  lookup?: HostLookup;
}

export interface GitResult {
  stdout: string;
  stderr: string;
}

/** A git command that failed; `stderr` and the message have URL credentials removed. */
export class GitCommandError extends Error {
  override readonly name: string = 'GitCommandError';

  constructor(
    /** The git subcommand (for example `fetch`), never the full argument list, which may hold user data. */
    readonly command: string,
    /** Process exit code, or null when git was killed or could not start. */
    readonly exitCode: number | null,
    readonly stderr: string,
    readonly stdout: string,
    readonly timedOut: boolean,
  ) {
    const detail = stderr.trim() || stdout.trim();
    const status = timedOut ? 'timed out' : exitCode === null ? 'could not run' : `exited with code ${exitCode}`;
    super(`git ${command} ${status}${detail ? `: ${detail}` : ''}`);
  }
}

/**
 * A network git command that failed, or was refused before it ran because its host is not allowed. The
 * message is the same whatever went wrong: it ends up in task logs, the changes feed and API answers that
 * whoever set the URL can read, and git's own words ("Failed to connect to 10.0.0.5 port 6379", "returned
 * error: 404", "Connection reset") would tell them which internal hosts and ports answer. `detail` keeps the
 * reason for the server log.
 */
export class GitNetworkError extends GitCommandError {
  override readonly name: string = 'GitNetworkError';

  constructor(
    command: string,
    direction: NetworkAccess['direction'],
    /** Why, for the operator: the policy's reason or git's (credential-free) stderr. */
    readonly detail: string,
    exitCode: number | null = null,
    timedOut = false,
  ) {
    super(command, exitCode, '', '', timedOut);
    this.message = networkFailureMessage(direction);
  }
}

/** The one text of every failed fetch (or push); it says nothing about the host, the port or the answer. */
export function networkFailureMessage(direction: NetworkAccess['direction']): string {
  return direction === 'push'
    ? 'Could not push to the repository: the server is not allowed, could not be reached, or refused the request.'
    : 'Could not fetch the repository: the server is not allowed, could not be reached, or refused the request.';
}

const logger = new Logger('Git');

// Variables passed through from the server's environment. Anything else (GIT_DIR, GIT_WORK_TREE,
// GIT_INDEX_FILE, GIT_CONFIG_PARAMETERS, …) could silently point git at another repository or add config.
const INHERITED_ENV = [
  'PATH', 'HOME', 'TMPDIR', 'XDG_CONFIG_HOME', 'GIT_CONFIG_GLOBAL',
  'SSH_AUTH_SOCK', 'GIT_SSH', 'GIT_SSH_COMMAND', 'GIT_SSL_CAINFO', 'GIT_SSL_CAPATH', 'SSL_CERT_FILE',
  'SSL_CERT_DIR', 'HTTP_PROXY', 'HTTPS_PROXY', 'NO_PROXY', 'ALL_PROXY', 'http_proxy', 'https_proxy', 'no_proxy',
  'all_proxy',
];

// `-c` settings placed before the subcommand; they override repository and global configuration.
const HARDENING_CONFIG = [
  // The ext:: transport runs arbitrary commands; GIT_ALLOW_PROTOCOL already excludes it, this is belt and braces.
  'protocol.ext.allow=never',
  // Hooks live in the clone's .git/hooks (or a configured path); no hook of ours should ever run.
  'core.hooksPath=/dev/null',
  // fsmonitor and the like are commands taken from config; never run them.
  'core.fsmonitor=false',
  // Submodule URLs come from the remote's .gitmodules, outside the URL policy.
  'submodule.recurse=false',
  // No pager, no editor: nothing may wait on a terminal.
  'core.pager=cat',
  'core.editor=true',
];

/** The environment every git process gets. Exported for tests. */
export function gitEnvironment(allowLocal: boolean, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const name of INHERITED_ENV) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  Object.assign(env, {
    // Never prompt: a prompt on a server hangs the request until the timeout.
    GIT_TERMINAL_PROMPT: '0',
    GIT_ASKPASS: '/bin/true',
    SSH_ASKPASS: '/bin/true',
    // Stable English output, which status text and error matching rely on.
    LC_ALL: 'C',
    LANGUAGE: 'C',
    // The system gitconfig is outside our control; the global one stays for operator credentials.
    GIT_CONFIG_NOSYSTEM: '1',
    // Only these transports, whatever config says (also covers submodules and redirects).
    GIT_ALLOW_PROTOCOL: allowLocal ? 'https:http:ssh:git:file' : 'https:http:ssh:git',
    GIT_PROTOCOL_FROM_USER: '0',
    // File names from the API are paths, never pathspec magic such as `:(glob)` or `:!`.
    GIT_LITERAL_PATHSPECS: '1',
    GIT_NO_REPLACE_OBJECTS: '1',
  });
  if (env.GIT_SSH === undefined && env.GIT_SSH_COMMAND === undefined) {
    // BatchMode makes ssh fail instead of asking for a password or host-key confirmation.
    env.GIT_SSH_COMMAND = 'ssh -o BatchMode=yes';
  }
  return { ...env, ...extra };
}

function subcommandOf(args: readonly string[]): string {
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '-c' || args[i] === '-C') i++;
    else if (!args[i].startsWith('-')) return args[i];
  }
  return 'git';
}

/**
 * Runs `git <args>` and resolves with its output, or rejects with {@link GitCommandError} (a
 * {@link GitNetworkError} for a command given `network`).
 */
export async function runGit(args: readonly string[], options: GitRunOptions = {}): Promise<GitResult> {
  const command = subcommandOf(args);
  const network = options.network;
  if (!network) return execGit(command, HARDENING_CONFIG.flatMap((setting) => ['-c', setting]).concat(args), options);
  let targets: CheckedRepositoryTarget[];
  try {
    targets = [];
    for (const url of network.urls) {
      const checked = await checkRepositoryHost(url, network.policy, { lookup: network.lookup, unresolved: 'refuse' });
      if (checked) targets.push(checked);
    }
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    logger.warn(`git ${command} of ${network.urls.map(redactRepositoryUrl).join(', ')} refused before connecting: ${reason}`);
    throw new GitNetworkError(command, network.direction, reason);
  }
  const fullArgs = [...HARDENING_CONFIG.flatMap((setting) => ['-c', setting]), ...networkGitConfig(network.policy, targets), ...args];
  // Only local repositories (ALLOW_LOCAL_REPOSITORIES): no network to map, git's own words stay useful.
  if (targets.length === 0) return execGit(command, fullArgs, options);
  // ssh resolves the name itself; pin it to the checked address unless the operator chose the ssh command.
  const sshCommand = process.env.GIT_SSH === undefined && process.env.GIT_SSH_COMMAND === undefined ? pinnedSshCommand(network.policy, targets) : null;
  const runOptions = sshCommand ? { ...options, env: { ...options.env, GIT_SSH_COMMAND: sshCommand } } : options;
  try {
    return await execGit(command, fullArgs, runOptions);
  } catch (error) {
    if (!(error instanceof GitCommandError)) throw error;
    const detail = error.stderr.trim() || error.message;
    const hosts = targets.map(({ target }) => `${target.host}:${target.port}`).join(', ');
    logger.warn(`git ${command} (${hosts}) failed: ${detail}`);
    throw new GitNetworkError(command, network.direction, detail, error.exitCode, error.timedOut);
  }
}

async function execGit(command: string, fullArgs: string[], options: GitRunOptions): Promise<GitResult> {
  // Spawned by the helper process (git-spawner.ts), not by this large one; the same execFile options.
  const { stdout, stderr, error } = await spawnThroughHelper({
    file: 'git',
    args: fullArgs,
    cwd: options.cwd,
    env: gitEnvironment(options.allowLocal ?? false, options.env),
    timeout: options.timeoutMs ?? DEFAULT_GIT_TIMEOUT_MS,
    maxBuffer: options.maxBuffer ?? DEFAULT_MAX_BUFFER,
  });
  if (!error) return { stdout, stderr };
  const exitCode = typeof error.code === 'number' ? error.code : null;
  const timedOut = error.killed && exitCode === null;
  // A spawn failure (git missing, cwd gone) has no stderr; keep node's reason instead.
  const errText = stderr || (exitCode === null && !timedOut ? error.message : '');
  const clean = (text: string): string => withoutWorkingCopyPath(redactRepositoryUrlsInText(text), options.cwd);
  throw new GitCommandError(command, exitCode, clean(errText), clean(stdout ?? ''), timedOut);
}

/**
 * git names files by absolute path in some errors (`Unable to create '/data/vcs/p/c/.git/index.lock'`); the
 * working copy's own path becomes `.`, so messages shown to API users do not reveal the server's layout.
 */
function withoutWorkingCopyPath(text: string, cwd: string | undefined): string {
  if (!cwd || cwd === '/' || !text.includes(cwd)) return text;
  return text.split(cwd.replace(/\/+$/, '')).join('.');
}
