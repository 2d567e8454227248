import {
  BranchNameError,
  RepositoryUrlError,
  assertBranchNameAllowed,
  assertRepositoryUrlAllowed,
  isRedactedFormOf,
  redactRepositoryUrl,
  redactRepositoryUrlsInText,
} from './repository-url-policy';

const remoteOnly = { allowLocal: false };
const localToo = { allowLocal: true };

describe('assertRepositoryUrlAllowed', () => {
  it.each([
    'https://github.com/WeblateOrg/weblate.git',
    'http://git.example.org/repo.git',
    'https://user:token@gitlab.example.com/group/repo.git',
    'ssh://git@example.org:2222/repo.git',
    'ssh://[::1]/srv/repo.git',
    'git://example.org/repo.git',
    'git@github.com:WeblateOrg/weblate.git',
    'example.org:repo.git',
  ])('accepts %s', (url) => {
    expect(() => assertRepositoryUrlAllowed(url, remoteOnly)).not.toThrow();
  });

  it.each<[string, string]>([
    ['', 'empty'],
    ['-u', 'start with "-"'],
    ['--upload-pack=touch /tmp/pwned', 'start with "-"'],
    ['-oProxyCommand=touch%20x:repo', 'start with "-"'],
    ['ext::sh -c touch% /tmp/pwned', 'spaces'],
    ['ext::sh', 'Remote helper'],
    ['EXT::sh', 'Remote helper'],
    ['fd::17', 'Remote helper'],
    ['fd::0,1/repo', 'Remote helper'],
    ['persistent-https::https://example.org/x', 'Remote helper'],
    ['::https://example.org/x', 'Remote helper'],
    ['https://example.org/repo .git', 'spaces'],
    ['https://example.org/repo\n.git', 'control'],
    ['https://example.org/\0repo', 'control'],
    ['https://example.org/\u00a0repo', 'spaces'],
    ['ftp://example.org/repo.git', '"ftp" protocol'],
    ['git+ssh://example.org/repo.git', '"git+ssh" protocol'],
    ['javascript://alert(1)', '"javascript" protocol'],
    ['ssh://-oProxyCommand=touch%20x/repo', 'host must not start with "-"'],
    ['ssh://%2doProxyCommand=x/repo', 'host must not start with "-"'],
    ['ssh://-user@example.org/repo', 'user name must not start with "-"'],
    ['git@-oProxyCommand=x:repo', 'host must not start with "-"'],
    ['https:///repo.git', 'host'],
    ['https://example.org\\@evil.example/', 'backslashes'],
    ['https://user:p@ss@example.org/repo.git', 'more than one "@"'],
    ['ssh://a@b@127.0.0.1/repo.git', 'more than one "@"'],
    ['relative/path/repo', 'Unsupported'],
    ['./repo', 'Unsupported'],
    ['repo', 'Unsupported'],
  ])('rejects %j (%s)', (url, reason) => {
    expect(() => assertRepositoryUrlAllowed(url, localToo)).toThrow(RepositoryUrlError);
    expect(() => assertRepositoryUrlAllowed(url, localToo)).toThrow(reason);
  });

  it('accepts local paths and file:// URLs only when local repositories are allowed', () => {
    for (const url of ['file:///x', 'file:///srv/git/repo.git', 'FILE:///srv/repo', '/srv/git/repo.git']) {
      expect(() => assertRepositoryUrlAllowed(url, remoteOnly)).toThrow('Local repositories are not allowed');
      expect(() => assertRepositoryUrlAllowed(url, localToo)).not.toThrow();
    }
  });

  it('refuses file:// URLs naming a host even when local repositories are allowed', () => {
    expect(() => assertRepositoryUrlAllowed('file://fileserver/share/repo', localToo)).toThrow(RepositoryUrlError);
    expect(() => assertRepositoryUrlAllowed('file://localhost/srv/repo', localToo)).not.toThrow();
  });

  it('refuses absurdly long URLs', () => {
    expect(() => assertRepositoryUrlAllowed(`https://example.org/${'a'.repeat(3000)}`, remoteOnly)).toThrow('too long');
  });
});

