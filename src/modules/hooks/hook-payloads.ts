import type { HookService } from '../../common/http/hook-paths';

// What each code host's push notification says, read the way Weblate's hook handlers read it
// (integration.md §1.4, newest handlers): the repository URLs to look for, the pushed branch and the
// repository's "full name" (owner/name) for the fallback match. Pure: JSON in, a notification out.
// Weblate's handlers index the payload and turn any KeyError/TypeError into 400 "Invalid data in json
// payload!"; here every access is checked and a shape error is a HookPayloadError, answered the same way.

/** What a push notification names; null from a parser means "not a push" (ping, other event): 201. */
export interface HookNotification {
  /** Weblate's service_long_name. */
  serviceName: string;
  /** The repository URL as the provider reports it (for the history's details). */
  repoUrl: string;
  /** Candidate repository URLs, deduplicated, in a stable order. */
  repos: string[];
  /** The pushed branch without `refs/heads/`; null when the event names none (no branch filter). */
  branch: string | null;
  fullName: string;
}

export class HookPayloadError extends Error {}

/** Request headers by lower-case name. */
export type HeaderLookup = (name: string) => string | undefined;

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function object(value: unknown, what: string): Json {
  if (!isObject(value)) throw new HookPayloadError(`Invalid ${what} in payload`);
  return value;
}

function text(value: unknown, what: string): string {
  if (typeof value !== 'string' || value === '') throw new HookPayloadError(`Missing ${what} in payload`);
  return value;
}

/** An optional string field: absent or null is undefined; any other non-string is a shape error. */
function optionalText(value: unknown, what: string): string | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string') throw new HookPayloadError(`Invalid ${what} in payload`);
  return value;
}

function branchOf(ref: unknown): string {
  const name = text(ref, 'ref');
  return name.startsWith('refs/heads/') ? name.slice('refs/heads/'.length) : name;
}

function withoutGit(url: string): string {
  return url.endsWith('.git') ? url.slice(0, -4) : url;
}

/** Each URL, and each also without a trailing `.git` (Weblate 5.x+), deduplicated and sorted. */
function withAndWithoutGit(urls: Array<string | undefined>): string[] {
  const present = urls.filter((url): url is string => url !== undefined);
  return [...new Set(present.flatMap((url) => [url, withoutGit(url)]))].sort();
}

function unique(urls: Array<string | undefined>): string[] {
  return [...new Set(urls.filter((url): url is string => url !== undefined))];
}

function hostOf(url: string, what: string): string {
  try {
    const host = new URL(url).host;
    if (host !== '') return host;
  } catch {
    // reported below
  }
  throw new HookPayloadError(`Invalid ${what} in payload`);
}

/** GitHub: only `X-GitHub-Event: push` is a push; without clone URLs the six github.com spellings are built. */
function github(payload: Json, header: HeaderLookup): HookNotification | null {
  if (header('x-github-event') !== 'push') return null;
  const repository = object(payload.repository, 'repository');
  const branch = branchOf(payload.ref);
  const name = text(repository.name, 'repository name');
  const owner = object(repository.owner, 'repository owner');
  const login = optionalText(owner.login, 'owner login') ?? text(owner.name, 'owner name');
  const fullName = `${login}/${name}`;
  let repos: string[];
  if (optionalText(repository.clone_url, 'clone_url') !== undefined) {
    repos = withAndWithoutGit(['clone_url', 'git_url', 'ssh_url', 'svn_url', 'html_url', 'url'].map((key) => optionalText(repository[key], key)));
  } else {
    const bases = [`git://github.com/${fullName}`, `https://github.com/${fullName}`, `git@github.com:${fullName}`];
    repos = bases.flatMap((base) => [base, `${base}.git`]);
  }
  const repoUrl = optionalText(repository.url, 'repository url') ?? `https://github.com/${fullName}`;
  return { serviceName: 'GitHub', repoUrl, repos, branch, fullName };
}

/** GitLab: any body with `ref` (the X-Gitlab-Event header is not read, as in Weblate). */
function gitlab(payload: Json): HookNotification | null {
  if (payload.ref === undefined) return null;
  const branch = branchOf(payload.ref);
  const repository = object(payload.repository, 'repository');
  const url = optionalText(repository.url, 'repository url');
  const homepage = optionalText(repository.homepage, 'repository homepage');
  const repos = unique([
    url,
    homepage === undefined ? undefined : `${homepage}.git`,
    optionalText(repository.git_http_url, 'git_http_url'),
    optionalText(repository.git_ssh_url, 'git_ssh_url'),
    homepage,
  ]);
  if (repos.length === 0) throw new HookPayloadError('Invalid repository in payload');
  const project = payload.project === undefined ? undefined : object(payload.project, 'project');
  const fullName =
    optionalText(project?.path_with_namespace, 'path_with_namespace') ?? withoutGit((url ?? '').slice((url ?? '').indexOf(':') + 1));
  return { serviceName: 'GitLab', repoUrl: url ?? repos[0], repos, branch, fullName };
}

