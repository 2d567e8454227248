import { isIP } from 'node:net';
import * as path from 'node:path';
import { ANY_HOST, parseHostAllowlist, PUBLIC_HOSTS_ONLY, type HostPolicy } from '../common/net/host-policy';
import { parsePrivateHostSetting, type HostLookup, type RepositoryHostPolicy } from '../vcs/repository-host-policy';

/** Where links that point at API resources get their `format` query parameter. */
export type LinkFormatMode = 'always' | 'request';

/** Who may read /metrics: anyone, holders of METRICS_TOKEN, or no one (404). */
export type MetricsExposure = 'public' | 'token' | 'off';

/** Express's `trust proxy` value: off, a number of hops, or the proxies' addresses and subnets. */
export type TrustProxy = false | true | number | string[];

/** The anonymous rate outside production mode (NODE_ENV is not `production`). */
export const DEVELOPMENT_ANON_RATE = '1000/hour';

export interface AppConfig {
  port: number;
  host: string;
  /**
   * Base of web links (web_url, share_url, translate_url), and in production of API links too (outside
   * production they use the request's host; see LinkBuilder.forRequest).
   */
  siteUrl: string;
  siteTitle: string;
  dataDir: string;
  databaseUrl: string | undefined;
  /** Connections to PostgreSQL per process (the embedded database always uses one). */
  databasePoolSize: number;
  adminToken: string | undefined;
  adminUsername: string;
  adminEmail: string;
  demo: boolean;
  linkFormat: LinkFormatMode;
  allowLocalRepositories: boolean;
  /**
   * Which non-public hosts (loopback, private, link-local, …) repository URLs may reach: none by default
   * (server-side request forgery, issue 10 item 6); ALLOW_PRIVATE_REPOSITORY_HOSTS.
   */
  privateRepositoryHosts: RepositoryHostPolicy;
  /** Name resolution for that check; not an environment setting: tests put a fake resolver here. */
  repositoryHostLookup?: HostLookup;
  jobPollingSeconds: number;
  logLevel: 'error' | 'warn' | 'log' | 'debug';
  /** NODE_ENV=production: stricter rules, no insecure defaults (README "Configuration"). */
  production: boolean;
  /** Weblate's throttles (weblate-api.md §2.4): anonymous callers by IP, authenticated callers by user. */
  rateLimitAnon: RateLimit;
  rateLimitUser: RateLimit;
  /**
   * Weblate's ENABLE_HOOKS: the incoming repository hooks under /hooks/ (src/modules/hooks). Off, every hook
   * answers 405, as Weblate's do (integration.md §1.2).
   */
  enableHooks: boolean;
  /**
   * Requests per client address to the hooks, counted apart from RATE_LIMIT_ANON: a code host delivers every
   * push of every repository from a few addresses, which the API's anonymous rate (100/day) would throttle.
   */
  rateLimitHooks: RateLimit;
  /** How long shutdown waits for in-flight requests and jobs before giving up on them. */
  shutdownTimeoutSeconds: number;
  /** The largest JSON or form body accepted (413 above); multipart uploads have their own limit. */
  maxRequestBodyBytes: number;
  /**
   * Which peers are proxies whose X-Forwarded-For/-Proto/-Host headers are believed: they then give the
   * client address (rate limits) and, with X-Forwarded-Host, the origin of API links.
   */
  trustProxy: TrustProxy;
  metrics: MetricsExposure;
  /** The bearer token /metrics asks for when `metrics` is 'token'. */
  metricsToken: string | undefined;
  /**
   * PostgreSQL's statement_timeout for the statements of API requests, in ms (0: none). Issue 10 item 5: one
   * expensive search must not hold a pool connection for minutes.
   */
  statementTimeoutMs: number;
  /** statement_timeout of background work (jobs, migrations, start-up tasks) in its transactions (0: none). */
  jobStatementTimeoutMs: number;
  /**
   * statement_timeout of a search that evaluates a user's regular expression, in ms (issue 13 item 5: a
   * regular expression must not hang the database). Never above statementTimeoutMs; past it the API answers
   * 400 "Invalid regular expression: …" as Weblate reports a failing pattern.
   */
  searchRegexTimeoutMs: number;
  /** What one translation file may hold, in the repository or uploaded (issue 10, items 2 and 9). */
  fileLimits: FileLimits;
  /** The most items one bulk translate request may carry (issue 14 item 5; 400 above). */
  bulkMaxItems: number;
  /** Multipart form fields of an upload besides the file (issue 10, item 2). */
  uploadMaxFields: number;
  uploadMaxFieldBytes: number;
  /** Worker threads that parse files, and the heap limit of each (src/formats/parse-worker). */
  parseWorkers: number;
  parseWorkerMemoryMb: number;
  /** The change stream (/api/changes/stream/, src/modules/changes/change-stream.service.ts). */
  changeStream: ChangeStreamLimits;
  /** Outgoing webhooks (src/modules/addons, issue 14 item 2). */
  webhooks: WebhookSettings;
  /**
   * Outgoing e-mail (Weblate's Django EMAIL_* settings, integration.md §4.7); null without EMAIL_HOST: no
   * notification mail is queued or sent (src/modules/notifications-mail).
   */
  email: EmailSettings | null;
}

