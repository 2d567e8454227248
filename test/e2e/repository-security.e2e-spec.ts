import { mkdir, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { Writable } from 'node:stream';
import { DataSource } from 'typeorm';
import type { Project } from '../../src/modules/projects/project.entity';
import { ComponentTaskScheduler } from '../../src/sync/component-task.scheduler';
import { networkFailureMessage } from '../../src/vcs/git-runner';
import { PRIVATE_HOST_MESSAGE, type HostLookup } from '../../src/vcs/repository-host-policy';
import { createGitSandbox, type GitSandbox } from '../../src/vcs/testing/git-sandbox';
import { authHeader } from '../support/contract';
import { createComponent, createProject } from '../support/factories';
import { waitForTask } from '../support/tasks';
import { createTestApp, TEST_ADMIN_TOKEN, type TestApp } from '../support/test-app';

// Issue 10, items 6, 8 and 10: repository URLs must not reach internal services (server-side request
// forgery), language filters must not stall the server (ReDoS), and what anonymous callers read — component
// settings and task logs — must not carry credentials or server paths. Internal services are real HTTP
// servers on 127.0.0.1 that count what reaches them; names resolve through a fake resolver, never DNS.

const admin = authHeader(TEST_ADMIN_TOKEN);
const FETCH_FAILED = networkFailureMessage('fetch');

interface Recorder {
  server: Server;
  port: number;
  requests: string[];
}

/** An HTTP server on 127.0.0.1 recording each request; it stops with the test file. */
async function listen(respond: (url: string) => { status: number; headers?: Record<string, string> } = () => ({ status: 404 })): Promise<Recorder> {
  const requests: string[] = [];
  const server = createServer((request, response) => {
    requests.push(request.url ?? '');
    const { status, headers } = respond(request.url ?? '');
    response.writeHead(status, headers).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port, requests };
}

// The fake resolver: `git.partner.test` is an allowed internal host; `innocent.example.test` looks public
// but resolves to loopback; every other name (`git.example.org`…) does not resolve, as without a network.
const lookup: HostLookup = async (host) => {
  if (host === 'git.partner.test' || host === 'innocent.example.test') return ['127.0.0.1'];
  throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
};

const componentBody = (slug: string, repo: string, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  name: slug,
  slug,
  repo,
  filemask: 'translations/*/app.json',
  template: 'sources/app.json',
  file_format: 'json-nested',
  ...extra,
});

describe('repository security', () => {
  let app: TestApp;
  let db: DataSource;
  let project: Project;
  let internal: Recorder;
  let sandbox: GitSandbox;
  const servers: Server[] = [];
  const logLines: string[] = [];

  beforeAll(async () => {
    internal = await listen();
    servers.push(internal.server);
    const logStream = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        logLines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
        callback();
      },
    });
    app = await createTestApp({ ALLOW_PRIVATE_REPOSITORY_HOSTS: 'git.partner.test', LOG_LEVEL: 'debug' }, { config: { repositoryHostLookup: lookup }, logStream });
    db = app.glossa.app.get(DataSource);
    project = await createProject(db, { name: 'Secure', slug: 'secure' });
    sandbox = await createGitSandbox({
      'sources/app.json': '{"hello": "Hello"}\n',
      'translations/cs/app.json': '{"hello": "Ahoj"}\n',
      [`translations/${'a'.repeat(36)}!/app.json`]: '{"hello": "A"}\n',
      // Matched by ^(a+)+$ (creation needs the file mask to match a file), an unknown language code.
      'translations/aaaa/app.json': '{"hello": "A"}\n',
    });
  });

  afterAll(async () => {
    await app?.close();
    await sandbox?.cleanup();
    for (const server of servers) await new Promise((resolve) => server.close(resolve));
  });

  const create = (body: Record<string, unknown>) => app.http().post('/api/projects/secure/components/').set(...admin).send(body);

  describe('server-side request forgery (item 6)', () => {
    it.each([
      'http://127.0.0.1:PORT/repo.git',
      'http://2130706433:PORT/repo.git',
      'http://0x7f.1:PORT/repo.git',
      'http://0177.0.0.1:PORT/repo.git',
      'http://[::ffff:127.0.0.1]:PORT/repo.git',
      'http://[::1]:PORT/repo.git',
      'http://0.0.0.0:PORT/repo.git',
      'http://localhost:PORT/repo.git?a=b',
      'http://innocent.example.test:PORT/repo.git',
      'http://169.254.169.254/latest/meta-data/',
      'ssh://git@10.0.0.1/repo.git',
      'git@192.168.1.1:repo.git',
      'git://[fd00::1]/repo.git',
    ])('refuses %s as repo and push (400 with the field), and nothing reaches the internal service', async (url) => {
      const target = url.replace('PORT', String(internal.port));
      const created = await create(componentBody('ssrf', target)).expect(400);
      expect(created.body).toEqual({ repo: [PRIVATE_HOST_MESSAGE] });
      const pushed = await create(componentBody('ssrf', 'https://git.example.org/repo.git', { push: target })).expect(400);
      expect(pushed.body).toEqual({ push: [PRIVATE_HOST_MESSAGE] });
      const [{ count }] = await db.query("SELECT count(*)::int AS count FROM components WHERE slug = 'ssrf'");
      expect(count).toBe(0);
      expect(internal.requests).toEqual([]);
    });

    it('refuses PATCH and PUT to an internal host and keeps the stored URL', async () => {
      await createComponent(db, project, { slug: 'patched', repo: 'https://git.example.org/repo.git' });
      const patched = await app.http().patch('/api/components/secure/patched/').set(...admin).send({ repo: `http://innocent.example.test:${internal.port}/x.git` }).expect(400);
      expect(patched.body).toEqual({ repo: [PRIVATE_HOST_MESSAGE] });
      const current = await app.http().get('/api/components/secure/patched/').set(...admin).expect(200);
      await app.http().put('/api/components/secure/patched/').set(...admin).send({ ...current.body, push: `http://127.0.0.1:${internal.port}/x.git` }).expect(400);
      const [row] = await db.query("SELECT repo, push, task_id FROM components WHERE slug = 'patched'");
      expect(row).toEqual({ repo: 'https://git.example.org/repo.git', push: '', task_id: null });
      expect(internal.requests).toEqual([]);
    });

    it('checks the host again before fetching: a stored URL whose name now resolves inside is refused with the fixed text', async () => {
      // Stored directly, as if `innocent.example.test` had pointed at a public address when it was written.
      await createComponent(db, project, { slug: 'rebound', repo: `http://innocent.example.test:${internal.port}/repo.git`, branch: '' });
      // The edit is validated against the repository (issue 12): the fetch is refused before connecting.
      const edited = await app.http().patch('/api/components/secure/rebound/').set(...admin).send({ filemask: 'po/*.json' }).expect(400);
      expect(edited.body).toEqual({ repo: [`Could not update repository: ${FETCH_FAILED}`] });
      const [row] = await db.query("SELECT filemask, task_id FROM components WHERE slug = 'rebound'");
      expect(row.filemask).not.toBe('po/*.json');
      expect(row.task_id).toBeNull();
      expect(internal.requests).toEqual([]);
      // The operator's log says why.
      expect(logLines.some((line) => line.includes('innocent.example.test') && line.includes('refused before connecting'))).toBe(true);
    });

    it('does not follow a redirect from an allowed server to an internal one', async () => {
      const partner = await listen((url) => ({ status: 302, headers: { Location: `http://127.0.0.1:${internal.port}${url}` } }));
      servers.push(partner.server);
      const created = await create(componentBody('redirected', `http://git.partner.test:${partner.port}/repo.git`)).expect(400);
      expect(created.body).toEqual({ repo: [`Could not update repository: ${FETCH_FAILED}`] });
      expect(partner.requests.length).toBeGreaterThan(0);
      expect(internal.requests).toEqual([]);
    });
  });

  describe('credentials and server paths shown to anonymous readers (item 10)', () => {
    const forms = [
      'https://deploy:s3cret-a@git.example.org/org/repo.git',
      'https://s3cret-b@git.example.org/org/repo.git',
      'https://git.example.org/org/repo.git?private_token=s3cret-c',
      'https://git.example.org/org/repo.git?ref=x&access_token=s3cret-d',
      'https://git.example.org/org/repo.git?token=s3cret-e',
      'deploy:s3cret-f@git.example.org:org/repo.git',
    ];

    it('redacts every credential form in repo, push, refusals and task logs, and keeps them through a GET-then-PUT', async () => {
      const tasks: string[] = [];
      for (const [index, form] of forms.entries()) {
        const push = forms[(index + 1) % forms.length];
        const repoweb = 'https://git.example.org/blob?api_key=s3cret-g';
        // git.example.org does not resolve here: the synchronous fetch refuses the creation (issue 12) ...
        const refused = await create(componentBody(`secret-${index}`, form, { push, repoweb })).expect(400);
        expect(refused.body).toEqual({ repo: [`Could not update repository: ${FETCH_FAILED}`] });
        expect(refused.text).not.toContain('s3cret');
        // ... so the components are stored as a repository that went away after creation leaves them, and imported.
        const component = await createComponent(db, project, { slug: `secret-${index}`, name: `secret-${index}`, repo: form, push, repoweb, branch: '' });
        const taskId = await app.glossa.app.get(ComponentTaskScheduler).scheduleImport(component.id);
        tasks.push(`http://localhost/api/tasks/${taskId}/`);
      }
      for (const taskUrl of tasks) await waitForTask(app, taskUrl);

      const anonymous = [
        await app.http().get('/api/components/').expect(200),
        await app.http().get('/api/projects/secure/components/').expect(200),
        ...(await Promise.all(forms.map((_, index) => app.http().get(`/api/components/secure/secret-${index}/`).expect(200)))),
        ...(await Promise.all(tasks.map((taskUrl) => app.http().get(new URL(taskUrl).pathname).expect(200)))),
      ];
      for (const response of anonymous) expect(response.text).not.toContain('s3cret');
      const shown = await app.http().get('/api/components/secure/secret-2/').expect(200);
      expect(shown.body.repo).toBe('https://git.example.org/org/repo.git?private_token=***');
      expect(shown.body.push).toBe('https://git.example.org/org/repo.git?ref=x&access_token=***');
      expect((await app.http().get('/api/components/secure/secret-5/').expect(200)).body.repo).toBe('git.example.org:org/repo.git');
      expect(logLines.join('\n')).not.toContain('s3cret');

      // A client sending the (redacted) GET body back keeps the stored credentials.
      await app.http().put('/api/components/secure/secret-2/').set(...admin).send(shown.body).expect(200);
      const [row] = await db.query("SELECT repo, push, repoweb FROM components WHERE slug = 'secret-2'");
      expect(row).toEqual({ repo: forms[2], push: forms[3], repoweb: 'https://git.example.org/blob?api_key=s3cret-g' });
    });

    it('keeps server paths out of anonymous task logs', async () => {
      // A file where the project's directory of working copies belongs: the clone fails on the file system.
      await mkdir(path.join(app.dataDir, 'vcs'), { recursive: true });
      await writeFile(path.join(app.dataDir, 'vcs', 'secure'), 'not a directory\n');
      try {
        const created = await create(componentBody('paths', sandbox.upstream)).expect(201);
        const task = await waitForTask(app, created.body.task_url);
        expect(task.completed).toBe(true);
        expect(JSON.stringify(task)).not.toContain(app.dataDir);
        expect(JSON.stringify(task)).not.toContain(sandbox.root);
        expect(task.result).toMatch(/\[server path\]/);
      } finally {
        await rm(path.join(app.dataDir, 'vcs', 'secure'));
      }
      // A local repository that is not there: git names the path, the refusal does not.
      const missing = await create(componentBody('missing', path.join(sandbox.root, 'missing.git'))).expect(400);
      expect(missing.body).toEqual({ repo: [expect.stringContaining('[server path]')] });
      expect(JSON.stringify(missing.body)).not.toContain(sandbox.root);
      expect(JSON.stringify(missing.body)).not.toContain(app.dataDir);
    });
  });

  describe('language filters (item 8)', () => {
    it('refuses backreferences and lookaround on write', async () => {
      const response = await create(componentBody('regex', sandbox.upstream, { language_regex: '^(?P<a>c)(?P=a)$' })).expect(400);
      expect(response.body).toEqual({ language_regex: [expect.stringMatching(/^Compilation failed: Invalid language filter: .*no backreferences or lookaround\)$/)] });
    });

    it('scans a directory built to make ^(a+)+$ backtrack promptly, the server answering meanwhile', async () => {
      const created = await create(componentBody('redos', sandbox.upstream, { language_regex: '^(a+)+$' })).expect(201);
      const health: number[] = [];
      let done = false;
      const task = waitForTask(app, created.body.task_url).finally(() => {
        done = true;
      });
      do {
        health.push((await app.http().get('/healthz')).status);
      } while (!done);
      expect(await task).toMatchObject({ completed: true, result: { result: true, translations: 1 } });
      expect(health.length).toBeGreaterThan(0);
      expect(health.every((status) => status === 200)).toBe(true);
    });
  });
});

