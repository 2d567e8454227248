import { ConfigError, loadConfig } from './app-config';

describe('loadConfig', () => {
  it('defaults to Weblate\'s user rate, an exploring anonymous rate outside production, and a 30 s shutdown', () => {
    const config = loadConfig({});
    expect(config.rateLimitAnon).toEqual({ requests: 1000, windowSeconds: 3600 });
    expect(config.rateLimitUser).toEqual({ requests: 5000, windowSeconds: 3600 });
    expect(config.shutdownTimeoutSeconds).toBe(30);
    expect(config.production).toBe(false);
  });

  it('keeps Weblate\'s anonymous rate (100/day) in production mode', () => {
    const config = loadConfig({ NODE_ENV: 'production', SITE_URL: 'https://glossa.example.org/', ADMIN_TOKEN: 'x'.repeat(32) });
    expect(config.rateLimitAnon).toEqual({ requests: 100, windowSeconds: 86400 });
  });

  it('parses DRF-style rates by the first letter of the period', () => {
    const config = loadConfig({ RATE_LIMIT_ANON: '10/minute', RATE_LIMIT_USER: '7/s' });
    expect(config.rateLimitAnon).toEqual({ requests: 10, windowSeconds: 60 });
    expect(config.rateLimitUser).toEqual({ requests: 7, windowSeconds: 1 });
  });

  it('serves the repository hooks unless ENABLE_HOOKS is off, with their own rate', () => {
    expect(loadConfig({})).toMatchObject({ enableHooks: true, rateLimitHooks: { requests: 1000, windowSeconds: 3600 } });
    expect(loadConfig({ ENABLE_HOOKS: 'false', RATE_LIMIT_HOOKS: '5/minute' })).toMatchObject({ enableHooks: false, rateLimitHooks: { requests: 5, windowSeconds: 60 } });
    expect(() => loadConfig({ ENABLE_HOOKS: 'sometimes' })).toThrow('ENABLE_HOOKS: expected true or false, got "sometimes"');
  });

  it('limits API statements to 10 s and background statements not at all by default (issue 10 item 5)', () => {
    expect(loadConfig({})).toMatchObject({ statementTimeoutMs: 10_000, jobStatementTimeoutMs: 0 });
    expect(loadConfig({ STATEMENT_TIMEOUT_MS: '0', JOB_STATEMENT_TIMEOUT_MS: '600000' })).toMatchObject({ statementTimeoutMs: 0, jobStatementTimeoutMs: 600_000 });
    expect(() => loadConfig({ STATEMENT_TIMEOUT_MS: '-1', JOB_STATEMENT_TIMEOUT_MS: 'soon' })).toThrow(
      new ConfigError(
        'Invalid configuration:\n' +
          '  - STATEMENT_TIMEOUT_MS: expected a number from 0 to 86400000, got "-1"\n' +
          '  - JOB_STATEMENT_TIMEOUT_MS: expected a number from 0 to 86400000, got "soon"',
      ),
    );
  });

  it('reads Django\'s EMAIL_* settings: off without EMAIL_HOST, ports and prefix as Weblate defaults them', () => {
    expect(loadConfig({}).email).toBeNull();
    expect(loadConfig({ EMAIL_HOST: 'smtp.example.org', SITE_URL: 'https://l10n.example.org', SITE_TITLE: 'L10n' }).email).toEqual({
      host: 'smtp.example.org',
      port: 25,
      user: undefined,
      password: undefined,
      useTls: false,
      useSsl: false,
      fromAddress: 'noreply@l10n.example.org',
      subjectPrefix: '[L10n] ',
    });
    expect(loadConfig({ EMAIL_HOST: 'smtp', EMAIL_USE_TLS: 'true' }).email).toMatchObject({ port: 587, useTls: true });
    expect(loadConfig({ EMAIL_HOST: 'smtp', EMAIL_USE_SSL: '1', EMAIL_PORT: '2465', EMAIL_SUBJECT_PREFIX: '' }).email).toMatchObject({ port: 2465, useSsl: true, subjectPrefix: '' });
    expect(loadConfig({ EMAIL_HOST: 'smtp', EMAIL_HOST_USER: 'glossa', EMAIL_HOST_PASSWORD: ' s3cret ', DEFAULT_FROM_EMAIL: 'l10n@example.org' }).email).toMatchObject({
      user: 'glossa',
      password: ' s3cret ',
      fromAddress: 'l10n@example.org',
    });
  });

  it('refuses contradictory or malformed EMAIL_* settings, without echoing the password', () => {
    const attempt = () =>
      loadConfig({ EMAIL_HOST: 'smtp', EMAIL_USE_TLS: 'yes', EMAIL_USE_SSL: 'yes', EMAIL_PORT: '0', DEFAULT_FROM_EMAIL: 'Glossa <x@example.org>', EMAIL_SUBJECT_PREFIX: 'a\nb' });
    expect(attempt).toThrow(
      new ConfigError(
        'Invalid configuration:\n' +
          '  - EMAIL_USE_TLS/EMAIL_USE_SSL: only one of them may be enabled\n' +
          '  - EMAIL_PORT: expected a whole number from 1 to 65535, got "0"\n' +
          '  - DEFAULT_FROM_EMAIL: expected an e-mail address such as noreply@example.org, got "Glossa <x@example.org>"\n' +
          '  - EMAIL_SUBJECT_PREFIX: one line of at most 100 characters',
      ),
    );
    expect(() => loadConfig({ EMAIL_HOST: 'smtp', EMAIL_HOST_PASSWORD: 'hunter2' })).toThrow(/^(?![\s\S]*hunter2)[\s\S]*EMAIL_HOST_PASSWORD: needs EMAIL_HOST_USER/);
  });

  it('lists every bad value in one message', () => {
    expect(() => loadConfig({ RATE_LIMIT_ANON: 'lots', PORT: 'x', SHUTDOWN_TIMEOUT_SECONDS: '0' })).toThrow(
      new ConfigError(
        'Invalid configuration:\n' +
          '  - PORT: expected a number from 0 to 65535, got "x"\n' +
          '  - RATE_LIMIT_ANON: expected <requests>/<second|minute|hour|day> such as "1000/hour", got "lots"\n' +
          '  - SHUTDOWN_TIMEOUT_SECONDS: expected a number from 1 to 3600, got "0"',
      ),
    );
  });

  it('reads ALLOW_PRIVATE_REPOSITORY_HOSTS as false, true or a list, and reports bad entries', () => {
    expect(loadConfig({}).privateRepositoryHosts).toMatchObject({ allowAllPrivate: false, allowedNames: [], allowedRanges: [] });
    expect(loadConfig({ ALLOW_PRIVATE_REPOSITORY_HOSTS: 'true' }).privateRepositoryHosts.allowAllPrivate).toBe(true);
    const listed = loadConfig({ ALLOW_PRIVATE_REPOSITORY_HOSTS: 'gitlab.internal, 10.20.0.0/16' }).privateRepositoryHosts;
    expect(listed.allowedNames).toEqual(['gitlab.internal']);
    expect(listed.allowedRanges).toHaveLength(1);
    expect(() => loadConfig({ ALLOW_PRIVATE_REPOSITORY_HOSTS: '10.0.0.0/99' })).toThrow(
      'ALLOW_PRIVATE_REPOSITORY_HOSTS: "10.0.0.0/99" is not a valid IP address or network; expected false, true, or a comma-separated list of host names and IP networks',
    );
  });

  it('reads the webhook settings: private targets refused by default, an allowlist, the retry schedule', () => {
    const defaults = loadConfig({}).webhooks;
    expect(defaults).toEqual({
      hosts: { allowAllPrivate: false, allowedNames: [], allowedRanges: [] },
      timeoutSeconds: 15,
      retryDelaysSeconds: [5, 300, 1800, 7200, 18000, 36000, 50400, 72000, 86400],
      logRetentionDays: 30,
    });
    expect(loadConfig({ WEBHOOK_LOG_RETENTION_DAYS: '0' }).webhooks.logRetentionDays).toBe(0);
    expect(() => loadConfig({ WEBHOOK_LOG_RETENTION_DAYS: '-1' })).toThrow(/WEBHOOK_LOG_RETENTION_DAYS/);
    expect(loadConfig({ WEBHOOK_RESTRICT_PRIVATE: 'false' }).webhooks.hosts.allowAllPrivate).toBe(true);
    const listed = loadConfig({ WEBHOOK_PRIVATE_ALLOWLIST: 'hooks.internal, 10.20.0.0/16', WEBHOOK_RETRY_DELAYS: '1, 2.5', WEBHOOK_TIMEOUT_SECONDS: '3' }).webhooks;
    expect([listed.hosts.allowAllPrivate, listed.hosts.allowedNames, listed.hosts.allowedRanges.length]).toEqual([false, ['hooks.internal'], 1]);
    expect([listed.retryDelaysSeconds, listed.timeoutSeconds]).toEqual([[1, 2.5], 3]);
    expect(() => loadConfig({ WEBHOOK_PRIVATE_ALLOWLIST: '10.0.0.0/99', WEBHOOK_RETRY_DELAYS: '5,-1', WEBHOOK_RESTRICT_PRIVATE: 'maybe' })).toThrow(
      new ConfigError(
        'Invalid configuration:\n' +
          '  - WEBHOOK_RESTRICT_PRIVATE: expected true or false, got "maybe"\n' +
          '  - WEBHOOK_PRIVATE_ALLOWLIST: "10.0.0.0/99" is not a valid IP address or network; expected a comma-separated list of host names and IP networks\n' +
          '  - WEBHOOK_RETRY_DELAYS: expected up to 50 comma-separated waits in seconds (0 to 604800), got "5,-1"',
      ),
    );
  });

  it('bounds translation files, upload forms and parse workers, with sane defaults (issue 10)', () => {
    const defaults = loadConfig({});
    expect(defaults.fileLimits).toEqual({ maxFileBytes: 52_428_800, maxUnitsPerFile: 100_000, maxStringLength: 100_000 });
    expect([defaults.uploadMaxFields, defaults.uploadMaxFieldBytes, defaults.parseWorkers, defaults.parseWorkerMemoryMb]).toEqual([20, 4096, 1, 256]);
    const set = loadConfig({ MAX_FILE_BYTES: '2048', MAX_UNITS_PER_FILE: '50', MAX_STRING_LENGTH: '200', PARSE_WORKERS: '2' });
    expect(set.fileLimits).toEqual({ maxFileBytes: 2048, maxUnitsPerFile: 50, maxStringLength: 200 });
    expect(set.parseWorkers).toBe(2);
    expect(() => loadConfig({ MAX_UNITS_PER_FILE: '1.5', UPLOAD_MAX_FIELDS: '0', PARSE_WORKER_MEMORY_MB: 'lots' })).toThrow(
      new ConfigError(
        'Invalid configuration:\n' +
          '  - MAX_UNITS_PER_FILE: expected a whole number from 1 to 10000000, got "1.5"\n' +
          '  - UPLOAD_MAX_FIELDS: expected a whole number from 1 to 1000, got "0"\n' +
          '  - PARSE_WORKER_MEMORY_MB: expected a whole number from 16 to 16384, got "lots"',
      ),
    );
  });

  it('bounds the change stream: heartbeat interval, open streams per process and per caller (issue 14 item 4)', () => {
    expect(loadConfig({}).changeStream).toEqual({ heartbeatSeconds: 15, maxOpen: 100, maxPerCaller: 5 });
    const set = loadConfig({ CHANGE_STREAM_HEARTBEAT_SECONDS: '0.5', CHANGE_STREAM_MAX_OPEN: '0', CHANGE_STREAM_MAX_PER_CALLER: '2' });
    expect(set.changeStream).toEqual({ heartbeatSeconds: 0.5, maxOpen: 0, maxPerCaller: 2 });
    expect(() => loadConfig({ CHANGE_STREAM_HEARTBEAT_SECONDS: '0', CHANGE_STREAM_MAX_PER_CALLER: '0' })).toThrow(
      new ConfigError(
        'Invalid configuration:\n' +
          '  - CHANGE_STREAM_HEARTBEAT_SECONDS: expected a number from 0.05 to 3600, got "0"\n' +
          '  - CHANGE_STREAM_MAX_PER_CALLER: expected a whole number from 1 to 10000, got "0"',
      ),
    );
  });

  it('refuses insecure settings in production mode', () => {
    let message = '';
    try {
      loadConfig({ NODE_ENV: 'production', ADMIN_TOKEN: 'sixteen-chars-ok', ALLOW_LOCAL_REPOSITORIES: 'true', DEMO: 'yes', DATABASE_URL: 'postgres://db/glossa' });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message.split('\n').slice(1)).toEqual([
      '  - SITE_URL: required when NODE_ENV=production (the public base URL of web links)',
      '  - ADMIN_TOKEN: must be at least 32 characters long when NODE_ENV=production',
      '  - ALLOW_LOCAL_REPOSITORIES: must not be enabled when NODE_ENV=production (it exposes server files)',
      '  - DEMO: must not be enabled on a PostgreSQL database when NODE_ENV=production',
    ]);
  });

  it('accepts a sound production configuration, with the demo off by default', () => {
    const config = loadConfig({ NODE_ENV: 'production', SITE_URL: 'https://glossa.example.org/', ADMIN_TOKEN: 'x'.repeat(32) });
    expect(config.production).toBe(true);
    expect(config.demo).toBe(false);
    expect(config.siteUrl).toBe('https://glossa.example.org');
  });

  it('keeps /metrics public outside production, off in production, and behind a token when one is set', () => {
    const prod = { NODE_ENV: 'production', SITE_URL: 'https://glossa.example.org' };
    expect(loadConfig({}).metrics).toBe('public');
    expect(loadConfig(prod).metrics).toBe('off');
    expect(loadConfig({ ...prod, METRICS_TOKEN: 'm'.repeat(32) })).toMatchObject({ metrics: 'token', metricsToken: 'm'.repeat(32) });
    expect(loadConfig({ ...prod, METRICS: 'public' }).metrics).toBe('public');
    expect(() => loadConfig({ METRICS: 'token' })).toThrow('METRICS: "token" needs METRICS_TOKEN');
    expect(() => loadConfig({ METRICS: 'sometimes' })).toThrow('METRICS: expected public, token or off, got "sometimes"');
    expect(() => loadConfig({ ...prod, METRICS_TOKEN: 'm'.repeat(20) })).toThrow('METRICS_TOKEN: must be at least 32 characters long when NODE_ENV=production');
  });

  it('reads TRUST_PROXY as Express does: off, true, a hop count or addresses and subnets', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: 'loopback, 10.0.0.0/8, fd00::/8, 192.0.2.7' }).trustProxy).toEqual(['loopback', '10.0.0.0/8', 'fd00::/8', '192.0.2.7']);
    for (const bad of ['proxy.example', '10.0.0.0/33', '10.0.0.1/8/1', 'loopback,']) {
      expect(() => loadConfig({ TRUST_PROXY: bad })).toThrow(`TRUST_PROXY: expected true, a number of hops, or addresses/subnets such as "loopback, 10.0.0.0/8", got "${bad}"`);
    }
  });

  it('bounds request bodies at Django\'s 2.5 MiB unless told otherwise', () => {
    expect(loadConfig({}).maxRequestBodyBytes).toBe(2_621_440);
    expect(loadConfig({ MAX_REQUEST_BODY_BYTES: '65536' }).maxRequestBodyBytes).toBe(65536);
    expect(() => loadConfig({ MAX_REQUEST_BODY_BYTES: '10' })).toThrow('MAX_REQUEST_BODY_BYTES: expected a number from 1024');
  });
});