export interface ChangeStreamLimits {
  /** Seconds between the comment lines that keep idle streams open through proxies. */
  heartbeatSeconds: number;
  /** Streams one process serves at once; more are refused with 429. */
  maxOpen: number;
  /** Streams one caller (user, or client address when anonymous) holds open at once in one process. */
  maxPerCaller: number;
}

export interface WebhookSettings {
  /**
   * Which non-public hosts webhook URLs may reach (server-side request forgery): Weblate's
   * WEBHOOK_RESTRICT_PRIVATE (default true: none) and WEBHOOK_PRIVATE_ALLOWLIST (names and networks).
   */
  hosts: HostPolicy;
  /** Name resolution for that check; not an environment setting: tests put a fake resolver here. */
  hostLookup?: HostLookup;
  /** How long one delivery may take (WEBHOOK_TIMEOUT_SECONDS; Weblate's add-on uses 15 s). */
  timeoutSeconds: number;
  /**
   * Waits before the 2nd, 3rd, … attempt of a failed delivery, in seconds (WEBHOOK_RETRY_DELAYS); a delivery
   * that failed once more than there are entries is given up (state `failed`).
   */
  retryDelaysSeconds: number[];
  /**
   * Days a finished delivery (delivered, failed, skipped) stays in the delivery log (WEBHOOK_LOG_RETENTION_DAYS;
   * 0 keeps it forever). Pending deliveries are never pruned.
   */
  logRetentionDays: number;
}

/** Standard Webhooks' example schedule (integration.md §2.4) after the immediate first attempt: 5 s … 24 h. */
export const DEFAULT_WEBHOOK_RETRY_DELAYS = '5,300,1800,7200,18000,36000,50400,72000,86400';

function parseWebhookHosts(env: NodeJS.ProcessEnv, problems: string[]): HostPolicy {
  if (!parseBoolean('WEBHOOK_RESTRICT_PRIVATE', env.WEBHOOK_RESTRICT_PRIVATE, true, problems)) return ANY_HOST;
  const allowlist = parseHostAllowlist(env.WEBHOOK_PRIVATE_ALLOWLIST ?? '');
  for (const problem of allowlist.problems) problems.push(`WEBHOOK_PRIVATE_ALLOWLIST: ${problem}; expected a comma-separated list of host names and IP networks`);
  if (allowlist.names.length === 0 && allowlist.ranges.length === 0) return PUBLIC_HOSTS_ONLY;
  return { allowAllPrivate: false, allowedNames: allowlist.names, allowedRanges: allowlist.ranges };
}

function parseRetryDelays(raw: string | undefined, problems: string[]): number[] {
  const text = raw?.trim() || DEFAULT_WEBHOOK_RETRY_DELAYS;
  const delays = text.split(',').map((part) => Number(part.trim()));
  if (delays.length > 50 || delays.some((delay) => !Number.isFinite(delay) || delay < 0 || delay > 7 * 86_400)) {
    problems.push(`WEBHOOK_RETRY_DELAYS: expected up to 50 comma-separated waits in seconds (0 to 604800), got "${raw}"`);
    return DEFAULT_WEBHOOK_RETRY_DELAYS.split(',').map(Number);
  }
  return delays;
}

