import { mkdir, readdir, stat, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { DataSource } from 'typeorm';
import { DEFAULT_MESSAGE_TEMPLATES } from '../../src/sync/component-defaults';

const { addMessage: DEFAULT_ADD_MESSAGE, commitMessage: DEFAULT_COMMIT_MESSAGE, pullMessage: DEFAULT_PULL_MESSAGE } = DEFAULT_MESSAGE_TEMPLATES;
import type { Project } from '../../src/modules/projects/project.entity';
import { createGitSandbox, type GitSandbox } from '../../src/vcs/testing/git-sandbox';
import { apiLink, authHeader, expectApiHeaders } from '../support/contract';
import { createComponent, createProject } from '../support/factories';
import { createTestApp, TEST_ADMIN_TOKEN, TestApp } from '../support/test-app';
import { createUserWithToken } from '../support/users-factories';
import { COMPONENT_KEYS, PROJECT_KEYS } from '../support/spec-shapes';
import { PATIENCE_MS } from '../support/wait';

// Components (weblate-api.md §5.6, §5.7, §6.3, §10.4, §10.6, §10.11, §10.13): lists, detail, edits, removal,
// lock and links, and creation from a real git repository imported in the background.

const LANGUAGE_KEYS = ['code', 'name', 'plural', 'aliases', 'direction', 'population', 'web_url', 'url', 'statistics_url'];
const DETAIL_ALLOW = 'GET, PUT, PATCH, DELETE, HEAD, OPTIONS';

describe('components', () => {
  let app: TestApp;
  let db: DataSource;
  let origin: string;
  let userToken: string;
  let hello: Project;
  let other: Project;
  let sandbox: GitSandbox;

  const admin = authHeader(TEST_ADMIN_TOKEN);

  async function waitForTask(taskUrl: string): Promise<Record<string, unknown>> {
    const taskPath = new URL(taskUrl).pathname;
    const deadline = Date.now() + PATIENCE_MS;
    for (;;) {
      const response = await app.http().get(taskPath).set(...admin).expect(200);
      if (response.body.completed) return response.body;
      if (Date.now() > deadline) throw new Error(`Task ${taskPath} did not complete: ${JSON.stringify(response.body)}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  beforeAll(async () => {
    app = await createTestApp();
    db = app.glossa.app.get(DataSource);
    origin = `http://127.0.0.1:${(app.glossa.app.getHttpServer().address() as { port: number }).port}`;
    userToken = (await createUserWithToken(db, 'translator')).token;
    hello = await createProject(db, { name: 'Hello', slug: 'hello' });
    other = await createProject(db, { name: 'Other', slug: 'other' });
    await createComponent(db, hello, { name: 'Alpha', slug: 'alpha' });
    await createComponent(db, other, { name: 'Beta', slug: 'beta' });
    await createComponent(db, hello, { name: 'Gamma', slug: 'gamma' });
    sandbox = await createGitSandbox({
      'sources/app.json': '{"hello": "Hello", "menu": {"save": "Save", "quit": "Quit"}}\n',
      'translations/en/app.json': '{"hello": "Hello", "menu": {"save": "Save", "quit": "Quit"}}\n',
      'translations/cs/app.json': '{"hello": "Ahoj", "menu": {"save": "Uložit"}}\n',
      'translations/de/app.json': '{"hello": "Hallo"}\n',
    });
  });

  afterAll(async () => {
    await app?.close();
    await sandbox?.cleanup();
  });

  describe('lists', () => {
    it('lists every component by id with project and source language nested (GET, HEAD, OPTIONS)', async () => {
      const response = await app.http().get('/api/components/').expect(200);
      expectApiHeaders(response, 'GET, HEAD, OPTIONS');
      expect(Object.keys(response.body)).toEqual(['count', 'next', 'previous', 'results']);
      expect(response.body).toMatchObject({ count: 3, next: null, previous: null });
      expect(response.body.results.map((c: { slug: string }) => c.slug)).toEqual(['alpha', 'beta', 'gamma']);
      const [alpha] = response.body.results;
      expect(Object.keys(alpha)).toEqual(COMPONENT_KEYS);
      expect(Object.keys(alpha.project)).toEqual(PROJECT_KEYS);
      expect(Object.keys(alpha.source_language)).toEqual(LANGUAGE_KEYS);
      expect(alpha.project.slug).toBe('hello');
      expect(alpha.source_language.code).toBe('en');
      expect(alpha.url).toBe(apiLink(origin, '/api/components/hello/alpha/'));
      expect(response.body.results[1].project.slug).toBe('other');
    });

    it('paginates and refuses pages past the end', async () => {
      const first = await app.http().get('/api/components/?page_size=2').expect(200);
      expect(first.body.results).toHaveLength(2);
      expect(first.body.next).toBe(`${origin}/api/components/?format=api&page=2&page_size=2`);
      const second = await app.http().get('/api/components/?page=2&page_size=2').expect(200);
      expect(second.body.results.map((c: { slug: string }) => c.slug)).toEqual(['gamma']);
      expect(second.body.previous).toBe(`${origin}/api/components/?format=api&page_size=2`);
      const past = await app.http().get('/api/components/?page=3&page_size=2').expect(404);
      expect(past.body).toEqual({ detail: 'Invalid page.' });
      expectApiHeaders(past, 'GET, HEAD, OPTIONS');
    });

    it("lists a project's components without the nested project", async () => {
      const response = await app.http().get('/api/projects/hello/components/').expect(200);
      expectApiHeaders(response, 'GET, POST, HEAD, OPTIONS');
      expect(response.body.count).toBe(2);
      expect(response.body.results.map((c: { slug: string }) => c.slug)).toEqual(['alpha', 'gamma']);
      expect(Object.keys(response.body.results[0])).toEqual(COMPONENT_KEYS.filter((key) => key !== 'project'));
      const missing = await app.http().get('/api/projects/missing/components/').expect(404);
      expect(missing.body).toEqual({ detail: 'Not found.' });
      expectApiHeaders(missing, 'GET, POST, HEAD, OPTIONS');
    });

    it('answers 405 for methods the list routes do not accept', async () => {
      const response = await app.http().post('/api/components/').set(...admin).send({}).expect(405);
      expect(response.body).toEqual({ detail: 'Method "POST" not allowed.' });
      expectApiHeaders(response, 'GET, HEAD, OPTIONS');
      await app.http().delete('/api/projects/hello/components/').set(...admin).expect(405);
    });
  });

  describe('detail', () => {
    it('shows a component with the route methods in Allow and Weblate defaults', async () => {
      const response = await app.http().get('/api/components/hello/alpha/').expect(200);
      expectApiHeaders(response, DETAIL_ALLOW);
      expect(Object.keys(response.body)).toEqual(COMPONENT_KEYS);
      expect(response.body).toMatchObject({
        name: 'Alpha',
        slug: 'alpha',
        vcs: 'git',
        web_url: 'http://glossa.test/projects/hello/alpha/',
        repository_url: apiLink(origin, '/api/components/hello/alpha/repository/'),
        lock_url: apiLink(origin, '/api/components/hello/alpha/lock/'),
        links_url: apiLink(origin, '/api/components/hello/alpha/links/'),
        task_url: null,
        commit_message: DEFAULT_COMMIT_MESSAGE,
        addons: [],
      });
      const head = await app.http().head('/api/components/hello/alpha/').expect(200);
      expect(head.headers['allow']).toBe(DETAIL_ALLOW);
      const options = await app.http().options('/api/components/hello/alpha/').expect(200);
      expectApiHeaders(options, DETAIL_ALLOW);
    });

    it('is 404 for an unknown project or component, with the route Allow', async () => {
      for (const url of ['/api/components/hello/missing/', '/api/components/missing/alpha/', '/api/components/other/alpha/']) {
        const response = await app.http().get(url).expect(404);
        expect(response.body).toEqual({ detail: 'Not found.' });
        expectApiHeaders(response, DETAIL_ALLOW);
      }
      const post = await app.http().post('/api/components/hello/alpha/').set(...admin).send({}).expect(405);
      expectApiHeaders(post, DETAIL_ALLOW);
    });
  });

  describe('edits', () => {
    it('lets only superusers edit (401 anonymous, 403 others)', async () => {
      await app.http().patch('/api/components/hello/alpha/').send({ name: 'X' }).expect(401);
      const denied = await app.http().patch('/api/components/hello/alpha/').set(...authHeader(userToken)).send({ name: 'X' }).expect(403);
      expect(denied.body).toEqual({ detail: 'Can not edit component' });
      expectApiHeaders(denied, DETAIL_ALLOW);
      const put = await app.http().put('/api/components/hello/alpha/').set(...authHeader(userToken)).send({}).expect(403);
      expect(put.body).toEqual({ detail: 'Can not edit component' });
      await app.http().patch('/api/components/hello/missing/').set(...authHeader(userToken)).send({}).expect(404);
    });

    it('PATCH changes only what is sent and answers the full component', async () => {
      const response = await app
        .http()
        .patch('/api/components/hello/alpha/')
        .set(...admin)
        .send({ name: 'Alpha Renamed', priority: 120, restricted: 'true', license: 'MIT', enforced_checks: ['same'] })
        .expect(200);
      expectApiHeaders(response, DETAIL_ALLOW);
      expect(Object.keys(response.body)).toEqual(COMPONENT_KEYS);
      expect(response.body).toMatchObject({
        name: 'Alpha Renamed',
        slug: 'alpha',
        priority: 120,
        restricted: true,
        license: 'MIT',
        license_url: 'https://spdx.org/licenses/MIT.html',
        enforced_checks: ['same'],
        add_message: DEFAULT_ADD_MESSAGE,
        task_url: null,
      });
      // Issue 3: alpha is now restricted, so only superusers and its teams still see it.
      await app.http().get('/api/components/hello/alpha/').expect(404);
      const reread = await app.http().get('/api/components/hello/alpha/').set(...admin).expect(200);
      expect(reread.body).toEqual(response.body);
    });

    it('PUT requires the required fields and accepts a GET body sent back', async () => {
      const missing = await app.http().put('/api/components/hello/alpha/').set(...admin).send({ name: 'Only name' }).expect(400);
      expect(missing.body).toEqual({
        slug: ['This field is required.'],
        repo: ['This field is required.'],
        filemask: ['This field is required.'],
        file_format: ['This field is required.'],
      });
      const current = await app.http().get('/api/components/hello/alpha/').set(...admin).expect(200);
      const response = await app
        .http()
        .put('/api/components/hello/alpha/')
        .set(...admin)
        .send({ ...current.body, agreement: 'Be nice' })
        .expect(200);
      expect(response.body.agreement).toBe('Be nice');
      // DRF trims text fields, so the trailing blank lines of the default add message go.
      expect(response.body.add_message).toBe(DEFAULT_ADD_MESSAGE.trim());
      expect(response.body.name).toBe('Alpha Renamed');
    });

    it('validates edits like creation', async () => {
      const invalid = await app
        .http()
        .patch('/api/components/hello/alpha/')
        .set(...admin)
        .send({ filemask: 'no-star.json', file_format: 'no-such-format', merge_style: 'squash', slug: '' })
        .expect(400);
      expect(invalid.body).toEqual({
        slug: ['This field may not be blank.'],
        filemask: ['File mask does not contain * as a language placeholder!'],
        file_format: ['"no-such-format" is not a valid choice.'],
        merge_style: ['"squash" is not a valid choice.'],
      });
      const duplicate = await app.http().patch('/api/components/hello/alpha/').set(...admin).send({ slug: 'gamma' }).expect(400);
      expect(duplicate.body).toEqual({ slug: ['Component with this URL slug already exists in the project.'] });
      const sameName = await app.http().patch('/api/components/hello/alpha/').set(...admin).send({ name: 'Gamma' }).expect(400);
      expect(sameName.body).toEqual({ name: ['Component with this name already exists in the project.'] });
      // Another project may use the same slug and name.
      await app.http().patch('/api/components/other/beta/').set(...admin).send({ name: 'Gamma' }).expect(200);
      const language = await app.http().patch('/api/components/hello/alpha/').set(...admin).send({ source_language: 'cs' }).expect(400);
      expect(language.body).toEqual({ source_language: ['Source language can not be changed, please recreate the component instead.'] });
      const unknown = await app.http().patch('/api/components/hello/alpha/').set(...admin).send({ source_language: { code: 'xx-none' } }).expect(400);
      expect(unknown.body).toEqual({ source_language: { code: ['Language with this language code was not found.'] } });
      const voting = await app.http().patch('/api/components/hello/alpha/').set(...admin).send({ suggestion_autoaccept: 2 }).expect(400);
      expect(voting.body).toEqual({
        suggestion_autoaccept: ['Accepting suggestions automatically only works with voting turned on.'],
        suggestion_voting: ['Accepting suggestions automatically only works with voting turned on.'],
      });
      const instructions = await app.http().patch('/api/components/hello/alpha/').set(...admin).send({ new_lang: 'url' }).expect(400);
      expect(instructions.body).toEqual({
        new_lang: ['Please either fill in an instruction URL or use a different option for adding a new language.'],
      });
    });
  });

  describe('lock', () => {
    it('reads and sets the lock; POST needs a boolean and the lock permission', async () => {
      const initial = await app.http().get('/api/components/hello/gamma/lock/').expect(200);
      expectApiHeaders(initial, 'GET, POST, HEAD, OPTIONS');
      expect(initial.body).toEqual({ locked: false });
      await app.http().post('/api/components/hello/gamma/lock/').send({ lock: true }).expect(401);
      const denied = await app.http().post('/api/components/hello/gamma/lock/').set(...authHeader(userToken)).send({ lock: true }).expect(403);
      expect(denied.body).toEqual({ detail: 'You do not have permission to perform this action.' });
      const missing = await app.http().post('/api/components/hello/gamma/lock/').set(...admin).send({}).expect(400);
      expect(missing.body).toEqual({ lock: ['This field is required.'] });
      const invalid = await app.http().post('/api/components/hello/gamma/lock/').set(...admin).send({ lock: 'perhaps' }).expect(400);
      expect(invalid.body).toEqual({ lock: ['Must be a valid boolean.'] });
      // wlc sends integers.
      const locked = await app.http().post('/api/components/hello/gamma/lock/').set(...admin).send({ lock: 1 }).expect(200);
      expectApiHeaders(locked, 'GET, POST, HEAD, OPTIONS');
      expect(locked.body).toEqual({ locked: true });
      expect((await app.http().get('/api/components/hello/gamma/lock/').expect(200)).body).toEqual({ locked: true });
      await app.http().post('/api/components/hello/gamma/lock/').set(...admin).send({ lock: 1 }).expect(200);
      const unlocked = await app.http().post('/api/components/hello/gamma/lock/').set(...admin).send({ lock: 0 }).expect(200);
      expect(unlocked.body).toEqual({ locked: false });
      const changes: Array<{ action: number }> = await db.query(
        "SELECT action FROM changes WHERE component_id = (SELECT id FROM components WHERE slug = 'gamma') ORDER BY id",
      );
      expect(changes.map((c) => c.action)).toEqual([14, 15]);
      await app.http().get('/api/components/hello/missing/lock/').expect(404);
      await app.http().delete('/api/components/hello/gamma/lock/').set(...admin).expect(405);
    });
  });

  describe('links', () => {
    it('lists the (empty) set of projects the component is shared into', async () => {
      const response = await app.http().get('/api/components/hello/gamma/links/').expect(200);
      expectApiHeaders(response, 'GET, HEAD, OPTIONS');
      expect(response.body).toEqual({ count: 0, next: null, previous: null, results: [] });
      await app.http().get('/api/components/hello/gamma/links/?page=2').expect(404, { detail: 'Invalid page.' });
      await app.http().get('/api/components/hello/missing/links/').expect(404);
      await app.http().post('/api/components/hello/gamma/links/').set(...admin).send({ project_slug: 'other' }).expect(405);
    });
  });

  describe('creation', () => {
    const body = () => ({
      name: 'App',
      slug: 'app',
      repo: sandbox.upstream,
      filemask: 'translations/*/app.json',
      template: 'sources/app.json',
      file_format: 'json-nested',
    });

    it('refuses anonymous (401), non-superusers (403) and unknown projects (404)', async () => {
      await app.http().post('/api/projects/hello/components/').send(body()).expect(401);
      const denied = await app.http().post('/api/projects/hello/components/').set(...authHeader(userToken)).send(body()).expect(403);
      expect(denied.body).toEqual({ detail: 'Can not create components' });
      expectApiHeaders(denied, 'GET, POST, HEAD, OPTIONS');
      await app.http().post('/api/projects/missing/components/').set(...admin).send(body()).expect(404);
    });

    it('validates the body with DRF messages', async () => {
      const empty = await app.http().post('/api/projects/hello/components/').set(...admin).send({}).expect(400);
      expectApiHeaders(empty, 'GET, POST, HEAD, OPTIONS');
      expect(empty.body).toEqual({
        name: ['This field is required.'],
        slug: ['This field is required.'],
        repo: ['This field is required.'],
        filemask: ['This field is required.'],
        file_format: ['This field is required.'],
      });
      const invalid = await app
        .http()
        .post('/api/projects/hello/components/')
        .set(...admin)
        .send({ ...body(), filemask: 'translations/app.json', file_format: 'no-such-format', repo: 'ext::sh -c id' })
        .expect(400);
      expect(Object.keys(invalid.body)).toEqual(['repo', 'filemask', 'file_format']);
      expect(invalid.body.filemask).toEqual(['File mask does not contain * as a language placeholder!']);
      expect(invalid.body.file_format).toEqual(['"no-such-format" is not a valid choice.']);
      const language = await app.http().post('/api/projects/hello/components/').set(...admin).send({ ...body(), source_language: 'xx-none' }).expect(400);
      expect(language.body).toEqual({ source_language: { code: ['Language with this language code was not found.'] } });
      const duplicate = await app.http().post('/api/projects/hello/components/').set(...admin).send({ ...body(), slug: 'gamma', name: 'Gamma' }).expect(400);
      expect(duplicate.body).toEqual({ slug: ['Component with this URL slug already exists in the project.'] });
      const duplicateName = await app.http().post('/api/projects/hello/components/').set(...admin).send({ ...body(), name: 'Gamma' }).expect(400);
      expect(duplicateName.body).toEqual({ name: ['Component with this name already exists in the project.'] });
      const count = await app.http().get('/api/projects/hello/components/').set(...admin).expect(200);
      expect(count.body.count).toBe(2);
    });

    it('validates against the repository before storing anything: 400 with the field, no row, no task, no directory', async () => {
      const refused = (override: Record<string, unknown>) =>
        app.http().post('/api/projects/hello/components/').set(...admin).send({ ...body(), name: 'Refused', slug: 'refused', ...override }).expect(400);
      const cases: Array<[Record<string, unknown>, Record<string, unknown>]> = [
        [{ filemask: 'locale/*/app.json' }, { filemask: ['The file mask did not match any files.'] }],
        [{ language_regex: '^fr$' }, { filemask: ['The file mask did not match any files.'] }],
        [{ template: 'sources/missing.json' }, { template: ['File does not exist.'] }],
        [{ new_base: 'sources/new.json' }, { new_base: ['File does not exist.'] }],
        [{ enforced_checks: ['same', 'no_such_check'] }, { enforced_checks: ['Unsupported enforced check: no_such_check'] }],
        [{ branch: 'no-such-branch' }, { repo: [expect.stringMatching(/^Could not update repository: git clone exited with code 128: .*no-such-branch/s)] }],
        [{ repo: `${sandbox.upstream}-missing` }, { repo: [expect.stringMatching(/^Could not update repository: git clone exited with code 128: /)] }],
      ];
      for (const [override, errors] of cases) {
        const response = await refused(override);
        expectApiHeaders(response, 'GET, POST, HEAD, OPTIONS');
        expect(response.body).toEqual(errors);
        // Server paths never reach the answer.
        expect(JSON.stringify(response.body)).not.toContain(app.dataDir);
        expect(JSON.stringify(response.body)).not.toContain(sandbox.upstream);
      }
      const count = await app.http().get('/api/projects/hello/components/').set(...admin).expect(200);
      expect(count.body.count).toBe(2);
      expect(await db.query(`SELECT id FROM components WHERE slug = 'refused'`)).toEqual([]);
      expect(await db.query(`SELECT id FROM tasks WHERE kind = 'component-import'`)).toEqual([]);
      await expect(stat(path.join(app.dataDir, 'vcs', 'hello', 'refused'))).rejects.toThrow();
      // The probe clones are gone as well.
      expect(await readdir(path.join(app.dataDir, 'probes'))).toEqual([]);
    });

    it('creates the component (201 + Location), imports it in the background and clears task_url', async () => {
      const response = await app
        .http()
        .post('/api/projects/hello/components/')
        .set(...admin)
        .send({ ...body(), source_language: { code: 'en' }, language_regex: '^(cs|en)$', unknown_field: 'ignored' })
        .expect(201);
      expectApiHeaders(response, 'GET, POST, HEAD, OPTIONS');
      expect(Object.keys(response.body)).toEqual(COMPONENT_KEYS);
      expect(response.headers['location']).toBe(apiLink(origin, '/api/components/hello/app/'));
      expect(response.body).toMatchObject({
        name: 'App',
        slug: 'app',
        repo: sandbox.upstream,
        branch: '',
        file_format: 'json-nested',
        template: 'sources/app.json',
        manage_units: true,
        edit_template: true,
        new_lang: 'add',
        merge_style: 'rebase',
        priority: 100,
        commit_pending_age: 24,
        language_regex: '^(cs|en)$',
        glossary_color: 'silver',
        commit_message: DEFAULT_COMMIT_MESSAGE,
        pull_message: DEFAULT_PULL_MESSAGE,
      });
      expect(response.body.project.slug).toBe('hello');
      expect(response.body.task_url).toMatch(new RegExp(`^${origin}/api/tasks/[0-9a-f-]{36}/\\?format=api$`));

      const task = await waitForTask(response.body.task_url);
      expect(task).toMatchObject({ completed: true, progress: 100 });

      const detail = await app.http().get('/api/components/hello/app/').expect(200);
      expect(detail.body.task_url).toBeNull();
      expect(detail.body.branch).toBe('main');
      const translations: Array<{ code: string; total: number; translated: number }> = await db.query(
        `SELECT l.code, t.total, t.translated FROM translations t JOIN languages l ON l.id = t.language_id
          WHERE t.component_id = $1 ORDER BY l.code`,
        [detail.body.id],
      );
      expect(translations).toEqual([
        { code: 'cs', total: 3, translated: 2 },
        { code: 'en', total: 3, translated: 3 },
      ]);
      const stats = await app.http().get('/api/projects/hello/statistics/').expect(200);
      expect(stats.body).toMatchObject({ total: 6, translated: 5, translated_percent: 83.3 });
      // The change list follows the import per string (issue 12): 3 source strings, 3 strings in cs, a 0 per file.
      const history = await app.http().get('/api/components/hello/app/changes/?page_size=100').expect(200);
      const imported = (history.body.results as Array<{ action: number; action_name: string; unit: string | null; translation: string }>)
        .filter((c) => [0, 13, 44].includes(c.action))
        .map((c) => [c.action, c.action_name, c.unit === null, new URL(c.translation).pathname]);
      const en = '/api/translations/hello/app/en/';
      const cs = '/api/translations/hello/app/cs/';
      expect(imported).toEqual([
        ...Array.from({ length: 3 }, () => [13, 'New source string', false, en]),
        [0, 'Resource update', true, en],
        ...Array.from({ length: 3 }, () => [44, 'New string to translate', false, cs]),
        [0, 'Resource update', true, cs],
      ]);
    });

    it('re-imports when a setting of the scan changes', async () => {
      const response = await app.http().patch('/api/components/hello/app/').set(...admin).send({ language_regex: '^[^.]+$' }).expect(200);
      expect(response.body.task_url).toMatch(/\/api\/tasks\//);
      await waitForTask(response.body.task_url);
      expect((await app.http().get('/api/components/hello/app/').expect(200)).body.task_url).toBeNull();
      const stats = await app.http().get('/api/projects/hello/statistics/').expect(200);
      expect(stats.body).toMatchObject({ total: 9, translated: 6, translated_percent: 66.6 });
    });

    it('validates a PATCH of a repository setting against the repository, and changes nothing when refused', async () => {
      const before = (await app.http().get('/api/components/hello/app/').set(...admin).expect(200)).body;
      const filemask = await app.http().patch('/api/components/hello/app/').set(...admin).send({ filemask: 'locale/*.json', name: 'Renamed' }).expect(400);
      expect(filemask.body).toEqual({ filemask: ['The file mask did not match any files.'] });
      const template = await app.http().patch('/api/components/hello/app/').set(...admin).send({ template: 'sources/gone.json' }).expect(400);
      expect(template.body).toEqual({ template: ['File does not exist.'] });
      const after = (await app.http().get('/api/components/hello/app/').set(...admin).expect(200)).body;
      expect(after).toEqual(before);
      // A setting that names existing files is accepted.
      const accepted = await app.http().patch('/api/components/hello/app/').set(...admin).send({ new_base: 'sources/app.json' }).expect(200);
      expect(accepted.body.new_base).toBe('sources/app.json');
    });

    it('moves the working copy along with a renamed slug', async () => {
      const before = path.join(app.dataDir, 'vcs', 'hello', 'app');
      expect((await stat(before)).isDirectory()).toBe(true);
      const response = await app.http().patch('/api/components/hello/app/').set(...admin).send({ slug: 'application' }).expect(200);
      expect(response.body.url).toBe(apiLink(origin, '/api/components/hello/application/'));
      expect(response.body.task_url).toBeNull();
      expect((await stat(path.join(app.dataDir, 'vcs', 'hello', 'application'))).isDirectory()).toBe(true);
      await expect(stat(before)).rejects.toThrow();
      await app.http().get('/api/components/hello/app/').expect(404);
    });
  });

  describe('removal', () => {
    it('lets only superusers delete; 204 and a background task removes the rows and the working copy', async () => {
      await app.http().delete('/api/components/hello/application/').expect(401);
      const denied = await app.http().delete('/api/components/hello/application/').set(...authHeader(userToken)).expect(403);
      expect(denied.body).toEqual({ detail: 'Can not delete component' });
      const directory = path.join(app.dataDir, 'vcs', 'hello', 'application');
      await mkdir(directory, { recursive: true });
      await writeFile(path.join(directory, 'marker'), 'x');
      const response = await app.http().delete('/api/components/hello/application/').set(...admin).expect(204);
      expect(response.text).toBe('');
      expect(response.headers['allow']).toBe(DETAIL_ALLOW);
      // weblate-api.md §10.4: the removal is a task; the component may stay visible until it has run.
      const [task] = await db.query(`SELECT id FROM tasks WHERE kind = 'component-removal'`);
      const deadline = Date.now() + PATIENCE_MS;
      while ((await app.http().get(`/api/tasks/${task.id}/`).expect(200)).body.completed !== true) {
        if (Date.now() > deadline) throw new Error('Removal task did not finish');
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      expect((await app.http().get(`/api/tasks/${task.id}/`).expect(200)).body).toMatchObject({ completed: true, progress: 100, result: { result: true } });
      await app.http().get('/api/components/hello/application/').expect(404);
      await expect(stat(directory)).rejects.toThrow();
      const [{ translations }] = await db.query(
        'SELECT count(*)::int AS translations FROM translations t LEFT JOIN components c ON c.id = t.component_id WHERE c.id IS NULL',
      );
      expect(translations).toBe(0);
      const [removal] = await db.query('SELECT action, target, project_id, component_id FROM changes WHERE action = 38');
      expect(removal).toEqual({ action: 38, target: 'application', project_id: hello.id, component_id: null });
      await app.http().delete('/api/components/hello/application/').set(...admin).expect(404);
    });
  });

  describe('server settings', () => {
    // Last in the file: on the embedded test database a second app re-creates the one shared schema.
    it('refuses local repositories unless the server allows them', async () => {
      const strict = await createTestApp({ ALLOW_LOCAL_REPOSITORIES: 'false' });
      try {
        const strictDb = strict.glossa.app.get(DataSource);
        await createProject(strictDb, { name: 'Strict', slug: 'strict' });
        const response = await strict
          .http()
          .post('/api/projects/strict/components/')
          .set(...admin)
          .send({ name: 'App', slug: 'app', repo: sandbox.upstream, filemask: 'translations/*/app.json', file_format: 'json-nested' })
          .expect(400);
        expect(response.body).toEqual({ repo: ['Local repositories are not allowed on this server (ALLOW_LOCAL_REPOSITORIES).'] });
      } finally {
        await strict.close();
      }
    });
  });
});
