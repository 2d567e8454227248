import { readFile, rm, stat, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { DataSource } from 'typeorm';
import { withLock } from '../../src/vcs/repository-lock';
import { createGitSandbox, type GitSandbox } from '../../src/vcs/testing/git-sandbox';
import { apiLink, authHeader, expectApiHeaders } from '../support/contract';
import { createProject } from '../support/factories';
import { createTestApp, TEST_ADMIN_TOKEN, TestApp } from '../support/test-app';
import { createUserWithToken } from '../support/users-factories';
import { PATIENCE_MS } from '../support/wait';

// Repository status and operations of projects, components and translations (weblate-api.md §6.10, §10.5;
// wlc-client.md §6.5), on components imported from a real git repository.

const ALLOW = 'GET, POST, HEAD, OPTIONS';
const PROJECT_STATUS_KEYS = ['needs_commit', 'needs_merge', 'needs_push', 'url'];
const STATUS_KEYS = [...PROJECT_STATUS_KEYS, 'remote_commit', 'status', 'merge_failure'];
const COMMIT_KEYS = [
  'revision', 'shortrevision', 'author', 'author_name', 'author_email', 'authordate', 'commit', 'commit_name',
  'commit_email', 'commitdate', 'message', 'summary',
];
const DENIED = { detail: 'You do not have permission to perform this action.' };

describe('repository', () => {
  let app: TestApp;
  let db: DataSource;
  let origin: string;
  let userToken: string;
  let sandbox: GitSandbox;
  const admin = authHeader(TEST_ADMIN_TOKEN);

  const operate = (url: string, body: unknown, header: [string, string] = admin) => app.http().post(url).set(...header).send(body as object);

  async function createImportedComponent(slug: string, name: string): Promise<void> {
    const response = await app
      .http()
      .post('/api/projects/repo/components/')
      .set(...admin)
      .send({ name, slug, repo: sandbox.upstream, filemask: 'translations/*/app.json', template: 'sources/app.json', file_format: 'json-nested' })
      .expect(201);
    const taskPath = new URL(response.body.task_url).pathname;
    const deadline = Date.now() + PATIENCE_MS;
    for (;;) {
      const task = await app.http().get(taskPath).set(...admin).expect(200);
      if (task.body.completed) {
        expect(task.body.result).toMatchObject({ result: true });
        return;
      }
      if (Date.now() > deadline) throw new Error(`Import of ${slug} did not finish`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  async function waitForTask(taskUrl: string): Promise<void> {
    const taskPath = new URL(taskUrl).pathname;
    for (;;) {
      if ((await app.http().get(taskPath).set(...admin).expect(200)).body.completed) return;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  const translated = async (component: string, language: string): Promise<number> =>
    (await app.http().get(`/api/translations/repo/${component}/${language}/statistics/`).expect(200)).body.translated;

  beforeAll(async () => {
    app = await createTestApp();
    db = app.glossa.app.get(DataSource);
    origin = `http://127.0.0.1:${(app.glossa.app.getHttpServer().address() as { port: number }).port}`;
    userToken = (await createUserWithToken(db, 'translator')).token;
    sandbox = await createGitSandbox({
      'sources/app.json': '{"hello": "Hello", "bye": "Bye"}\n',
      'translations/en/app.json': '{"hello": "Hello", "bye": "Bye"}\n',
      'translations/cs/app.json': '{"hello": "Ahoj"}\n',
      'translations/de/app.json': '{"hello": "Hallo"}\n',
    });
    await createProject(db, { name: 'Repo', slug: 'repo' });
    await createProject(db, { name: 'Bare', slug: 'bare' });
    await createImportedComponent('app', 'App');
    await createImportedComponent('web', 'Web');
  });

  afterAll(async () => {
    await app?.close();
    await sandbox?.cleanup();
  });

  describe('status', () => {
    it('needs the repository permission: 403 for anonymous and ordinary users', async () => {
      for (const url of ['/api/projects/repo/repository/', '/api/components/repo/app/repository/', '/api/translations/repo/app/cs/repository/']) {
        const anonymous = await app.http().get(url).expect(403);
        expect(anonymous.body).toEqual(DENIED);
        expectApiHeaders(anonymous, ALLOW);
        const user = await app.http().get(url).set(...authHeader(userToken)).expect(403);
        expect(user.body).toEqual(DENIED);
      }
    });

    it('is 404 for unknown objects before any permission check', async () => {
      for (const url of ['/api/projects/nope/repository/', '/api/components/repo/nope/repository/', '/api/translations/repo/app/fr/repository/']) {
        const response = await app.http().get(url).expect(404);
        expect(response.body).toEqual({ detail: 'Not found.' });
        expectApiHeaders(response, ALLOW);
      }
    });

    it('reports the project flags with the endpoint URL', async () => {
      const response = await app.http().get('/api/projects/repo/repository/').set(...admin).expect(200);
      expectApiHeaders(response, ALLOW);
      expect(Object.keys(response.body)).toEqual(PROJECT_STATUS_KEYS);
      expect(response.body).toEqual({
        needs_commit: false,
        needs_merge: false,
        needs_push: false,
        url: apiLink(origin, '/api/projects/repo/repository/'),
      });
      const bare = await app.http().get('/api/projects/bare/repository/').set(...admin).expect(200);
      expect(bare.body).toMatchObject({ needs_commit: false, needs_merge: false, needs_push: false });
    });

    it('reports the component repository: flags, url, remote commit, git status, merge failure', async () => {
      const response = await app.http().get('/api/components/repo/app/repository/').set(...admin).expect(200);
      expectApiHeaders(response, ALLOW);
      expect(Object.keys(response.body)).toEqual(STATUS_KEYS);
      expect(response.body).toMatchObject({
        needs_commit: false,
        needs_merge: false,
        needs_push: false,
        url: apiLink(origin, '/api/components/repo/app/repository/'),
        merge_failure: null,
      });
      expect(Object.keys(response.body.remote_commit)).toEqual(COMMIT_KEYS);
      expect(response.body.remote_commit).toMatchObject({
        author: 'Upstream Dev <dev@upstream.invalid>',
        author_name: 'Upstream Dev',
        summary: 'Initial commit',
      });
      expect(response.body.remote_commit.revision).toMatch(/^[0-9a-f]{40}$/);
      expect(response.body.status).toContain('On branch main');
    });

    it("reports a translation's component repository at the translation URL", async () => {
      const response = await app.http().get('/api/translations/repo/app/cs/repository/').set(...admin).expect(200);
      expect(Object.keys(response.body)).toEqual(STATUS_KEYS);
      expect(response.body.url).toBe(apiLink(origin, '/api/translations/repo/app/cs/repository/'));
      const component = await app.http().get('/api/components/repo/app/repository/').set(...admin).expect(200);
      expect(response.body.remote_commit).toEqual(component.body.remote_commit);
    });
  });

  describe('operations', () => {
    it('refuses callers without any vcs right before the body (403), validates the operation (400), then its own right (403)', async () => {
      const url = '/api/components/repo/app/repository/';
      await app.http().post(url).send({ operation: 'pull' }).expect(401);
      const missing = await operate(url, {}).expect(400);
      expect(missing.body).toEqual({ operation: ['This field is required.'] });
      expectApiHeaders(missing, ALLOW);
      const invalid = await operate(url, { operation: 'invalid' }).expect(400);
      expect(invalid.body).toEqual({ operation: ['"invalid" is not a valid choice.'] });
      // An ordinary user holds no vcs.* write right on it: 403 whatever the body (DRF's order, check-order.ts).
      const userInvalid = await operate(url, { operation: 'invalid' }, authHeader(userToken)).expect(403);
      expect(userInvalid.body).toEqual(DENIED);
      for (const operation of ['commit', 'pull', 'push', 'reset', 'cleanup', 'file-sync', 'file-scan']) {
        const denied = await operate(url, { operation }, authHeader(userToken)).expect(403);
        expect(denied.body).toEqual(DENIED);
      }
      await operate('/api/components/repo/nope/repository/', { operation: 'pull' }).expect(404);
      await app.http().delete(url).set(...admin).expect(405);
    });

    it('pulls upstream changes into the component and rescans its files', async () => {
      expect(await translated('app', 'cs')).toBe(1);
      await sandbox.commitUpstream({ 'translations/cs/app.json': '{"hello": "Ahoj", "bye": "Nashle"}\n' }, 'Translate bye');
      const response = await operate('/api/components/repo/app/repository/', { operation: 'pull' }).expect(200);
      expectApiHeaders(response, ALLOW);
      expect(response.body).toEqual({ result: true });
      expect(await translated('app', 'cs')).toBe(2);
      const status = await app.http().get('/api/components/repo/app/repository/').set(...admin).expect(200);
      expect(status.body.remote_commit.summary).toBe('Translate bye');
      // The other component of the project has not been pulled yet.
      expect(await translated('web', 'cs')).toBe(1);
    });

    it('pulls every component of a project, and a translation pulls its component', async () => {
      await sandbox.commitUpstream({ 'translations/de/app.json': '{"hello": "Hallo", "bye": "Tschüss"}\n' }, 'Translate bye into German');
      const project = await operate('/api/projects/repo/repository/', { operation: 'pull' }).expect(200);
      expect(project.body).toEqual({ result: true });
      expect(await translated('web', 'cs')).toBe(2);
      expect(await translated('web', 'de')).toBe(2);
      expect(await translated('app', 'de')).toBe(2);
      const translation = await operate('/api/translations/repo/app/de/repository/', { operation: 'pull' }).expect(200);
      expect(translation.body).toEqual({ result: true });
    });

    it('commits pending strings of the addressed translation only, then reports nothing to commit', async () => {
      expect((await operate('/api/components/repo/app/repository/', { operation: 'commit' }).expect(200)).body).toEqual({ result: true });
      // Pending with the text the file already has: the json format patches only changed strings (issue 11
      // item 3), so the file stays byte-identical and there is nothing to push (Weblate would re-indent it).
      await db.query(
        `UPDATE units SET pending = true WHERE id = (SELECT u.id FROM units u JOIN translations t ON t.id = u.translation_id
           JOIN components c ON c.id = t.component_id JOIN languages l ON l.id = t.language_id
          WHERE c.slug = 'app' AND l.code = 'cs' ORDER BY u.id LIMIT 1)`,
      );
      const status = await app.http().get('/api/translations/repo/app/cs/repository/').set(...admin).expect(200);
      expect(status.body.needs_commit).toBe(true);
      const other = await app.http().get('/api/translations/repo/app/de/repository/').set(...admin).expect(200);
      expect(other.body.needs_commit).toBe(false);
      expect((await app.http().get('/api/projects/repo/repository/').set(...admin).expect(200)).body.needs_commit).toBe(true);
      // A translation commits only its own strings.
      expect((await operate('/api/translations/repo/app/de/repository/', { operation: 'commit' }).expect(200)).body).toEqual({ result: true });
      expect((await app.http().get('/api/translations/repo/app/cs/repository/').set(...admin).expect(200)).body.needs_commit).toBe(true);
      expect((await operate('/api/translations/repo/app/cs/repository/', { operation: 'commit' }).expect(200)).body).toEqual({ result: true });
      expect((await app.http().get('/api/translations/repo/app/cs/repository/').set(...admin).expect(200)).body.needs_commit).toBe(false);
      expect((await app.http().get('/api/projects/repo/repository/').set(...admin).expect(200)).body).toMatchObject({ needs_commit: false, needs_push: false });
      expect(await readFile(path.join(app.dataDir, 'vcs', 'repo', 'app', 'translations/cs/app.json'), 'utf8')).toBe('{"hello": "Ahoj", "bye": "Nashle"}\n');
    });

    it('answers push without a push URL as Weblate does: result false', async () => {
      const response = await operate('/api/components/repo/app/repository/', { operation: 'push' }).expect(200);
      expect(response.body).toEqual({ result: false, detail: 'Push is disabled for Repo/App: it has no push URL (push).' });
      await app.http().patch('/api/components/repo/web/').set(...admin).send({ push: sandbox.upstream }).expect(200);
      // Push configured and nothing to push: done.
      const configured = await operate('/api/components/repo/web/repository/', { operation: 'push' }).expect(200);
      expect(configured.body).toEqual({ result: true });
    });

    it('pushes to the push URL set just before: settings take effect before the operation runs (issue 12)', async () => {
      const workingCopy = path.join(app.dataDir, 'vcs', 'repo', 'web');
      const revision = async (repository: string) => (await sandbox.git(repository, ['rev-parse', 'main'])).trim();
      const bare = async (name: string) => {
        const directory = path.join(sandbox.root, name);
        await sandbox.git(sandbox.root, ['init', '--quiet', '--bare', '--initial-branch=main', directory]);
        return directory;
      };
      // The test's own git in the working copy holds the app's repository lock, as the app's git does: a git
      // operation the app runs meanwhile (a queued re-import) removes lock files it finds while no git of the
      // app runs there (stale-git-locks.ts), and would take this git's index.lock away under it.
      const inWorkingCopy = <T>(fn: () => Promise<T>): Promise<T> => withLock(path.resolve(workingCopy), fn);
      const localCommit = (name: string) =>
        inWorkingCopy(async () => {
          await writeFile(path.join(workingCopy, name), `${name}\n`);
          await sandbox.git(workingCopy, ['add', name]);
          await sandbox.git(workingCopy, ['commit', '--quiet', '-m', `Add ${name}`]);
          return revision(workingCopy);
        });
      const upstreamHead = await revision(sandbox.upstream);

      // PATCH the push URL, then push at once: the push goes to the new remote, whether or not the re-import
      // the change queued has run yet.
      const second = await bare('second.git');
      const first = await localCommit('NOTES-1');
      const patched = await app.http().patch('/api/components/repo/web/').set(...admin).send({ push: second }).expect(200);
      const pushed = await operate('/api/components/repo/web/repository/', { operation: 'push' }).expect(200);
      expect(pushed.body).toEqual({ result: true });
      expect(await revision(second)).toBe(first);
      expect(await revision(sandbox.upstream)).toBe(upstreamHead);
      if (patched.body.task_url) await waitForTask(patched.body.task_url);

      // A setting stored with no re-import queued at all: the operation itself applies it.
      const third = await bare('third.git');
      const next = await localCommit('NOTES-2');
      await db.query(`UPDATE components SET push = $1 WHERE slug = 'web'`, [third]);
      expect((await operate('/api/components/repo/web/repository/', { operation: 'push' }).expect(200)).body).toEqual({ result: true });
      expect(await revision(third)).toBe(next);
      expect(await revision(second)).toBe(first);
      expect(await revision(sandbox.upstream)).toBe(upstreamHead);

      // Back to the old state for the tests below (the local commits stay out of upstream).
      await db.query(`UPDATE components SET push = $1 WHERE slug = 'web'`, [sandbox.upstream]);
      await inWorkingCopy(async () => {
        await sandbox.git(workingCopy, ['reset', '--quiet', '--hard', upstreamHead]);
        await sandbox.git(workingCopy, ['update-ref', 'refs/remotes/origin/main', upstreamHead]);
      });
    });

    it('cleans up untracked files of the working copy', async () => {
      expect((await operate('/api/components/repo/app/repository/', { operation: 'cleanup' }).expect(200)).body).toEqual({ result: true });
      const stray = path.join(app.dataDir, 'vcs', 'repo', 'app', 'stray.txt');
      await writeFile(stray, 'left behind');
      try {
        const response = await operate('/api/components/repo/app/repository/', { operation: 'cleanup' }).expect(200);
        expect(response.body).toEqual({ result: true });
        await expect(stat(stray)).rejects.toThrow(/ENOENT/);
      } finally {
        await rm(stray, { force: true });
      }
    });

    it('resets to upstream, rescans files and writes every string back on file-sync', async () => {
      expect((await operate('/api/components/repo/app/repository/', { operation: 'reset' }).expect(200)).body).toEqual({ result: true });
      expect((await operate('/api/translations/repo/app/cs/repository/', { operation: 'file-scan' }).expect(200)).body).toEqual({ result: true });
      expect(await translated('app', 'cs')).toBe(2);
      const sync = await operate('/api/components/repo/app/repository/', { operation: 'file-sync' }).expect(200);
      expect(sync.body).toEqual({ result: true });
      const [{ pending }] = await db.query('SELECT count(*)::int AS pending FROM units WHERE pending');
      expect(pending).toBe(0);
    });

    it('answers a project without components with result true', async () => {
      expect((await operate('/api/projects/bare/repository/', { operation: 'pull' }).expect(200)).body).toEqual({ result: true });
    });
  });
});
