import { HookPayloadError, parseHookPayload, type HeaderLookup } from './hook-payloads';

const headers = (values: Record<string, string> = {}): HeaderLookup => (name) => values[name];

describe('parseHookPayload', () => {
  it('GitHub: push only, clone URLs with and without .git, owner/name', () => {
    const payload = {
      ref: 'refs/heads/main',
      repository: { name: 'app', owner: { login: 'acme' }, url: 'https://github.com/acme/app', clone_url: 'https://github.com/acme/app.git', ssh_url: 'git@github.com:acme/app.git', html_url: 'https://github.com/acme/app' },
    };
    expect(parseHookPayload('github', payload, headers({ 'x-github-event': 'ping' }))).toBeNull();
    expect(parseHookPayload('github', payload, headers({ 'x-github-event': 'push' }))).toEqual({
      serviceName: 'GitHub',
      repoUrl: 'https://github.com/acme/app',
      repos: ['git@github.com:acme/app', 'git@github.com:acme/app.git', 'https://github.com/acme/app', 'https://github.com/acme/app.git'],
      branch: 'main',
      fullName: 'acme/app',
    });
  });

  it('GitHub without clone URLs builds the github.com spellings', () => {
    const parsed = parseHookPayload('github', { ref: 'refs/heads/dev', repository: { name: 'app', owner: { name: 'acme' } } }, headers({ 'x-github-event': 'push' }));
    expect(parsed?.repos).toEqual(['git://github.com/acme/app', 'git://github.com/acme/app.git', 'https://github.com/acme/app', 'https://github.com/acme/app.git', 'git@github.com:acme/app', 'git@github.com:acme/app.git']);
    expect(parsed?.branch).toBe('dev');
  });

  it('GitLab: any body with ref', () => {
    const payload = {
      object_kind: 'push',
      ref: 'refs/heads/main',
      project: { path_with_namespace: 'acme/app' },
      repository: { url: 'git@gitlab.com:acme/app.git', homepage: 'https://gitlab.com/acme/app', git_http_url: 'https://gitlab.com/acme/app.git', git_ssh_url: 'git@gitlab.com:acme/app.git' },
    };
    expect(parseHookPayload('gitlab', payload, headers())).toEqual({
      serviceName: 'GitLab',
      repoUrl: 'git@gitlab.com:acme/app.git',
      repos: ['git@gitlab.com:acme/app.git', 'https://gitlab.com/acme/app.git', 'https://gitlab.com/acme/app'],
      branch: 'main',
      fullName: 'acme/app',
    });
    expect(parseHookPayload('gitlab', { object_kind: 'tag_push_less' }, headers())).toBeNull();
  });

  it('Bitbucket Cloud builds spellings, Bitbucket Server reads its clone links', () => {
    const cloud = { repository: { full_name: 'acme/app', scm: 'git', links: { html: { href: 'https://bitbucket.org/acme/app' } } }, push: { changes: [{ new: { type: 'branch', name: 'main' } }] } };
    expect(parseHookPayload('bitbucket', cloud, headers({ 'x-event-key': 'diagnostics:ping' }))).toBeNull();
    const parsed = parseHookPayload('bitbucket', cloud, headers({ 'x-event-key': 'repo:push' }));
    expect(parsed).toMatchObject({ serviceName: 'Bitbucket', branch: 'main', fullName: 'acme/app' });
    expect(parsed?.repos).toEqual(expect.arrayContaining(['git@bitbucket.org:acme/app.git', 'https://bitbucket.org/acme/app', 'ssh://git@bitbucket.org/acme/app.git']));
    const server = {
      repository: { slug: 'app', project: { key: 'ACME' }, links: { self: [{ href: 'https://bb.example.com/projects/ACME/repos/app/browse' }], clone: [{ href: 'https://bb.example.com/scm/acme/app.git' }, { href: 'ssh://git@bb.example.com:7999/acme/app.git' }] } },
      changes: [{ ref: { displayId: 'main' } }],
    };
    expect(parseHookPayload('bitbucket', server, headers({ 'x-event-key': 'repo:refs_changed' }))).toEqual({
      serviceName: 'Bitbucket',
      repoUrl: 'https://bb.example.com/projects/ACME/repos/app/browse',
      repos: ['https://bb.example.com/scm/acme/app.git', 'ssh://git@bb.example.com:7999/acme/app.git'],
      branch: 'main',
      fullName: 'ACME/app',
    });
  });

  it('Pagure, Azure, Gitea and Gitee', () => {
    expect(parseHookPayload('pagure', { topic: 'git.receive', msg: { pagure_instance: 'https://pagure.io/', project_fullname: 'app', branch: 'main' } }, headers())).toEqual({
      serviceName: 'Pagure',
      repoUrl: 'https://pagure.io/app',
      repos: ['https://pagure.io/app', 'https://pagure.io/app.git', 'ssh://git@pagure.io/app', 'ssh://git@pagure.io/app.git'],
      branch: 'main',
      fullName: 'app',
    });
    const azure = parseHookPayload(
      'azure',
      { eventType: 'git.push', resource: { refUpdates: [{ name: 'refs/heads/main' }], repository: { id: 'r1', name: 'app', remoteUrl: 'https://dev.azure.com/acme/Web/_git/app', project: { id: 'p1', name: 'Web' } } } },
      headers(),
    );
    expect(azure?.repos).toEqual(expect.arrayContaining(['https://dev.azure.com/acme/Web/_git/app', 'git@ssh.dev.azure.com:v3/acme/Web/app', 'https://acme.visualstudio.com/Web/_git/app', 'https://dev.azure.com/acme/p1/_git/r1']));
    expect(azure).toMatchObject({ branch: 'main', fullName: 'app' });
    expect(parseHookPayload('azure', { eventType: 'git.pullrequest.created' }, headers())).toBeNull();
    const gitea = parseHookPayload('gitea', { ref: 'refs/heads/main', repository: { full_name: 'acme/app', html_url: 'https://git.example.com/acme/app', clone_url: 'https://git.example.com/acme/app.git', ssh_url: 'git@git.example.com:acme/app.git' } }, headers());
    expect(gitea?.repos).toEqual(['git@git.example.com:acme/app', 'git@git.example.com:acme/app.git', 'https://git.example.com/acme/app', 'https://git.example.com/acme/app.git']);
    const gitee = parseHookPayload('gitee', { ref: 'refs/heads/main', repository: { path_with_namespace: 'acme/app', git_http_url: 'https://gitee.com/acme/app.git', html_url: 'https://gitee.com/acme/app' } }, headers());
    expect(gitee).toEqual({ serviceName: 'Gitee', repoUrl: 'https://gitee.com/acme/app', repos: ['https://gitee.com/acme/app.git', 'https://gitee.com/acme/app'], branch: 'main', fullName: 'acme/app' });
  });

  it('throws HookPayloadError on missing or mistyped fields', () => {
    expect(() => parseHookPayload('gitea', { repository: {} }, headers())).toThrow(new HookPayloadError('Missing ref in payload'));
    expect(() => parseHookPayload('github', { ref: 'refs/heads/main', repository: 'x' }, headers({ 'x-github-event': 'push' }))).toThrow(HookPayloadError);
    expect(() => parseHookPayload('gitee', { ref: 'refs/heads/main', repository: { path_with_namespace: 'a/b', html_url: 5 } }, headers())).toThrow(HookPayloadError);
    expect(() => parseHookPayload('azure', { eventType: 'git.push', resource: { refUpdates: [] } }, headers())).toThrow(HookPayloadError);
    expect(() => parseHookPayload('pagure', { topic: 'git.receive', msg: { pagure_instance: 'not a url', project_fullname: 'a', branch: 'b' } }, headers())).toThrow(HookPayloadError);
  });
});
