import { mkdir, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { DataSource } from 'typeorm';
import { createGitSandbox, type GitSandbox } from '../../src/vcs/testing/git-sandbox';
import { authHeader, expectApiHeaders } from '../support/contract';
import { createProject } from '../support/factories';
import { waitForTask } from '../support/tasks';
import { createTestApp, TEST_ADMIN_TOKEN, TestApp } from '../support/test-app';
import { createUserWithToken } from '../support/users-factories';

// Component alerts for bad files (issue 11 item 6; Glossa's own GET …/alerts/, Weblate 4.18 having no alerts
// API): a translation file with a syntax error or a wrong encoding fails its import, the other files import,
// and the component's ParseError alert names each file with line and message; it clears once the files
// import cleanly again.

const ALERTS = '/api/components/alp/app/alerts/';
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

describe('component alerts for files that fail to import', () => {
  let app: TestApp;
  let db: DataSource;
  let sandbox: GitSandbox;
  let userToken: string;
  const admin = authHeader(TEST_ADMIN_TOKEN);

  const operation = async (name: string): Promise<unknown> =>
    (await app.http().post('/api/components/alp/app/repository/').set(...admin).send({ operation: name }).expect(200)).body;
  const alertChanges = async (): Promise<number> => (await app.http().get('/api/components/alp/app/changes/?action=47').expect(200)).body.count;
  const translated = async (language: string): Promise<unknown> =>
    (await app.http().get(`/api/translations/alp/app/${language}/`).set(...admin)).status;

  beforeAll(async () => {
    app = await createTestApp();
    db = app.glossa.app.get(DataSource);
    userToken = (await createUserWithToken(db, 'watcher')).token;
    sandbox = await createGitSandbox({
      'sources/app.json': '{"hello": "Hello", "bye": "Bye"}\n',
      // A value missing after "bye": the parser meets the `}` of line 4.
      'translations/cs/app.json': '{\n  "hello": "Ahoj",\n  "bye": \n}\n',
      'translations/fr/app.json': '{"hello": "Bonjour"}\n',
    });
    // Not UTF-8: "Hällo" with an ISO-8859-1 ä, committed as raw bytes.
    const seed = path.join(sandbox.root, 'seed');
    await mkdir(path.join(seed, 'translations/de'), { recursive: true });
    await writeFile(path.join(seed, 'translations/de/app.json'), Buffer.from('{"hello": "H\xe4llo"}\n', 'latin1'));
    await sandbox.git(seed, ['add', '--all']);
    await sandbox.git(seed, ['commit', '--quiet', '--message', 'German in the wrong encoding']);
    await sandbox.git(seed, ['push', '--quiet', 'origin', 'main']);
    await createProject(db, { name: 'Alerts', slug: 'alp' });
    const created = await app
      .http()
      .post('/api/projects/alp/components/')
      .set(...admin)
      .send({ name: 'App', slug: 'app', repo: sandbox.upstream, filemask: 'translations/*/app.json', template: 'sources/app.json', file_format: 'json' })
      .expect(201);
    await waitForTask(app, created.body.task_url);
  });

  afterAll(async () => {
    await app?.close();
    await sandbox?.cleanup();
  });

  it('lists a ParseError naming each bad file with line and message; the good files import', async () => {
    const response = await app.http().get(ALERTS).expect(200);
    expectApiHeaders(response, 'GET, HEAD, OPTIONS');
    expect(Object.keys(response.body)).toEqual(['count', 'next', 'previous', 'results']);
    expect(response.body.count).toBe(1);
    const [alert] = response.body.results;
    expect(Object.keys(alert)).toEqual(['name', 'details', 'timestamp', 'updated']);
    expect(alert.name).toBe('ParseError');
    expect(alert.timestamp).toMatch(TIMESTAMP);
    const occurrences = [...alert.details.occurrences].sort((a: { filename: string }, b: { filename: string }) => a.filename.localeCompare(b.filename));
    expect(occurrences).toEqual([
      { filename: 'translations/cs/app.json', line: 4, error: 'line 4: invalid JSON: expected a value, found "}" (column 1)' },
      { filename: 'translations/de/app.json', line: 1, error: 'line 1: the file is not valid UTF-8' },
    ]);
    expect(await translated('fr')).toBe(200);
    expect(await alertChanges()).toBe(1);
  });

  it('is visible to whoever sees the component, and 404 to whoever does not', async () => {
    expect((await app.http().get(ALERTS).set(...authHeader(userToken)).expect(200)).body.count).toBe(1);
    await db.query("UPDATE projects SET access_control = 100 WHERE slug = 'alp'");
    try {
      expect((await app.http().get(ALERTS).set(...authHeader(userToken)).expect(404)).body).toEqual({ detail: 'Not found.' });
      await app.http().get(ALERTS).expect(404);
      expect((await app.http().get(ALERTS).set(...admin).expect(200)).body.count).toBe(1);
    } finally {
      await db.query("UPDATE projects SET access_control = 0 WHERE slug = 'alp'");
    }
    await app.http().post(ALERTS).set(...admin).send({}).expect(405);
  });

  it('stays while the files are still bad, without a second "New alert"', async () => {
    const before = (await app.http().get(ALERTS).expect(200)).body.results[0];
    expect(await operation('file-scan')).toEqual({ result: true });
    const after = (await app.http().get(ALERTS).expect(200)).body.results[0];
    expect(after.timestamp).toBe(before.timestamp);
    expect(after.details).toEqual(before.details);
    expect(await alertChanges()).toBe(1);
  });

  it('narrows to the files still bad, and clears once every file imports cleanly', async () => {
    await sandbox.commitUpstream({ 'translations/cs/app.json': '{\n  "hello": "Ahoj",\n  "bye": "Nashle"\n}\n' }, 'Fix Czech');
    expect(await operation('pull')).toEqual({ result: true });
    const narrowed = (await app.http().get(ALERTS).expect(200)).body.results[0];
    expect(narrowed.details.occurrences.map((occurrence: { filename: string }) => occurrence.filename)).toEqual(['translations/de/app.json']);
    const cs = await db.query(
      `SELECT u.context, u.target FROM units u JOIN translations t ON t.id = u.translation_id JOIN languages l ON l.id = t.language_id
        WHERE l.code = 'cs' ORDER BY u.position`,
    );
    expect(cs).toEqual([
      { context: 'hello', target: 'Ahoj' },
      { context: 'bye', target: 'Nashle' },
    ]);
    await sandbox.commitUpstream({ 'translations/de/app.json': '{"hello": "Hällo"}\n' }, 'Fix German');
    expect(await operation('pull')).toEqual({ result: true });
    expect((await app.http().get(ALERTS).expect(200)).body).toEqual({ count: 0, next: null, previous: null, results: [] });
    expect(await translated('de')).toBe(200);
  });

  it('answers 404 for an unknown component', async () => {
    await app.http().get('/api/components/alp/nope/alerts/').expect(404);
  });
});
