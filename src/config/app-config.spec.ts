import { ConfigError, loadConfig } from './app-config';

describe('loadConfig', () => {
  it('defaults to Weblate\'s rates and a 30 s shutdown', () => {
    const config = loadConfig({});
    expect(config.rateLimitAnon).toEqual({ requests: 100, windowSeconds: 86400 });
    expect(config.rateLimitUser).toEqual({ requests: 5000, windowSeconds: 3600 });
    expect(config.shutdownTimeoutSeconds).toBe(30);
    expect(config.production).toBe(false);
  });

  it('parses DRF-style rates by the first letter of the period', () => {
    const config = loadConfig({ RATE_LIMIT_ANON: '10/minute', RATE_LIMIT_USER: '7/s' });
    expect(config.rateLimitAnon).toEqual({ requests: 10, windowSeconds: 60 });
    expect(config.rateLimitUser).toEqual({ requests: 7, windowSeconds: 1 });
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

  it('lists every bad value in one message', () => {
    expect(() => loadConfig({ RATE_LIMIT_ANON: 'lots', PORT: 'x', SHUTDOWN_TIMEOUT_SECONDS: '0' })).toThrow(
      new ConfigError(
        'Invalid configuration:\n' +
          '  - PORT: expected a number from 0 to 65535, got "x"\n' +
          '  - RATE_LIMIT_ANON: expected <requests>/<second|minute|hour|day> such as "100/day", got "lots"\n' +
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