describe('redactRepositoryUrl', () => {
  it.each([
    ['https://user:s3cret@github.com/org/repo.git', 'https://github.com/org/repo.git'],
    ['https://ghp_token@github.com/org/repo.git', 'https://github.com/org/repo.git'],
    ['https://user:p@ss@example.org/repo.git', 'https://example.org/repo.git'],
    ['ssh://git@example.org/repo.git', 'ssh://example.org/repo.git'],
    ['https://example.org/path/with@sign', 'https://example.org/path/with@sign'],
    ['git@github.com:org/repo.git', 'git@github.com:org/repo.git'],
    ['/srv/git/repo.git', '/srv/git/repo.git'],
    // Secrets in the query keep their name, not their value.
    ['https://gitlab.example.com/g/r.git?private_token=glpat-s3cret', 'https://gitlab.example.com/g/r.git?private_token=***'],
    ['https://example.org/r.git?ref=main&access_token=s3cret&x=1', 'https://example.org/r.git?ref=main&access_token=***&x=1'],
    ['https://example.org/r.git?token=s3cret', 'https://example.org/r.git?token=***'],
    ['https://example.org/r.git?api_key=s3cret;X-Amz-Signature=abc', 'https://example.org/r.git?api_key=***;X-Amz-Signature=***'],
    ['https://example.org/r.git?password=s3cret#auth=s3cret', 'https://example.org/r.git?password=***#auth=***'],
    ['https://example.org/r.git?ref=main', 'https://example.org/r.git?ref=main'],
    // scp-like: a password goes with its user; `git@` has no password.
    ['user:s3cret@example.org:org/repo.git', 'example.org:org/repo.git'],
    ['git@example.org:org/repo.git?private_token=s3cret', 'git@example.org:org/repo.git?private_token=***'],
    ['', ''],
  ])('%s → %s', (url, expected) => {
    expect(redactRepositoryUrl(url)).toBe(expected);
  });

  it('removes credentials from URLs quoted in git output', () => {
    const stderr = "fatal: unable to access 'https://user:s3cret@example.org/repo.git/': Could not resolve host";
    const redacted = redactRepositoryUrlsInText(stderr);
    expect(redacted).toBe("fatal: unable to access 'https://example.org/repo.git/': Could not resolve host");
    expect(redacted).not.toContain('s3cret');
  });

  it('removes every credential form from free text (log lines, git output)', () => {
    const text = [
      "fatal: unable to access 'https://oauth2:glpat-s3cret@gitlab.example.com/g/r.git/': 403",
      'cloning https://gitlab.example.com/g/r.git?private_token=s3cret1 failed',
      "ssh: connect to host user:s3cret2@example.org:org/repo.git: refused",
      "(deploy:s3cret3@example.org:repo.git)",
      'git@github.com:org/repo.git stays',
    ].join('\n');
    const redacted = redactRepositoryUrlsInText(text);
    expect(redacted).not.toMatch(/s3cret/);
    expect(redacted).toContain('https://gitlab.example.com/g/r.git/');
    expect(redacted).toContain('private_token=***');
    expect(redacted).toContain('example.org:org/repo.git');
    expect(redacted).toContain('git@github.com:org/repo.git stays');
  });

  it('recognises the redacted form sent back by a client', () => {
    const stored = 'https://user:s3cret@example.org/r.git?private_token=s3cret';
    expect(isRedactedFormOf('https://example.org/r.git?private_token=***', stored)).toBe(true);
    expect(isRedactedFormOf('https://example.org/other.git', stored)).toBe(false);
    expect(isRedactedFormOf(stored, stored)).toBe(false);
  });
});

describe('assertBranchNameAllowed', () => {
  it.each(['main', 'master', 'feature/translations', 'release-1.0', 'weblate_2'])('accepts %s', (branch) => {
    expect(() => assertBranchNameAllowed(branch)).not.toThrow();
  });

  it.each(['', '-f', '--upload-pack=x', 'a..b', 'HEAD', 'MERGE_HEAD', 'refs/heads/main', 'a b', 'a:b', 'x.lock',
    '.hidden', 'a/', '/a', 'a//b', 'a~1', 'a^', 'a@{1}', '@', 'a\\b', 'tab\there'])('rejects %j', (branch) => {
    expect(() => assertBranchNameAllowed(branch)).toThrow(BranchNameError);
  });
});