describe('repository security with private hosts allowed', () => {
  let app: TestApp;
  const servers: Server[] = [];

  beforeAll(async () => {
    app = await createTestApp({ ALLOW_PRIVATE_REPOSITORY_HOSTS: 'true' });
    await createProject(app.glossa.app.get(DataSource), { name: 'Inside', slug: 'inside' });
  });
  afterAll(async () => {
    await app?.close();
    for (const server of servers) await new Promise((resolve) => server.close(resolve));
  });

  it('tells anonymous readers of the task the same whether the internal port is open or closed', async () => {
    const open = await listen(() => ({ status: 404 }));
    const closed = await listen();
    servers.push(open.server);
    await new Promise((resolve) => closed.server.close(resolve));
    const results = [];
    for (const [slug, port] of [['open', open.port], ['closed', closed.port]] as const) {
      // Creation fetches the repository synchronously (issue 12): the refusal is what the caller reads.
      const created = await app.http().post('/api/projects/inside/components/').set(...admin).send(componentBody(slug, `http://127.0.0.1:${port}/repo.git`)).expect(400);
      results.push(created.body);
    }
    expect(open.requests.length).toBeGreaterThan(0);
    expect(results[0]).toEqual(results[1]);
    expect(results[0]).toEqual({ repo: [`Could not update repository: ${FETCH_FAILED}`] });
  });
});
