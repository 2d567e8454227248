import {
  ANY_HOST,
  PUBLIC_HOSTS_ONLY,
  RepositoryHostError,
  checkRepositoryHost,
  networkGitConfig,
  parsePrivateHostSetting,
  repositoryTarget,
  systemLookup,
  type HostLookup,
} from './repository-host-policy';

// A resolver that knows a few names, so no test depends on DNS (there is no network but loopback here).
const zone: Record<string, string[]> = {
  'git.example.org': ['140.82.121.4', '2606:4700::1111'],
  'rebind.example.org': ['140.82.121.4', '10.0.0.7'],
  'internal.example.org': ['10.1.2.3'],
  'metadata.example.org': ['169.254.169.254'],
  'mapped.example.org': ['::ffff:127.0.0.1'],
};
const lookup: HostLookup = async (host) => {
  const answer = zone[host];
  if (!answer) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
  return answer;
};
const refuse = { lookup, unresolved: 'refuse' as const };

describe('repositoryTarget', () => {
  it.each<[string, string, number, string]>([
    ['https://git.example.org/org/repo.git', 'git.example.org', 443, 'https'],
    ['http://user:pw@GIT.example.org:8080/repo.git', 'git.example.org', 8080, 'http'],
    ['http://0x7f.1/repo.git', '127.0.0.1', 80, 'http'],
    ['http://2130706433/repo.git', '127.0.0.1', 80, 'http'],
    ['http://[::ffff:127.0.0.1]:81/', '::ffff:7f00:1', 81, 'http'],
    ['ssh://git@git.example.org:2222/repo.git', 'git.example.org', 2222, 'ssh'],
    ['ssh://git@[::1]/repo.git', '::1', 22, 'ssh'],
    ['ssh://%31%32%37.0.0.1/repo.git', '127.0.0.1', 22, 'ssh'],
    ['ssh://a@b@127.0.0.1/repo.git', '127.0.0.1', 22, 'ssh'],
    ['git://git.example.org/repo.git', 'git.example.org', 9418, 'git'],
    ['git@git.example.org:org/repo.git', 'git.example.org', 22, 'ssh'],
    ['git@[::1]:org/repo.git', '::1', 22, 'ssh'],
    ['127.0.0.1:repo.git', '127.0.0.1', 22, 'ssh'],
  ])('%s connects to %s port %d', (url, host, port, scheme) => {
    expect(repositoryTarget(url)).toEqual({ host, port, scheme });
  });

  it('is null for local repositories', () => {
    expect(repositoryTarget('/srv/git/repo.git')).toBeNull();
    expect(repositoryTarget('file:///srv/git/repo.git')).toBeNull();
  });

  it('refuses hosts that programs would read differently', () => {
    expect(() => repositoryTarget('ssh://ho%20st/repo')).toThrow(RepositoryHostError);
    expect(() => repositoryTarget('git@ho$t:repo')).toThrow(RepositoryHostError);
  });
});

describe('checkRepositoryHost', () => {
  it('accepts public hosts and returns their addresses for pinning', async () => {
    const checked = await checkRepositoryHost('https://git.example.org/repo.git', PUBLIC_HOSTS_ONLY, refuse);
    expect(checked?.addresses).toHaveLength(2);
    expect(networkGitConfig(PUBLIC_HOSTS_ONLY, [checked!])).toEqual([
      '-c', 'http.followRedirects=false',
      '-c', 'http.curloptResolve=',
      '-c', 'http.curloptResolve=git.example.org:443:140.82.121.4,[2606:4700:0:0:0:0:0:1111]',
    ]);
  });

  it.each([
    'http://127.0.0.1:6379/', 'http://0x7f.1/', 'http://2130706433/', 'http://0.0.0.0/', 'http://[::1]/', 'http://[::ffff:127.0.0.1]/',
    'http://169.254.169.254/latest/meta-data', 'http://localhost:8080/', 'http://foo.localhost/', 'http://localhost./',
    'https://internal.example.org/repo.git', 'https://metadata.example.org/', 'https://mapped.example.org/',
    'https://rebind.example.org/repo.git', 'ssh://git@internal.example.org/repo.git', 'git@internal.example.org:repo.git',
    'git://10.0.0.1/repo.git', 'ssh://[fd00::1]/repo.git', 'ssh://0177.0.0.1/repo.git',
  ])('refuses %s', async (url) => {
    await expect(checkRepositoryHost(url, PUBLIC_HOSTS_ONLY, refuse)).rejects.toThrow(RepositoryHostError);
  });

  it('refuses an unresolvable host before connecting, but lets a URL be stored with it', async () => {
    await expect(checkRepositoryHost('https://nowhere.example.org/x', PUBLIC_HOSTS_ONLY, refuse)).rejects.toThrow('could not be resolved');
    await expect(checkRepositoryHost('https://nowhere.example.org/x', PUBLIC_HOSTS_ONLY, { lookup, unresolved: 'accept' })).resolves.toEqual({
      target: { scheme: 'https', host: 'nowhere.example.org', port: 443 },
      addresses: [],
    });
  });

  it('allows non-public hosts the setting names, by host name or by network', async () => {
    const { policy } = parsePrivateHostSetting('internal.example.org, 169.254.0.0/16');
    await expect(checkRepositoryHost('https://internal.example.org/x', policy, refuse)).resolves.not.toBeNull();
    await expect(checkRepositoryHost('https://metadata.example.org/x', policy, refuse)).resolves.not.toBeNull();
    await expect(checkRepositoryHost('http://10.1.2.3/x', policy, refuse)).rejects.toThrow(RepositoryHostError);
    await expect(checkRepositoryHost('http://127.0.0.1/x', ANY_HOST, refuse)).resolves.toEqual({
      target: { scheme: 'http', host: '127.0.0.1', port: 80 },
      addresses: [],
    });
    expect(networkGitConfig(ANY_HOST, [])).toEqual([]);
  });

  it('resolves numeric spellings like git, curl and ssh do (getaddrinfo)', async () => {
    expect(await systemLookup('2130706433')).toEqual(['127.0.0.1']);
    expect(await systemLookup('0x7f.1')).toEqual(['127.0.0.1']);
  });
});

describe('parsePrivateHostSetting', () => {
  it('reads false, true and lists', () => {
    expect(parsePrivateHostSetting(undefined).policy).toBe(PUBLIC_HOSTS_ONLY);
    expect(parsePrivateHostSetting('false').policy).toBe(PUBLIC_HOSTS_ONLY);
    expect(parsePrivateHostSetting('TRUE').policy).toBe(ANY_HOST);
    const { policy, problems } = parsePrivateHostSetting('GitLab.Internal., 10.0.0.0/8, fd00::/8, 192.168.1.5');
    expect(problems).toEqual([]);
    expect(policy.allowAllPrivate).toBe(false);
    expect(policy.allowedNames).toEqual(['gitlab.internal']);
    expect(policy.allowedRanges).toHaveLength(3);
  });

  it('reports entries that are neither names nor networks', () => {
    expect(parsePrivateHostSetting('10.0.0.0/40, fd00::zz, bad host').problems).toEqual([
      '"10.0.0.0/40" is not a valid IP address or network',
      '"fd00::zz" is not a valid IP address or network',
      '"bad host" is neither a host name nor an IP network',
    ]);
  });
});