const BITBUCKET_EVENTS = new Set(['repo:push', 'repo:refs_changed', 'pullrequest:fulfilled', 'pr:merged']);

/** The branch of a Bitbucket push: the last change (or commit) names it in one of four ways. */
function bitbucketBranch(payload: Json): string | null {
  const push = payload.push === undefined ? undefined : object(payload.push, 'push');
  for (const list of [payload.changes, push?.changes, payload.commits]) {
    if (list === undefined) continue;
    if (!Array.isArray(list)) throw new HookPayloadError('Invalid changes in payload');
    if (list.length === 0) continue;
    const last = object(list[list.length - 1], 'change');
    const named =
      optionalText(last.branch, 'branch') ??
      (isObject(last.new) ? optionalText(last.new.name, 'new name') : undefined) ??
      (isObject(last.old) ? optionalText(last.old.name, 'old name') : undefined) ??
      (isObject(last.ref) ? optionalText(last.ref.displayId, 'ref displayId') : undefined);
    if (named !== undefined) return named;
  }
  return null;
}

/** Bitbucket Cloud and Server: `X-Event-Key` says which; clone links when given, else built spellings. */
function bitbucket(payload: Json, header: HeaderLookup): HookNotification | null {
  const event = header('x-event-key');
  if (event === undefined || !BITBUCKET_EVENTS.has(event)) return null;
  const repository =
    event === 'pr:merged'
      ? object(object(object(payload.pullRequest, 'pullRequest').fromRef, 'fromRef').repository, 'repository')
      : object(payload.repository, 'repository');
  const slug = optionalText(repository.slug, 'slug');
  const ownerOrProject = isObject(repository.project) ? optionalText(repository.project.key, 'project key') : optionalText(repository.owner, 'owner');
  const fullName =
    optionalText(repository.full_name, 'full_name') ??
    optionalText(repository.fullName, 'fullName') ??
    (slug !== undefined && ownerOrProject !== undefined ? `${ownerOrProject}/${slug}` : undefined);
  if (fullName === undefined) throw new HookPayloadError('Invalid repository in payload');
  const links = repository.links === undefined ? {} : object(repository.links, 'links');
  let repoUrl: string | undefined;
  if (isObject(links.html)) repoUrl = optionalText(links.html.href, 'html link');
  if (repoUrl === undefined && Array.isArray(links.self) && links.self.length > 0) repoUrl = optionalText(object(links.self[0], 'self link').href, 'self link');
  repoUrl ??= `https://bitbucket.org/${fullName}`;
  let repos: string[];
  if (Array.isArray(links.clone)) {
    repos = unique(links.clone.map((link) => text(object(link, 'clone link').href, 'clone link')));
  } else {
    const scm = optionalText(repository.scm, 'scm');
    repos = [];
    for (const host of unique(['bitbucket.org', hostOf(repoUrl, 'repository url')])) {
      if (scm !== 'hg') repos.push(`ssh://git@${host}/${fullName}`, `ssh://git@${host}/${fullName}.git`, `git@${host}:${fullName}`, `git@${host}:${fullName}.git`, `https://${host}/${fullName}`, `https://${host}/${fullName}.git`);
      if (scm !== 'git') repos.push(`https://${host}/${fullName}`, `ssh://hg@${host}/${fullName}`, `hg::ssh://hg@${host}/${fullName}`, `hg::https://${host}/${fullName}`);
    }
    repos = unique(repos);
  }
  let branch: string | null;
  if (event === 'pullrequest:fulfilled') {
    const destination = object(object(payload.pullrequest, 'pullrequest').destination, 'destination');
    branch = text(object(destination.branch, 'destination branch').name, 'destination branch');
  } else if (event === 'pr:merged') {
    const toRef = object(payload.pullRequest, 'pullRequest').toRef;
    branch = isObject(toRef) ? (optionalText(toRef.displayId, 'toRef displayId') ?? null) : null;
  } else {
    branch = bitbucketBranch(payload);
  }
  return { serviceName: 'Bitbucket', repoUrl, repos, branch, fullName };
}