/** SMTP and message settings of notification mail. The password is a secret: never log this object. */
export interface EmailSettings {
  host: string;
  port: number;
  user: string | undefined;
  password: string | undefined;
  /** EMAIL_USE_TLS: STARTTLS is required on a plain connection. */
  useTls: boolean;
  /** EMAIL_USE_SSL: implicit TLS from the first byte (SMTPS). */
  useSsl: boolean;
  /** DEFAULT_FROM_EMAIL: the address notifications come from. */
  fromAddress: string;
  /** EMAIL_SUBJECT_PREFIX, put before every subject. */
  subjectPrefix: string;
}

export interface FileLimits {
  maxFileBytes: number;
  maxUnitsPerFile: number;
  maxStringLength: number;
}

/** A DRF-style rate such as "100/day": `requests` allowed per `windowSeconds`. */
export interface RateLimit {
  requests: number;
  windowSeconds: number;
}

/** DRF's SimpleRateThrottle.parse_rate: the period is read from its first letter (s, m, h, d). */
const RATE_PERIODS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400 };

function parseRate(name: string, raw: string | undefined, fallback: string, problems: string[]): RateLimit {
  const text = (raw?.trim() || fallback).toLowerCase();
  const match = /^(\d+)\/([smhd])[a-z]*$/.exec(text);
  if (!match || Number(match[1]) < 1) {
    problems.push(`${name}: expected <requests>/<second|minute|hour|day> such as "${fallback}", got "${raw}"`);
    const [count, period] = fallback.split('/');
    return { requests: Number(count), windowSeconds: RATE_PERIODS[period[0]] };
  }
  return { requests: Number(match[1]), windowSeconds: RATE_PERIODS[match[2]] };
}

export class ConfigError extends Error {}

/** Names Express (proxy-addr) knows for address ranges, besides literal addresses and CIDR subnets. */
const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** TRUST_PROXY: false/true, a hop count, or a comma-separated list of addresses, subnets and range names. */
function parseTrustProxy(raw: string | undefined, problems: string[]): TrustProxy {
  const text = raw?.trim() ?? '';
  if (text === '' || ['0', 'false', 'no', 'off'].includes(text.toLowerCase())) return false;
  if (['true', 'yes', 'on'].includes(text.toLowerCase())) return true;
  if (/^\d+$/.test(text)) return Number(text);
  const entries = text.split(',').map((entry) => entry.trim());
  const bad = entries.filter((entry) => {
    if (PROXY_RANGE_NAMES.has(entry)) return false;
    const [address, bits, extra] = entry.split('/');
    const version = isIP(address);
    if (version === 0 || extra !== undefined) return true;
    return bits !== undefined && (!/^\d+$/.test(bits) || Number(bits) > (version === 4 ? 32 : 128));
  });
  if (bad.length > 0) {
    problems.push(`TRUST_PROXY: expected true, a number of hops, or addresses/subnets such as "loopback, 10.0.0.0/8", got "${raw}"`);
    return false;
  }
  return entries;
}

function parseBoolean(name: string, raw: string | undefined, fallback: boolean, problems: string[]): boolean {
  if (raw === undefined || raw === '') return fallback;
  const value = raw.trim().toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(value)) return true;
  if (['0', 'false', 'no', 'off'].includes(value)) return false;
  problems.push(`${name}: expected true or false, got "${raw}"`);
  return fallback;
}

function parseNumber(name: string, raw: string | undefined, fallback: number, problems: string[], min: number, max: number): number {
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < min || value > max) {
    problems.push(`${name}: expected a number from ${min} to ${max}, got "${raw}"`);
    return fallback;
  }
  return value;
}

function parseInteger(name: string, raw: string | undefined, fallback: number, problems: string[], min: number, max: number): number {
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    problems.push(`${name}: expected a whole number from ${min} to ${max}, got "${raw}"`);
    return fallback;
  }
  return value;
}

/** A bare address as DEFAULT_FROM_EMAIL takes it: no display name, no spaces or angle brackets. */
const MAIL_ADDRESS = /^[^\s@<>",;]+@[^\s@<>",;]+$/;

