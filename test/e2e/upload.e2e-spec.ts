import { DataSource } from 'typeorm';
import { createGitSandbox, type GitSandbox } from '../../src/vcs/testing/git-sandbox';
import { authHeader, expectApiHeaders } from '../support/contract';
import { createProject } from '../support/factories';
import { createTestApp, TEST_ADMIN_TOKEN, TestApp } from '../support/test-app';
import { createUserWithToken } from '../support/users-factories';
import { PATIENCE_MS } from '../support/wait';

// POST/PUT …/file/ (weblate-api.md §10.8, §8.12; wlc-client.md §6.4): multipart uploads merged into the
// translation, answered with Weblate's six counters in Weblate's order.

const URL_CS = '/api/translations/up/app/cs/file/';
const COUNT_KEYS = ['not_found', 'skipped', 'accepted', 'total', 'result', 'count'];

describe('translation file upload', () => {
  let app: TestApp;
  let db: DataSource;
  let sandbox: GitSandbox;
  let userToken: string;
  const admin = authHeader(TEST_ADMIN_TOKEN);

  const upload = (content: string, fields: Record<string, string> = {}, method: 'post' | 'put' = 'post') => {
    let request = app.http()[method](URL_CS).set(...admin);
    for (const [name, value] of Object.entries(fields)) request = request.field(name, value);
    return request.attach('file', Buffer.from(content), 'file');
  };
  const unit = async (context: string): Promise<{ target: string; state: number; pending: boolean }> =>
    (
      await db.query(
        `SELECT u.target, u.state, u.pending FROM units u JOIN translations t ON t.id = u.translation_id JOIN languages l ON l.id = t.language_id
          WHERE l.code = 'cs' AND u.context = $1`,
        [context],
      )
    )[0];

  beforeAll(async () => {
    app = await createTestApp();
    db = app.glossa.app.get(DataSource);
    userToken = (await createUserWithToken(db, 'plain')).token;
    sandbox = await createGitSandbox({
      'sources/app.json': '{"hello": "Hello", "bye": "Bye", "yes": "Yes", "no": "No"}\n',
      'translations/cs/app.json': '{"hello": "Ahoj"}\n',
    });
    await createProject(db, { name: 'Up', slug: 'up', translationReview: true });
    const created = await app
      .http()
      .post('/api/projects/up/components/')
      .set(...admin)
      .send({ name: 'App', slug: 'app', repo: sandbox.upstream, filemask: 'translations/*/app.json', template: 'sources/app.json', file_format: 'json-nested' })
      .expect(201);
    const deadline = Date.now() + PATIENCE_MS;
    for (;;) {
      const task = await app.http().get(new URL(created.body.task_url).pathname).expect(200);
      if (task.body.completed) break;
      if (Date.now() > deadline) throw new Error('Import did not finish');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  });

  afterAll(async () => {
    await app?.close();
    await sandbox?.cleanup();
  });

  it('declares GET, POST and PUT on the file route', async () => {
    const response = await app.http().options(URL_CS).expect(200);
    expect(response.headers.allow).toBe('GET, POST, PUT, HEAD, OPTIONS');
  });

  it('applies new strings, counts unknown and skipped ones, records 9 and marks them pending', async () => {
    const response = await upload('{"hello": "Nazdar", "bye": "Nashle", "extra": "X", "yes": ""}').expect(200);
    expectApiHeaders(response, 'GET, POST, PUT, HEAD, OPTIONS');
    expect(Object.keys(response.body)).toEqual(COUNT_KEYS);
    // Read relative to the template (formats.md §5): hello is translated already (conflicts "" keeps it), yes is
    // empty in the file (untranslated entries take no part, issue 12), extra is not in the template (ignored);
    // total is the template's 4 strings.
    expect(response.body).toEqual({ not_found: 0, skipped: 1, accepted: 1, total: 4, result: true, count: 4 });
    expect(await unit('bye')).toEqual({ target: 'Nashle', state: 20, pending: true });
    expect(await unit('hello')).toEqual({ target: 'Ahoj', state: 20, pending: false });
    const changes = await app.http().get('/api/translations/up/app/cs/changes/?action=9').expect(200);
    expect(changes.body.count).toBe(1);
    expect(changes.body.results[0]).toMatchObject({ action: 9, action_name: 'Translation uploaded', target: 'Nashle' });
  });

  it('uploading the same file again accepts nothing (result false)', async () => {
    const response = await upload('{"hello": "Nazdar", "bye": "Nashle"}', { conflicts: 'ignore' }).expect(200);
    expect(response.body).toEqual({ not_found: 0, skipped: 2, accepted: 0, total: 4, result: false, count: 4 });
  });

  it('overwrites translated strings with replace-translated (or wlc’s overwrite=yes), approves with method=approve', async () => {
    expect((await upload('{"hello": "Nazdar"}', { conflicts: 'replace-translated' }).expect(200)).body).toMatchObject({ accepted: 1 });
    expect(await unit('hello')).toMatchObject({ target: 'Nazdar', state: 20, pending: true });
    expect((await upload('{"hello": "Čau"}', { overwrite: 'yes' }, 'put').expect(200)).body).toMatchObject({ accepted: 1 });
    expect((await upload('{"no": "Ne"}', { method: 'approve' }).expect(200)).body).toMatchObject({ accepted: 1 });
    expect(await unit('no')).toMatchObject({ target: 'Ne', state: 30 });
    // Approved strings are kept unless replace-approved.
    expect((await upload('{"no": "Nein"}', { conflicts: 'replace-translated' }).expect(200)).body).toMatchObject({ accepted: 0, skipped: 1 });
    expect((await upload('{"no": "Nee"}', { conflicts: 'replace-approved', method: 'fuzzy' }).expect(200)).body).toMatchObject({ accepted: 1 });
    expect(await unit('no')).toMatchObject({ target: 'Nee', state: 10 });
  });

  it('replaces the whole translation with method=replace', async () => {
    const response = await upload('{"hello": "Ahoj", "yes": "Ano"}\n', { method: 'replace' }).expect(200);
    // Weblate's handle_replace: accepted = the translation's strings after the re-read, total = the strings of
    // the file read against the template (Weblate's load_store passes the template: its 4 strings).
    expect(response.body).toEqual({ not_found: 0, skipped: 0, accepted: 4, total: 4, result: true, count: 4 });
    expect(await unit('bye')).toMatchObject({ target: '', state: 0 });
    expect(await unit('hello')).toEqual({ target: 'Ahoj', state: 20, pending: false });
    // The upload is the file now, byte for byte.
    expect((await app.http().get('/api/translations/up/app/cs/file/').set(...admin).expect(200)).text).toBe('{"hello": "Ahoj", "yes": "Ano"}\n');
    expect((await app.http().get('/api/translations/up/app/cs/changes/?action=54').expect(200)).body.count).toBe(1);
    const stats = await app.http().get('/api/translations/up/app/cs/statistics/').expect(200);
    expect(stats.body.translated).toBe(2);
  });

  it('validates the request (400) and the caller (401, 403), and refuses a locked component', async () => {
    const anonymous = await app.http().post(URL_CS).attach('file', Buffer.from('{}'), 'file').expect(401);
    expect(anonymous.body).toEqual({ detail: 'Authentication credentials were not provided.' });
    // Issue 3: signed-in users may upload on a public project (built-in Users team, weblate-api.md §2.5);
    // on a protected project an ordinary user without a team gets the plain 403.
    const projectSlug = URL_CS.split('/')[3];
    await db.query('UPDATE projects SET access_control = 1 WHERE slug = $1', [projectSlug]);
    const denied = await app.http().post(URL_CS).set(...authHeader(userToken)).attach('file', Buffer.from('{}'), 'file').expect(403);
    await db.query('UPDATE projects SET access_control = 0 WHERE slug = $1', [projectSlug]);
    expect(denied.body).toEqual({ detail: 'You do not have permission to perform this action.' });
    expect((await app.http().post(URL_CS).set(...admin).send({ method: 'translate' }).expect(400)).body).toEqual({ file: ['No file was submitted.'] });
    expect((await upload('{}', { method: 'nope' }).expect(400)).body).toEqual({ method: ['"nope" is not a valid choice.'] });
    expect((await upload('{}', { conflicts: 'x' }).expect(400)).body).toEqual({ conflicts: ['"x" is not a valid choice.'] });
    // method=suggest stores suggestions (issue 13; test/e2e/suggestions.e2e-spec.ts): an empty file suggests nothing.
    expect((await upload('{}', { method: 'suggest' }).expect(200)).body).toEqual({ not_found: 0, skipped: 0, accepted: 0, total: 0, result: false, count: 0 });
    expect((await upload('{broken').expect(400)).body.file[0]).toMatch(/^Failed to parse uploaded file/);
    await app.http().post('/api/translations/up/app/xx/file/').set(...admin).attach('file', Buffer.from('{}'), 'file').expect(404);
    await app.http().post('/api/components/up/app/lock/').set(...admin).send({ lock: true }).expect(200);
    try {
      expect((await upload('{"bye": "Nashle"}').expect(403)).body).toEqual({ detail: 'This translation is currently locked.' });
    } finally {
      await app.http().post('/api/components/up/app/lock/').set(...admin).send({ lock: false }).expect(200);
    }
  });

  it('commits uploaded strings to the repository file', async () => {
    const commit = await app.http().post('/api/translations/up/app/cs/repository/').set(...admin).send({ operation: 'commit' }).expect(200);
    expect(commit.body).toEqual({ result: true });
    const file = await app.http().get(URL_CS).expect(200);
    // Untranslated strings the file never had stay out of it; the file's own layout is kept (issue 11 item 3,
    // where Weblate would re-indent the whole file).
    expect(file.text).toBe('{"hello": "Ahoj", "yes": "Ano"}\n');
  });
});
