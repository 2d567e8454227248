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
});