/**
 * EMAIL_*: Django's names, as Weblate reads them (integration.md §4.7). The port follows Weblate's Docker
 * image: 25, or 587 with EMAIL_USE_TLS, 465 with EMAIL_USE_SSL; the two flags exclude each other (Django
 * refuses both). Without EMAIL_HOST mail is off and the other settings are not needed.
 */
function parseEmailSettings(env: NodeJS.ProcessEnv, siteUrl: string, siteTitle: string, problems: string[]): EmailSettings | null {
  const host = env.EMAIL_HOST?.trim() || undefined;
  const useTls = parseBoolean('EMAIL_USE_TLS', env.EMAIL_USE_TLS, false, problems);
  const useSsl = parseBoolean('EMAIL_USE_SSL', env.EMAIL_USE_SSL, false, problems);
  if (useTls && useSsl) problems.push('EMAIL_USE_TLS/EMAIL_USE_SSL: only one of them may be enabled');
  const port = parseInteger('EMAIL_PORT', env.EMAIL_PORT, useSsl ? 465 : useTls ? 587 : 25, problems, 1, 65535);
  let siteHost = 'localhost';
  try {
    siteHost = new URL(siteUrl).hostname || siteHost;
  } catch {
    // SITE_URL reports its own problem.
  }
  const fromAddress = env.DEFAULT_FROM_EMAIL?.trim() || `noreply@${siteHost}`;
  if (!MAIL_ADDRESS.test(fromAddress) || fromAddress.length > 254) {
    problems.push(`DEFAULT_FROM_EMAIL: expected an e-mail address such as noreply@example.org, got "${fromAddress}"`);
  }
  const user = env.EMAIL_HOST_USER?.trim() || undefined;
  const password = env.EMAIL_HOST_PASSWORD || undefined;
  if (password !== undefined && user === undefined) problems.push('EMAIL_HOST_PASSWORD: needs EMAIL_HOST_USER');
  if (host === undefined) return null;
  if (/[\s/]/.test(host)) problems.push(`EMAIL_HOST: expected a host name or IP address, got "${host}"`);
  const subjectPrefix = env.EMAIL_SUBJECT_PREFIX ?? `[${siteTitle}] `;
  if (/[\r\n]/.test(subjectPrefix) || subjectPrefix.length > 100) problems.push('EMAIL_SUBJECT_PREFIX: one line of at most 100 characters');
  return { host, port, user, password, useTls, useSsl, fromAddress, subjectPrefix };
}

