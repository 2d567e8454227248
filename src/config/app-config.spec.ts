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
});
