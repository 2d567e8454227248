import { writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { DataSource } from 'typeorm';
import { HOOK_SERVICES } from '../../src/common/http/hook-paths';
import { ProjectAccess } from '../../src/modules/projects/project.entity';
import { withComponentLock } from '../../src/sync/component-lock';
import { createGitSandbox, type GitSandbox } from '../../src/vcs/testing/git-sandbox';
import { authHeader } from '../support/contract';
import { createComponent, createProject } from '../support/factories';
import { waitForTask } from '../support/tasks';
import { createTestApp, TEST_ADMIN_TOKEN, TestApp } from '../support/test-app';
import { pollUntil } from '../support/wait';

// Incoming repository hooks (issue 14 item 1; integration.md §1): a push to a bare repository, the
// provider's notification with a payload written from the provider's documentation (integration.md §1.4),
// the pull task it queues, and the history it leaves (53 "Received repository notification", then the
// pull's 21 (rebase, Weblate's default merge_style) and 59). The components use the providers' public URLs; git's `url.<base>.insteadOf` (in a
// GIT_CONFIG_GLOBAL file, which Glossa's git runner passes through) sends every one of them to the local
// bare repository, so nothing leaves the machine.

const admin = authHeader(TEST_ADMIN_TOKEN);
const RESPONSE_KEYS = ['status', 'message', 'match_status', 'updated_components'];

/** Each provider: the component's repository URL and a push payload for it (the provider's own field names). */
const PROVIDERS: Array<{ service: string; slug: string; repo: string; headers: Record<string, string>; payload: Record<string, unknown> }> = [
  {
    service: 'github',
    slug: 'gh',
    repo: 'https://github.com/acme/app.git',
    headers: { 'X-GitHub-Event': 'push', 'X-GitHub-Delivery': '72d3162e-cc78-11e3-81ab-4c9367dc0958' },
    payload: {
      ref: 'refs/heads/main',
      before: '0000000000000000000000000000000000000000',
      repository: {
        id: 1296269,
        name: 'app',
        full_name: 'acme/app',
        owner: { login: 'acme', id: 1 },
        url: 'https://github.com/acme/app',
        html_url: 'https://github.com/acme/app',
        clone_url: 'https://github.com/acme/app.git',
        git_url: 'git://github.com/acme/app.git',
        ssh_url: 'git@github.com:acme/app.git',
        svn_url: 'https://github.com/acme/app',
        default_branch: 'main',
      },
      pusher: { name: 'dev', email: 'dev@upstream.invalid' },
    },
  },
  {
    service: 'gitlab',
    slug: 'gl',
    repo: 'https://gitlab.com/acme/app.git',
    headers: { 'X-Gitlab-Event': 'Push Hook', 'X-Gitlab-Token': 'ignored' },
    payload: {
      object_kind: 'push',
      event_name: 'push',
      ref: 'refs/heads/main',
      user_username: 'dev',
      project: { id: 15, name: 'App', path_with_namespace: 'acme/app', default_branch: 'main', git_http_url: 'https://gitlab.com/acme/app.git', git_ssh_url: 'git@gitlab.com:acme/app.git' },
      repository: { name: 'App', url: 'git@gitlab.com:acme/app.git', homepage: 'https://gitlab.com/acme/app', git_http_url: 'https://gitlab.com/acme/app.git', git_ssh_url: 'git@gitlab.com:acme/app.git' },
      total_commits_count: 1,
    },
  },
  {
    service: 'bitbucket',
    slug: 'bb',
    repo: 'https://bitbucket.org/acme/app.git',
    headers: { 'X-Event-Key': 'repo:push', 'X-Hook-UUID': '4a5b8c2e-0000-4000-8000-000000000000' },
    payload: {
      actor: { display_name: 'Dev' },
      repository: { type: 'repository', full_name: 'acme/app', name: 'app', scm: 'git', is_private: false, links: { html: { href: 'https://bitbucket.org/acme/app' } } },
      push: { changes: [{ new: { type: 'branch', name: 'main', target: { hash: 'abc' } }, old: { type: 'branch', name: 'main' }, created: false, closed: false }] },
    },
  },
  {
    service: 'pagure',
    slug: 'pg',
    repo: 'https://pagure.io/app.git',
    headers: { 'X-Pagure-Topic': 'git.receive', 'X-Pagure-Project': 'app' },
    payload: {
      topic: 'git.receive',
      msg: { agent: 'dev', branch: 'main', forced: false, pagure_instance: 'https://pagure.io/', project_fullname: 'app', repo: { name: 'app', fullname: 'app' }, total_commits: 1 },
    },
  },
  {
    service: 'azure',
    slug: 'az',
    repo: 'https://dev.azure.com/acme/Web/_git/app',
    headers: {},
    payload: {
      subscriptionId: '00000000-0000-0000-0000-000000000000',
      eventType: 'git.push',
      publisherId: 'tfs',
      resource: {
        refUpdates: [{ name: 'refs/heads/main', oldObjectId: 'aad331d8', newObjectId: '33b55f7c' }],
        repository: {
          id: '278d5cd2-584d-4b63-824a-2ba458937249',
          name: 'app',
          url: 'https://dev.azure.com/acme/_apis/git/repositories/278d5cd2-584d-4b63-824a-2ba458937249',
          project: { id: '6ce954b1-ce1f-45d1-b94d-e6bf2464ba2c', name: 'Web' },
          remoteUrl: 'https://dev.azure.com/acme/Web/_git/app',
        },
        pushedBy: { displayName: 'Dev' },
      },
    },
  },
  {
    service: 'gitea',
    slug: 'gt',
    repo: 'git@git.example.com:acme/app.git',
    headers: { 'X-Gitea-Event': 'push', 'X-GitHub-Event': 'push', 'X-Gitea-Delivery': 'f6266f16-1bf3-46a5-9ea4-602e06ead473' },
    payload: {
      ref: 'refs/heads/main',
      before: '28e1879d029cb852e4844d9c718537df08844e03',
      repository: {
        id: 140,
        owner: { login: 'acme', username: 'acme' },
        name: 'app',
        full_name: 'acme/app',
        html_url: 'https://git.example.com/acme/app',
        ssh_url: 'git@git.example.com:acme/app.git',
        clone_url: 'https://git.example.com/acme/app.git',
        default_branch: 'main',
      },
    },
  },
  {
    service: 'gitee',
    slug: 'ge',
    repo: 'https://gitee.com/acme/app.git',
    headers: { 'X-Gitee-Event': 'Push Hook', 'User-Agent': 'git-oschina-hook', 'X-Gitee-Token': 'ignored' },
    payload: {
      hook_name: 'push_hooks',
      ref: 'refs/heads/main',
      repository: {
        name: 'app',
        path_with_namespace: 'acme/app',
        full_name: 'acme/app',
        html_url: 'https://gitee.com/acme/app',
        git_http_url: 'https://gitee.com/acme/app.git',
        git_ssh_url: 'git@gitee.com:acme/app.git',
        git_url: 'git://gitee.com/acme/app.git',
        ssh_url: 'git@gitee.com:acme/app.git',
      },
    },
  },
];

describe('repository hooks', () => {
  let app: TestApp;
  let db: DataSource;
  let sandbox: GitSandbox;
  const previousGitConfig = process.env.GIT_CONFIG_GLOBAL;

  const hook = (service: string, payload: unknown, headers: Record<string, string> = {}) =>
    app.http().post(`/hooks/${service}/`).set(headers).send(payload as object);

  async function componentId(project: string, slug: string): Promise<number> {
    const [row]: Array<{ id: number }> = await db.query('SELECT c.id FROM components c JOIN projects p ON p.id = c.project_id WHERE p.slug = $1 AND c.slug = $2', [project, slug]);
    return row.id;
  }

  async function pullTasks(id: number): Promise<Array<{ id: string; status: string }>> {
    return db.query(`SELECT id, status FROM tasks WHERE kind = 'component-pull' AND component_id = $1 ORDER BY created_at, id`, [id]);
  }

  /** The last pull task of the component, once it has finished. */
  async function finishedPull(id: number): Promise<Record<string, unknown>> {
    const tasks = await pullTasks(id);
    expect(tasks.length).toBeGreaterThan(0);
    // As the superuser: the task of a private project's component is 404 for anonymous callers.
    return waitForTask(app, `/api/tasks/${tasks[tasks.length - 1].id}/`, admin);
  }

  async function actions(project: string, slug: string): Promise<Array<{ action: number; target: string }>> {
    const response = await app.http().get(`/api/components/${project}/${slug}/changes/`).query({ page_size: 1000 }).expect(200);
    return (response.body.results as Array<{ action: number; target: string }>).map(({ action, target }) => ({ action, target }));
  }

  async function importComponent(slug: string, repo: string): Promise<void> {
    const response = await app
      .http()
      .post('/api/projects/acme/components/')
      .set(...admin)
      .send({ name: slug.toUpperCase(), slug, repo, branch: 'main', filemask: 'translations/*/app.json', template: 'sources/app.json', file_format: 'json-nested' })
      .expect(201);
    expect((await waitForTask(app, response.body.task_url as string)).result).toMatchObject({ result: true });
  }

  beforeAll(async () => {
    sandbox = await createGitSandbox({
      'sources/app.json': '{"hello": "Hello"}\n',
      'translations/en/app.json': '{"hello": "Hello"}\n',
      'translations/cs/app.json': '{"hello": "Ahoj"}\n',
    });
    // Every provider URL of PROVIDERS is the sandbox's bare repository for git.
    const gitConfig = path.join(sandbox.root, 'gitconfig');
    // The private project's component points at a repository that does not exist.
    const missing = `[url "${path.join(sandbox.root, 'missing.git')}"]\n\tinsteadOf = https://github.com/acme/hidden.git\n`;
    await writeFile(gitConfig, `[url "${sandbox.upstream}"]\n${PROVIDERS.map((p) => `\tinsteadOf = ${p.repo}\n`).join('')}${missing}`);
    process.env.GIT_CONFIG_GLOBAL = gitConfig;
    app = await createTestApp({ ALLOW_PRIVATE_REPOSITORY_HOSTS: 'true' });
    db = app.glossa.app.get(DataSource);
    await createProject(db, { name: 'Acme', slug: 'acme' });
    for (const provider of PROVIDERS) await importComponent(provider.slug, provider.repo);
  });

  afterAll(async () => {
    await app?.close();
    await sandbox?.cleanup();
    if (previousGitConfig === undefined) delete process.env.GIT_CONFIG_GLOBAL;
    else process.env.GIT_CONFIG_GLOBAL = previousGitConfig;
  });

  describe.each(PROVIDERS)('$service', (provider) => {
    it('pulls the pushed commit into the matching component and records 53, 21 and 59', async () => {
      const text = `Ahoj z ${provider.service}`;
      await sandbox.commitUpstream({ 'translations/cs/app.json': `{"hello": "${text}"}\n` }, `Czech via ${provider.service}`);
      const response = await hook(provider.service, provider.payload, provider.headers).expect(200);
      expect(response.headers['content-type']).toBe('application/json');
      expect(response.headers['allow']).toBe('POST, OPTIONS');
      expect(response.headers['x-ratelimit-limit']).toBe('1000000');
      expect(Object.keys(response.body)).toEqual(RESPONSE_KEYS);
      expect(response.body).toEqual({
        status: 'success',
        message: `Update triggered: acme/${provider.slug}`,
        match_status: { repository_matches: 1, branch_matches: 1, enabled_hook_matches: 1 },
        updated_components: [`acme/${provider.slug}`],
      });
      const id = await componentId('acme', provider.slug);
      expect(await finishedPull(id)).toMatchObject({ completed: true, result: { result: true } });
      const cs = await app.http().get(`/api/translations/acme/${provider.slug}/cs/units/`).expect(200);
      expect(cs.body.results[0].target).toEqual([text]);
      const history = await actions('acme', provider.slug);
      const hookAt = history.findIndex((change) => change.action === 53);
      expect(hookAt).toBeGreaterThanOrEqual(0);
      expect(history.slice(hookAt)).toEqual(
        // 21 "Rebased repository": the components keep Weblate's default merge_style, rebase.
        expect.arrayContaining([{ action: 53, target: '' }, { action: 21, target: '' }, { action: 59, target: text }]),
      );
      expect(history.findIndex((change) => change.action === 59 && change.target === text)).toBeGreaterThan(hookAt);
      const [details]: Array<{ details: Record<string, unknown> }> = await db.query(
        'SELECT details FROM changes WHERE component_id = $1 AND action = 53 ORDER BY id DESC LIMIT 1',
        [id],
      );
      expect(details.details).toMatchObject({ branch: 'main', match_method: 'exact' });
    });
  });

  describe('matching', () => {
    beforeAll(async () => {
      // Hooks are off for this project: components match and are counted, nothing is pulled.
      const quiet = await createProject(db, { name: 'Quiet', slug: 'quiet', enableHooks: false });
      for (const [slug, repo] of [
        ['cred', 'https://bot:s3cret@github.com/acme/cred.git'],
        ['slash', 'https://github.com/acme/slash.git/'],
        ['scp', 'git@github.com:Acme/Scp.git'],
        ['ssh', 'ssh://git@github.com/acme/sshform'],
        ['elsewhere', 'https://gitlab.com/acme/elsewhere.git'],
        ['local', '/srv/git/acme/local.git'],
      ]) {
        await createComponent(db, quiet, { slug, repo, branch: 'main' });
      }
    });

    const push = (name: string, ref = 'refs/heads/main', owner = 'acme') => ({
      ref,
      repository: {
        name,
        owner: { login: owner },
        url: `https://github.com/${owner}/${name}`,
        html_url: `https://github.com/${owner}/${name}`,
        clone_url: `https://github.com/${owner}/${name}.git`,
        ssh_url: `git@github.com:${owner}/${name}.git`,
      },
    });
    const counts = async (payload: unknown): Promise<unknown> => {
      const response = await hook('github', payload, { 'X-GitHub-Event': 'push' }).expect(202);
      expect(Object.keys(response.body)).toEqual(['status', 'message', 'match_status']);
      expect(response.body).toMatchObject({ status: 'failure', message: 'No matching repositories found!' });
      return response.body.match_status;
    };

    it('matches credentials in the URL, a trailing slash, scp-like and ssh:// spellings in any case', async () => {
      for (const name of ['cred', 'slash', 'scp', 'sshform']) {
        expect({ name, status: await counts(push(name)) }).toEqual({ name, status: { repository_matches: 1, branch_matches: 1, enabled_hook_matches: 0 } });
      }
    });

    it('matches nothing on another host, a local path, or an unrelated owner with the same name', async () => {
      expect(await counts(push('elsewhere'))).toEqual({ repository_matches: 0, branch_matches: 0, enabled_hook_matches: 0 });
      expect(await counts(push('local'))).toEqual({ repository_matches: 0, branch_matches: 0, enabled_hook_matches: 0 });
      expect(await counts(push('cred', 'refs/heads/main', 'other'))).toEqual({ repository_matches: 0, branch_matches: 0, enabled_hook_matches: 0 });
    });

    it('filters by branch and records nothing for disabled projects', async () => {
      expect(await counts(push('cred', 'refs/heads/feature'))).toEqual({ repository_matches: 1, branch_matches: 0, enabled_hook_matches: 0 });
      const [{ hooks }]: Array<{ hooks: number }> = await db.query(
        `SELECT count(*)::int AS hooks FROM changes ch JOIN projects p ON p.id = ch.project_id WHERE p.slug = 'quiet'`,
      );
      expect(hooks).toBe(0);
      const [{ tasks }]: Array<{ tasks: number }> = await db.query(
        `SELECT count(*)::int AS tasks FROM tasks t JOIN components c ON c.id = t.component_id JOIN projects p ON p.id = c.project_id WHERE p.slug = 'quiet'`,
      );
      expect(tasks).toBe(0);
    });

    it('counts but does not name components of private projects', async () => {
      const secret = await createProject(db, { name: 'Secret', slug: 'secret', accessControl: ProjectAccess.Private });
      await createComponent(db, secret, { slug: 'hidden', repo: 'https://github.com/acme/hidden.git', branch: 'main' });
      const response = await hook('github', push('hidden'), { 'X-GitHub-Event': 'push' }).expect(200);
      expect(response.body).toEqual({
        status: 'success',
        message: 'Update triggered',
        match_status: { repository_matches: 1, branch_matches: 1, enabled_hook_matches: 1 },
        updated_components: [],
      });
      expect(JSON.stringify(response.body)).not.toContain('secret');
      const id = await componentId('secret', 'hidden');
      expect(await pullTasks(id)).toHaveLength(1);
      // Its pull fails (nothing is served at that URL here) and says so in the task, without server paths.
      const task = await finishedPull(id);
      expect(task.completed).toBe(true);
      expect(task.result).toBe('Could not fetch the repository: the server is not allowed, could not be reached, or refused the request.');
      expect(JSON.stringify(task)).not.toContain(sandbox.root);
    });
  });

  describe('coalescing', () => {
    it('a flood of notifications for one component queues one pull while another runs', async () => {
      const id = await componentId('acme', 'gh');
      const github = PROVIDERS[0];
      const before = (await pullTasks(id)).length;
      const hookChanges = async (): Promise<number> =>
        ((await db.query('SELECT count(*)::int AS n FROM changes WHERE component_id = $1 AND action = 53', [id])) as Array<{ n: number }>)[0].n;
      const hooksBefore = await hookChanges();
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      // Holding the component's lock keeps the first pull running (it waits for the lock) ...
      const lock = withComponentLock(id, () => held);
      try {
        await hook('github', github.payload, github.headers).expect(200);
        const [first] = (await pullTasks(id)).slice(before);
        let status: string | undefined;
        await pollUntil(
          async () => {
            [{ status }] = (await db.query('SELECT status FROM tasks WHERE id = $1', [first.id])) as Array<{ status: string }>;
            return status === 'running' ? true : undefined;
          },
          'the first pull running',
          { lastSeen: () => status },
        );
        // ... so twenty more notifications find one waiting pull after the first of them queues it.
        const responses = await Promise.all(Array.from({ length: 20 }, () => hook('github', github.payload, github.headers)));
        expect(responses.map((response) => response.status)).toEqual(Array(20).fill(200));
        const tasks = (await pullTasks(id)).slice(before);
        expect(tasks.map((task) => task.status)).toEqual(['running', 'queued']);
      } finally {
        release();
        await lock;
      }
      const tasks = (await pullTasks(id)).slice(before);
      expect(tasks).toHaveLength(2);
      expect(await waitForTask(app, `/api/tasks/${tasks[1].id}/`)).toMatchObject({ completed: true, result: { result: true } });
      // Every notification is still recorded.
      expect((await hookChanges()) - hooksBefore).toBe(21);
    });
  });

  describe('legacy update hooks', () => {
    it('queue a pull of the component or of every component of the project', async () => {
      const id = await componentId('acme', 'gl');
      const before = (await pullTasks(id)).length;
      const component = await app.http().get('/hooks/update/acme/gl/').expect(200);
      expect(component.body).toEqual({ status: 'success', message: 'Update triggered' });
      expect(component.headers['allow']).toBe('GET, POST, HEAD, OPTIONS');
      await finishedPull(id);
      expect((await pullTasks(id)).length).toBe(before + 1);
      const project = await app.http().post('/hooks/update/acme/').expect(200);
      expect(project.body).toEqual({ status: 'success', message: 'Update triggered' });
      for (const provider of PROVIDERS) expect(await finishedPull(await componentId('acme', provider.slug))).toMatchObject({ completed: true });
    });

    it('are 404 for unknown and private objects and 405 for projects with hooks off', async () => {
      for (const url of ['/hooks/update/nope/', '/hooks/update/acme/nope/', '/hooks/update/secret/', '/hooks/update/secret/hidden/']) {
        const response = await app.http().get(url).expect(404);
        expect(response.body).toEqual({ detail: 'Not found.' });
      }
      expect((await app.http().post('/hooks/update/quiet/cred/').expect(405)).body).toEqual({ detail: 'Method "POST" not allowed.' });
      expect((await app.http().get('/hooks/update/quiet/').expect(405)).body).toEqual({ detail: 'Method "GET" not allowed.' });
    });
  });

  describe('requests that are not pushes or cannot be read', () => {
    it('answers pings and other events 201 "Hook working", queueing nothing', async () => {
      const before: Array<{ n: number }> = await db.query(`SELECT count(*)::int AS n FROM tasks WHERE kind = 'component-pull'`);
      for (const [service, payload, headers] of [
        ['github', { zen: 'Keep it simple.', hook_id: 1 }, { 'X-GitHub-Event': 'ping' }],
        ['github', PROVIDERS[0].payload, { 'X-GitHub-Event': 'issues' }],
        ['bitbucket', PROVIDERS[2].payload, { 'X-Event-Key': 'diagnostics:ping' }],
        ['gitlab', { object_kind: 'issue' }, {}],
        ['pagure', { topic: 'pull-request.new', msg: {} }, {}],
        ['azure', { eventType: 'git.pullrequest.created', resource: {} }, {}],
      ] as Array<[string, unknown, Record<string, string>]>) {
        const response = await hook(service, payload, headers).expect(201);
        expect(response.body).toEqual({ status: 'success', message: 'Hook working' });
      }
      const after: Array<{ n: number }> = await db.query(`SELECT count(*)::int AS n FROM tasks WHERE kind = 'component-pull'`);
      expect(after[0].n).toBe(before[0].n);
    });

    it('refuses unreadable payloads with 400 and the reason', async () => {
      const expectations: Array<[string, () => ReturnType<typeof hook>, string]> = [
        ['empty object', () => hook('gitea', {}), 'Invalid data in json payload!'],
        ['array', () => hook('gitea', [1, 2]), 'Invalid data in json payload!'],
        ['no ref', () => hook('gitea', { repository: { full_name: 'acme/app' } }), 'Invalid data in json payload: Missing ref in payload'],
        ['bad repository', () => hook('gitee', { ref: 'refs/heads/main', repository: 'x' }), 'Invalid data in json payload: Invalid repository in payload'],
        ['form without payload', () => app.http().post('/hooks/github/').type('form').send({ other: '1' }), 'Could not parse JSON payload!'],
        ['form with bad JSON', () => app.http().post('/hooks/github/').type('form').send({ payload: '{nope' }), 'Could not parse JSON payload!'],
        ['text body', () => app.http().post('/hooks/github/').set('Content-Type', 'text/plain').send('hello'), 'Could not parse JSON payload!'],
      ];
      for (const [label, send, detail] of expectations) {
        const response = await send();
        expect({ label, status: response.status, body: response.body }).toEqual({ label, status: 400, body: { detail } });
      }
      const broken = await app.http().post('/hooks/github/').set('Content-Type', 'application/json').send('{"ref": ');
      expect(broken.status).toBe(400);
      expect(broken.body.detail).toMatch(/^JSON parse error - /);
      const flood = { ref: 'refs/heads/main', repository: { slug: 'app', full_name: 'acme/app', links: { clone: Array.from({ length: 100 }, (_, i) => ({ href: `https://h/${i}` })) } } };
      expect((await hook('bitbucket', flood, { 'X-Event-Key': 'repo:push' }).expect(400)).body).toEqual({ detail: 'Invalid data in json payload: more than 64 repository URLs' });
    });

    it('reads a form delivery whose payload field holds the JSON, and ignores any token', async () => {
      const gitee = PROVIDERS[6];
      const response = await app
        .http()
        .post('/hooks/gitee')
        .set('Authorization', 'Token not-a-valid-token')
        .type('form')
        .send({ payload: JSON.stringify(gitee.payload) })
        .expect(200);
      expect(response.body.updated_components).toEqual(['acme/ge']);
      await finishedPull(await componentId('acme', 'ge'));
      const multipart = await app.http().post('/hooks/gitee/').field('payload', JSON.stringify(gitee.payload)).expect(200);
      expect(multipart.body.updated_components).toEqual(['acme/ge']);
      await finishedPull(await componentId('acme', 'ge'));
    });

    it('serves every service of HOOK_SERVICES (the rate limiter recognises the same list)', () => {
      expect(PROVIDERS.map((provider) => provider.service).sort()).toEqual([...HOOK_SERVICES].sort());
    });

    it('routes only the known services, exactly, and only POST', async () => {
      for (const url of ['/hooks/forgejo/', '/hooks/unknown/', '/HOOKS/github/', '/hooks/GitHub/', '//hooks/github/', '/hooks/']) {
        const response = await app.http().post(url).send({ ref: 'refs/heads/main' }).expect(404);
        expect(response.body).toEqual({ detail: 'Not found.' });
      }
      const get = await app.http().get('/hooks/github/').expect(405);
      expect(get.body).toEqual({ detail: 'Method "GET" not allowed.' });
      expect(get.headers['allow']).toBe('POST, OPTIONS');
      // Metrics label hooks by route pattern, like API routes (misspelt paths stay "unmatched").
      const metrics = (await app.http().get('/metrics').expect(200)).text;
      expect(metrics).toMatch(/glossa_http_request_duration_seconds_count\{method="POST",route="\/hooks\/github\/",status_code="200"\} \d+\n/);
      expect(metrics).toMatch(/glossa_http_request_duration_seconds_count\{method="GET",route="\/hooks\/update\/:project\/:component\/",status_code="200"\} 1\n/);
    });
  });
});

describe('repository hooks switched off (ENABLE_HOOKS=false)', () => {
  let app: TestApp;
  let db: DataSource;

  beforeAll(async () => {
    app = await createTestApp({ ENABLE_HOOKS: 'false', RATE_LIMIT_HOOKS: '50/hour' });
    db = app.glossa.app.get(DataSource);
    const project = await createProject(db, { name: 'Acme', slug: 'acme' });
    await createComponent(db, project, { slug: 'app', repo: 'https://github.com/acme/app.git', branch: 'main' });
  });

  afterAll(async () => {
    await app?.close();
  });

  it('answers every hook 405 and changes nothing', async () => {
    for (const provider of PROVIDERS) {
      const response = await app.http().post(`/hooks/${provider.service}/`).set(provider.headers).send(provider.payload).expect(405);
      expect(response.body).toEqual({ detail: 'Method "POST" not allowed.' });
      // Counted under RATE_LIMIT_HOOKS, not the anonymous API rate.
      expect(response.headers['x-ratelimit-limit']).toBe('50');
    }
    expect((await app.http().get('/hooks/update/acme/app/').expect(405)).body).toEqual({ detail: 'Method "GET" not allowed.' });
    expect((await app.http().post('/hooks/update/acme/').expect(405)).body).toEqual({ detail: 'Method "POST" not allowed.' });
    const [{ changes }]: Array<{ changes: number }> = await db.query('SELECT count(*)::int AS changes FROM changes');
    const [{ tasks }]: Array<{ tasks: number }> = await db.query('SELECT count(*)::int AS tasks FROM tasks');
    expect({ changes, tasks }).toEqual({ changes: 0, tasks: 0 });
  });
});