/**
 * Reads the environment once. Every bad value is collected so the operator sees them all in one message
 * instead of fixing them one restart at a time.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const problems: string[] = [];
  const port = parseNumber('PORT', env.PORT, 8000, problems, 0, 65535);
  const databaseUrl = env.DATABASE_URL?.trim() || undefined;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    problems.push('DATABASE_URL: expected a postgres:// or postgresql:// URL');
  }
  const linkFormat = (env.LINK_FORMAT ?? 'always').trim();
  if (linkFormat !== 'always' && linkFormat !== 'request') {
    problems.push(`LINK_FORMAT: expected "always" or "request", got "${linkFormat}"`);
  }
  const siteUrl = (env.SITE_URL ?? `http://localhost:${port}`).replace(/\/+$/, '');
  if (!/^https?:\/\/[^/]+/.test(siteUrl)) problems.push(`SITE_URL: expected an http(s) URL, got "${siteUrl}"`);
  const adminToken = env.ADMIN_TOKEN?.trim() || undefined;
  if (adminToken !== undefined && adminToken.length < 16) {
    problems.push('ADMIN_TOKEN: must be at least 16 characters long');
  }
  const production = (env.NODE_ENV ?? '').trim() === 'production';
  if (production) {
    // No insecure defaults in production: web links must point at the real site, a guessable admin token
    // is refused, and local repositories (file paths on the server) stay off.
    if (!env.SITE_URL?.trim()) problems.push('SITE_URL: required when NODE_ENV=production (the public base URL of web links)');
    if (adminToken !== undefined && adminToken.length < 32) {
      problems.push('ADMIN_TOKEN: must be at least 32 characters long when NODE_ENV=production');
    }
    if (parseBoolean('ALLOW_LOCAL_REPOSITORIES', env.ALLOW_LOCAL_REPOSITORIES, false, [])) {
      problems.push('ALLOW_LOCAL_REPOSITORIES: must not be enabled when NODE_ENV=production (it exposes server files)');
    }
    if (parseBoolean('DEMO', env.DEMO, false, []) && databaseUrl !== undefined) {
      problems.push('DEMO: must not be enabled on a PostgreSQL database when NODE_ENV=production');
    }
  }
  const privateHosts = parsePrivateHostSetting(env.ALLOW_PRIVATE_REPOSITORY_HOSTS);
  for (const problem of privateHosts.problems) {
    problems.push(`ALLOW_PRIVATE_REPOSITORY_HOSTS: ${problem}; expected false, true, or a comma-separated list of host names and IP networks`);
  }
  const metricsToken = env.METRICS_TOKEN?.trim() || undefined;
  if (metricsToken !== undefined && metricsToken.length < (production ? 32 : 16)) {
    problems.push(`METRICS_TOKEN: must be at least ${production ? '32 characters long when NODE_ENV=production' : '16 characters long'}`);
  }
  // Metrics name every route and the pool's state: public only outside production unless asked for.
  const metrics = (env.METRICS?.trim() || (metricsToken !== undefined ? 'token' : production ? 'off' : 'public')) as MetricsExposure;
  if (!['public', 'token', 'off'].includes(metrics)) problems.push(`METRICS: expected public, token or off, got "${env.METRICS}"`);
  if (metrics === 'token' && metricsToken === undefined) problems.push('METRICS: "token" needs METRICS_TOKEN');
  const logLevel = (env.LOG_LEVEL ?? 'log').trim();
  if (!['error', 'warn', 'log', 'debug'].includes(logLevel)) {
    problems.push(`LOG_LEVEL: expected error, warn, log or debug, got "${logLevel}"`);
  }
  const siteTitle = env.SITE_TITLE?.trim() || 'Glossa';
  const config: AppConfig = {
    port,
    host: env.HOST?.trim() || '0.0.0.0',
    siteUrl,
    siteTitle,
    dataDir: path.resolve(env.DATA_DIR?.trim() || './data'),
    databaseUrl,
    databasePoolSize: parseNumber('DATABASE_POOL_SIZE', env.DATABASE_POOL_SIZE, 10, problems, 1, 200),
    adminToken,
    adminUsername: env.ADMIN_USERNAME?.trim() || 'admin',
    adminEmail: env.ADMIN_EMAIL?.trim() || 'admin@localhost',
    // The demo only makes sense on the throw-away embedded database unless asked for explicitly.
    demo: parseBoolean('DEMO', env.DEMO, databaseUrl === undefined && !production, problems),
    linkFormat: linkFormat as LinkFormatMode,
    allowLocalRepositories: parseBoolean('ALLOW_LOCAL_REPOSITORIES', env.ALLOW_LOCAL_REPOSITORIES, false, problems),
    privateRepositoryHosts: privateHosts.policy,
    // pg-boss's own default: a queued job wakes its workers at once (job-queue.ts announce()), so the poll only
    // finds retries, delayed and scheduled jobs, and an idle process runs half the fetches it did at 1 s.
    jobPollingSeconds: parseNumber('JOB_POLLING_SECONDS', env.JOB_POLLING_SECONDS, 2, problems, 0.5, 60),
    logLevel: logLevel as AppConfig['logLevel'],
    production,
    // Weblate's anonymous rate (100/day) in production; outside it, enough for an afternoon of exploring the API
    // in Swagger UI or with curl without a token (issue 15 "The first hour"). README "Configuration".
    rateLimitAnon: parseRate('RATE_LIMIT_ANON', env.RATE_LIMIT_ANON, production ? '100/day' : DEVELOPMENT_ANON_RATE, problems),
    rateLimitUser: parseRate('RATE_LIMIT_USER', env.RATE_LIMIT_USER, '5000/hour', problems),
    enableHooks: parseBoolean('ENABLE_HOOKS', env.ENABLE_HOOKS, true, problems),
    rateLimitHooks: parseRate('RATE_LIMIT_HOOKS', env.RATE_LIMIT_HOOKS, '1000/hour', problems),
    shutdownTimeoutSeconds: parseNumber('SHUTDOWN_TIMEOUT_SECONDS', env.SHUTDOWN_TIMEOUT_SECONDS, 30, problems, 1, 3600),
    // Django's default DATA_UPLOAD_MAX_MEMORY_SIZE (2.5 MiB), which Weblate keeps.
    maxRequestBodyBytes: parseNumber('MAX_REQUEST_BODY_BYTES', env.MAX_REQUEST_BODY_BYTES, 2_621_440, problems, 1024, 1024 ** 3),
    trustProxy: parseTrustProxy(env.TRUST_PROXY, problems),
    metrics,
    metricsToken,
    statementTimeoutMs: Math.round(parseNumber('STATEMENT_TIMEOUT_MS', env.STATEMENT_TIMEOUT_MS, 10_000, problems, 0, 86_400_000)),
    jobStatementTimeoutMs: Math.round(parseNumber('JOB_STATEMENT_TIMEOUT_MS', env.JOB_STATEMENT_TIMEOUT_MS, 0, problems, 0, 86_400_000)),
    searchRegexTimeoutMs: Math.round(parseNumber('SEARCH_REGEX_TIMEOUT_MS', env.SEARCH_REGEX_TIMEOUT_MS, 2_000, problems, 1, 86_400_000)),
    fileLimits: {
      // Weblate's TRANSLATION_UPLOAD_MAX_SIZE default (50 MB), for repository files as well.
      maxFileBytes: parseInteger('MAX_FILE_BYTES', env.MAX_FILE_BYTES, 50 * 1024 * 1024, problems, 1024, 2 ** 31 - 1),
      maxUnitsPerFile: parseInteger('MAX_UNITS_PER_FILE', env.MAX_UNITS_PER_FILE, 100_000, problems, 1, 10_000_000),
      maxStringLength: parseInteger('MAX_STRING_LENGTH', env.MAX_STRING_LENGTH, 100_000, problems, 1, 100_000_000),
    },
    bulkMaxItems: parseInteger('BULK_MAX_ITEMS', env.BULK_MAX_ITEMS, 10_000, problems, 1, 1_000_000),
    uploadMaxFields: parseInteger('UPLOAD_MAX_FIELDS', env.UPLOAD_MAX_FIELDS, 20, problems, 1, 1000),
    uploadMaxFieldBytes: parseInteger('UPLOAD_MAX_FIELD_BYTES', env.UPLOAD_MAX_FIELD_BYTES, 4096, problems, 256, 1024 * 1024),
    parseWorkers: parseInteger('PARSE_WORKERS', env.PARSE_WORKERS, 1, problems, 1, 16),
    parseWorkerMemoryMb: parseInteger('PARSE_WORKER_MEMORY_MB', env.PARSE_WORKER_MEMORY_MB, 256, problems, 16, 16_384),
    changeStream: {
      heartbeatSeconds: parseNumber('CHANGE_STREAM_HEARTBEAT_SECONDS', env.CHANGE_STREAM_HEARTBEAT_SECONDS, 15, problems, 0.05, 3600),
      maxOpen: parseInteger('CHANGE_STREAM_MAX_OPEN', env.CHANGE_STREAM_MAX_OPEN, 100, problems, 0, 100_000),
      maxPerCaller: parseInteger('CHANGE_STREAM_MAX_PER_CALLER', env.CHANGE_STREAM_MAX_PER_CALLER, 5, problems, 1, 10_000),
    },
    webhooks: {
      hosts: parseWebhookHosts(env, problems),
      timeoutSeconds: parseNumber('WEBHOOK_TIMEOUT_SECONDS', env.WEBHOOK_TIMEOUT_SECONDS, 15, problems, 1, 300),
      retryDelaysSeconds: parseRetryDelays(env.WEBHOOK_RETRY_DELAYS, problems),
      logRetentionDays: parseInteger('WEBHOOK_LOG_RETENTION_DAYS', env.WEBHOOK_LOG_RETENTION_DAYS, 30, problems, 0, 36_500),
    },
    email: parseEmailSettings(env, siteUrl, siteTitle, problems),
  };
  if (problems.length > 0) {
    throw new ConfigError(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
  }
  return config;
}

export const APP_CONFIG = Symbol('APP_CONFIG');
