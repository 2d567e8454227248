import {
  BranchNameError,
  RepositoryUrlError,
  assertBranchNameAllowed,
  assertRepositoryUrlAllowed,
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
  ])('%s → %s', (url, expected) => {
    expect(redactRepositoryUrl(url)).toBe(expected);
  });

  it('removes credentials from URLs quoted in git output', () => {
    const stderr = "fatal: unable to access 'https://user:s3cret@example.org/repo.git/': Could not resolve host";
    const redacted = redactRepositoryUrlsInText(stderr);
    expect(redacted).toBe("fatal: unable to access 'https://example.org/repo.git/': Could not resolve host");
    expect(redacted).not.toContain('s3cret');
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