/** Pagure: the `git.receive` message of the project's instance. */
function pagure(payload: Json): HookNotification | null {
  if (payload.topic !== 'git.receive' || payload.msg === undefined) return null;
  const message = object(payload.msg, 'msg');
  const instance = text(message.pagure_instance, 'pagure_instance');
  const host = hostOf(instance, 'pagure_instance');
  const project = text(message.project_fullname, 'project_fullname');
  const repos = [`https://${host}/${project}`, `https://${host}/${project}.git`, `ssh://git@${host}/${project}`, `ssh://git@${host}/${project}.git`];
  return { serviceName: 'Pagure', repoUrl: repos[0], repos, branch: text(message.branch, 'branch'), fullName: project };
}

/** Azure Repos: `git.push`; the organisation comes from the remote URL's host or first path segment. */
function azure(payload: Json): HookNotification | null {
  if (payload.eventType !== 'git.push') return null;
  const resource = object(payload.resource, 'resource');
  const refUpdates = resource.refUpdates;
  if (!Array.isArray(refUpdates) || refUpdates.length === 0) throw new HookPayloadError('Missing ref in payload');
  const branch = branchOf(object(refUpdates[0], 'refUpdates').name);
  const repository = object(resource.repository, 'repository');
  const remoteUrl = text(repository.remoteUrl, 'remoteUrl');
  const name = text(repository.name, 'repository name');
  const project = object(repository.project, 'repository project');
  const projectName = text(project.name, 'project name');
  const repoId = optionalText(repository.id, 'repository id');
  const projectId = optionalText(project.id, 'project id');
  let organisation: string | undefined;
  try {
    const url = new URL(remoteUrl);
    if (url.hostname === 'dev.azure.com') organisation = url.pathname.split('/')[1] || undefined;
    else if (url.hostname.endsWith('.visualstudio.com')) organisation = url.hostname.slice(0, -'.visualstudio.com'.length).split('@').pop();
  } catch {
    throw new HookPayloadError('Invalid remoteUrl in payload');
  }
  if (organisation === undefined) return { serviceName: 'Azure', repoUrl: remoteUrl, repos: [remoteUrl], branch, fullName: name };
  const spellings = (p: string, r: string): string[] => [
    `https://dev.azure.com/${organisation}/${p}/_git/${r}`,
    `git@ssh.dev.azure.com:v3/${organisation}/${p}/${r}`,
    `https://${organisation}.visualstudio.com/${p}/_git/${r}`,
    `${organisation}@vs-ssh.visualstudio.com:v3/${organisation}/${p}/${r}`,
  ];
  const repos = unique([
    ...spellings(projectName, name),
    ...spellings(encodeURIComponent(projectName), encodeURIComponent(name)),
    projectId !== undefined && repoId !== undefined ? `https://dev.azure.com/${organisation}/${projectId}/_git/${repoId}` : undefined,
  ]);
  return { serviceName: 'Azure', repoUrl: remoteUrl, repos, branch, fullName: name };
}

/** Gitea (and its forks): every delivery is read; the three URLs with and without `.git`. */
function gitea(payload: Json): HookNotification | null {
  const branch = branchOf(payload.ref);
  const repository = object(payload.repository, 'repository');
  const repos = withAndWithoutGit(['clone_url', 'ssh_url', 'html_url'].map((key) => optionalText(repository[key], key)));
  if (repos.length === 0) throw new HookPayloadError('Invalid repository in payload');
  const repoUrl = optionalText(repository.html_url, 'html_url') ?? repos[0];
  return { serviceName: 'Gitea', repoUrl, repos, branch, fullName: text(repository.full_name, 'full_name') };
}

/** Gitee: every delivery is read; its five repository URLs. */
function gitee(payload: Json): HookNotification | null {
  const branch = branchOf(payload.ref);
  const repository = object(payload.repository, 'repository');
  const repos = unique(['git_http_url', 'git_ssh_url', 'git_url', 'ssh_url', 'html_url'].map((key) => optionalText(repository[key], key)));
  if (repos.length === 0) throw new HookPayloadError('Invalid repository in payload');
  const repoUrl = optionalText(repository.html_url, 'html_url') ?? repos[0];
  return { serviceName: 'Gitee', repoUrl, repos, branch, fullName: text(repository.path_with_namespace, 'path_with_namespace') };
}

const PARSERS: Record<HookService, (payload: Json, header: HeaderLookup) => HookNotification | null> = {
  github,
  gitlab,
  bitbucket,
  pagure,
  azure,
  gitea,
  gitee,
};

/** Reads a provider's decoded payload (a non-empty JSON object); throws HookPayloadError on a bad shape. */
export function parseHookPayload(service: HookService, payload: Json, header: HeaderLookup): HookNotification | null {
  return PARSERS[service](payload, header);
}
