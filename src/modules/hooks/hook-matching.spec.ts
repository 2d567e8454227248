import { exactlyMatches, exactPatterns, fallbackEvidence, fallbackFullName, fallbackMatches, repositoryKey } from './hook-matching';

describe('repositoryKey', () => {
  it('reads https, ssh, git and scp-like spellings to one key', () => {
    const expected = { host: 'github.com', port: '', path: 'acme/app' };
    for (const url of ['https://github.com/acme/app', 'https://user:t@GitHub.com/Acme/App.git', 'ssh://git@github.com:22/acme/app.git', 'git://github.com/acme/app', 'git@github.com:acme/app.git', 'github.com:acme/app/', 'hg::https://github.com/acme/app']) {
      expect(repositoryKey(url)).toEqual(expected);
    }
  });

  it('keeps non-default ports and refuses local paths and links', () => {
    expect(repositoryKey('ssh://git@bb.example.com:7999/acme/app.git')).toEqual({ host: 'bb.example.com', port: '7999', path: 'acme/app' });
    expect(repositoryKey('/srv/git/app.git')).toBeNull();
    expect(repositoryKey('file:///srv/git/app.git')).toBeNull();
    expect(repositoryKey('weblate://acme/app')).toBeNull();
  });
});

describe('exactlyMatches', () => {
  const candidates = ['https://github.com/acme/app.git', 'git@github.com:acme/app.git'];

  it('accepts equal URLs, a trailing slash and embedded credentials on http(s)', () => {
    expect(exactlyMatches('https://github.com/acme/app.git', candidates)).toBe(true);
    expect(exactlyMatches('https://github.com/acme/app.git/', candidates)).toBe(true);
    expect(exactlyMatches('https://bot:token@github.com/acme/app.git', candidates)).toBe(true);
    expect(exactlyMatches('git@github.com:acme/app.git', candidates)).toBe(true);
  });

  it('is case-sensitive and refuses other hosts hidden behind an @', () => {
    expect(exactlyMatches('https://github.com/Acme/App.git', candidates)).toBe(false);
    expect(exactlyMatches('https://evil.example/x@github.com/acme/app.git', candidates)).toBe(false);
    expect(exactlyMatches('http://bot@github.com/acme/app.git', candidates)).toBe(false);
    expect(exactlyMatches('https://github.com/acme/app', candidates)).toBe(false);
  });

  it('preselects with escaped LIKE patterns', () => {
    expect(exactPatterns(['https://h/a_b%c'])).toEqual(['https://h/a\\_b\\%c', 'https://h/a\\_b\\%c/', 'https://%@h/a\\_b\\%c', 'https://%@h/a\\_b\\%c/']);
  });
});

describe('fallback', () => {
  it('needs two segments and a last one of three characters', () => {
    expect(fallbackFullName('/Acme/App.git/')).toBe('acme/app');
    expect(fallbackFullName('app')).toBeNull();
    expect(fallbackFullName('acme/ab')).toBeNull();
    expect(fallbackFullName('acme//app')).toBeNull();
  });

  it('matches other spellings of the same host and path, case-insensitively', () => {
    const evidence = fallbackEvidence(['https://github.com/acme/app', 'https://github.com/acme/app.git'], 'acme/app');
    expect(fallbackMatches('git@github.com:Acme/App.git', 'acme/app', evidence)).toBe(true);
    expect(fallbackMatches('ssh://git@github.com/acme/app', 'acme/app', evidence)).toBe(true);
    expect(fallbackMatches('https://bot:x@github.com/acme/app/', 'acme/app', evidence)).toBe(true);
  });

  it('refuses another host, another port, a longer name and loopback evidence', () => {
    const evidence = fallbackEvidence(['https://github.com/acme/app'], 'acme/app');
    expect(fallbackMatches('https://gitlab.com/acme/app.git', 'acme/app', evidence)).toBe(false);
    expect(fallbackMatches('ssh://git@github.com:2222/acme/app.git', 'acme/app', evidence)).toBe(false);
    expect(fallbackMatches('https://github.com/notacme/app', 'acme/app', evidence)).toBe(false);
    expect(fallbackEvidence(['https://localhost/acme/app', 'http://127.0.0.1/acme/app'], 'acme/app').size).toBe(0);
    expect(fallbackEvidence(['https://github.com/other/app'], 'acme/app').size).toBe(0);
  });
});
