import { symlink } from 'node:fs/promises';
import * as path from 'node:path';
import { DataSource } from 'typeorm';
import { createGitSandbox, type GitSandbox } from '../../src/vcs/testing/git-sandbox';
import { authHeader } from '../support/contract';
import { createProject } from '../support/factories';
import { waitForTask } from '../support/tasks';
import { createTestApp, TEST_ADMIN_TOKEN, type TestApp } from '../support/test-app';

// Issue 10, items 9 and 10: repository files are bounded by MAX_FILE_BYTES, MAX_UNITS_PER_FILE and
// MAX_STRING_LENGTH (small here to keep the data small), parsed in the parse worker, and a bad translation
// file is skipped and reported in the task log (naming the file and the problem) while the others import.
// Only the template is indispensable: a template past a limit fails the import with that error.

const TEMPLATE = '{"app": {"title": "Title", "hello": "Hello", "bye": "Bye"}, "menu": ["Open", "Close"]}\n';
// Within every limit but the size.
const TOO_BIG = `{"app": {"title": "Titulo"}}${' '.repeat(5000)}`;
const keys = (count: number): string => JSON.stringify(Object.fromEntries(Array.from({ length: count }, (_, i) => [`key${i}`, `Value ${i}`])));

describe('repository content limits and bad files (issue 10, items 9 and 10)', () => {
  let app: TestApp;
  let db: DataSource;
  const sandboxes: GitSandbox[] = [];
  const admin = authHeader(TEST_ADMIN_TOKEN);

  beforeAll(async () => {
    app = await createTestApp({ MAX_FILE_BYTES: '4096', MAX_UNITS_PER_FILE: '20', MAX_STRING_LENGTH: '100' });
    db = app.glossa.app.get(DataSource);
    await createProject(db, { name: 'Imports', slug: 'imports' });
  });

  afterAll(async () => {
    await app?.close();
    for (const sandbox of sandboxes) await sandbox.cleanup();
  });

  async function sandbox(files: Record<string, string>): Promise<GitSandbox> {
    const created = await createGitSandbox(files);
    sandboxes.push(created);
    return created;
  }

  /** Creates the component through the API and waits for its import task. */
  async function importComponent(slug: string, repo: GitSandbox): Promise<{ result: unknown; log: string }> {
    const created = await app
      .http()
      .post('/api/projects/imports/components/')
      .set(...admin)
      .send({ name: slug, slug, repo: repo.upstream, filemask: 'translations/*/app.json', template: 'sources/app.json', file_format: 'json-nested' })
      .expect(201);
    return (await waitForTask(app, created.body.task_url)) as { result: unknown; log: string };
  }

  const translationsOf = async (slug: string): Promise<Array<{ code: string; units: number }>> =>
    db.query(
      `SELECT l.code, (SELECT count(*)::int FROM units u WHERE u.translation_id = t.id) AS units
         FROM translations t JOIN languages l ON l.id = t.language_id JOIN components c ON c.id = t.component_id
        WHERE c.slug = $1 ORDER BY l.code`,
      [slug],
    );

  it('imports the good translation files and reports each bad one by name and problem', async () => {
    const repo = await sandbox({
      'sources/app.json': TEMPLATE,
      'translations/cs/app.json': '{"app": {"title": "Název", "hello": "Ahoj"}}\n',
      'translations/pl/app.json': '{"app": {"bye": "Pa"}}\n',
      // 21 strings, one over MAX_UNITS_PER_FILE.
      'translations/de/app.json': keys(21),
      'translations/fr/app.json': `{"app": {"title": "${'x'.repeat(101)}"}}`,
      'translations/it/app.json': '{"app": {"title": ',
      'translations/pt/app.json': TOO_BIG,
      'translations/sk/app.json': '{"app": {"title": "a\\u0000b"}}',
    });
    // A symlink pointing out of the repository (Weblate GHSA-g925-f788-4jh7): refused, not read.
    const seed = path.join(repo.root, 'seed');
    await symlink('/etc/hostname', path.join(seed, 'translations', 'ja-link.json'));
    await repo.commitUpstream({ 'translations/ja/.keep': '' }, 'Prepare ja');
    await symlink('../ja-link.json', path.join(seed, 'translations', 'ja', 'app.json'));
    await repo.commitUpstream({}, 'Link ja');

    const task = await importComponent('mixed', repo);
    expect(task.result).toEqual({ result: true, translations: 3, units: 15 });
    const lines = task.log.split('\n');
    const expectLine = (pattern: RegExp): void => expect({ pattern: String(pattern), found: lines.some((line) => pattern.test(line)) }).toEqual({ pattern: String(pattern), found: true });
    expectLine(/^Could not parse translations\/de\/app\.json: more than 20 strings in one file \(the limit was reached at line 1, column \d+\) \(MAX_UNITS_PER_FILE\)$/);
    expectLine(/^Could not parse translations\/fr\/app\.json: a string longer than 100 characters at line 1, column 19 \(MAX_STRING_LENGTH\)$/);
    expectLine(/^Could not parse translations\/it\/app\.json: line 1: invalid JSON: expected a value, found end of file \(column 19\)$/);
    expect(lines).toContain(`Skipping translations/pt/app.json: the file has ${Buffer.byteLength(TOO_BIG)} bytes, more than the limit of 4096 (MAX_FILE_BYTES)`);
    expectLine(/^Could not parse translations\/sk\/app\.json: line 1: the string "app\.title" contains a NUL character \(\\u0000\), which cannot be stored$/);
    expectLine(/^Skipping translations\/ja\/app\.json: File path "translations\/ja\/app\.json" points outside the repository\.$/);
    // Nothing of the bad files was stored; the good ones are complete.
    expect(await translationsOf('mixed')).toEqual([
      { code: 'cs', units: 5 },
      { code: 'en', units: 5 },
      { code: 'pl', units: 5 },
    ]);
    const parseErrors: Array<{ filename: string }> = await db.query(
      `SELECT ch.details->>'filename' AS filename FROM changes ch JOIN components c ON c.id = ch.component_id
        WHERE c.slug = 'mixed' AND ch.action = 24 ORDER BY 1`,
    );
    expect(parseErrors.map((row) => row.filename)).toEqual(['de', 'fr', 'it', 'ja', 'pt', 'sk'].map((code) => `translations/${code}/app.json`));
  });

  it('skips a file whose values PostgreSQL refuses (here a 401-character file name) instead of aborting', async () => {
    // The longest file mask a component may have (400 characters); with a language code for `*` the file name
    // outgrows translations.filename, and the database refuses it inside that translation's transaction.
    const directories = `${'d'.repeat(120)}/${'e'.repeat(120)}/${'f'.repeat(120)}/`;
    const filemask = `tr/*/${directories}${'n'.repeat(400 - 5 - directories.length - 5)}.json`;
    expect(filemask).toHaveLength(400);
    const filename = filemask.replace('*', 'cs');
    const repo = await sandbox({ 'sources/app.json': TEMPLATE, [filename]: '{"app": {"title": "Název"}}\n' });
    const created = await app
      .http()
      .post('/api/projects/imports/components/')
      .set(...admin)
      .send({ name: 'Long names', slug: 'long-names', repo: repo.upstream, filemask, template: 'sources/app.json', file_format: 'json-nested' })
      .expect(201);
    const task = (await waitForTask(app, created.body.task_url)) as { result: unknown; log: string };
    expect(task.result).toEqual({ result: true, translations: 1, units: 5 });
    expect(task.log.split('\n')).toContain(`Could not store ${filename}: value too long for type character varying(400)`);
    expect(await translationsOf('long-names')).toEqual([{ code: 'en', units: 5 }]);
  });

  it('keeps what a translation had when its file turns bad upstream, and reports it', async () => {
    const repo = await sandbox({ 'sources/app.json': TEMPLATE, 'translations/cs/app.json': '{"app": {"title": "Název"}}\n' });
    await importComponent('turning', repo);
    await repo.commitUpstream({ 'translations/cs/app.json': keys(30) }, 'Too many strings');
    const pulled = await app.http().post('/api/components/imports/turning/repository/').set(...admin).send({ operation: 'pull' }).expect(200);
    expect(pulled.body).toEqual({ result: true });
    const [title] = await db.query(
      `SELECT u.target FROM units u JOIN translations t ON t.id = u.translation_id JOIN languages l ON l.id = t.language_id
         JOIN components c ON c.id = t.component_id WHERE c.slug = 'turning' AND l.code = 'cs' AND u.context = 'app.title'`,
    );
    expect(title).toEqual({ target: 'Název' });
    const [error] = await db.query(
      `SELECT ch.target FROM changes ch JOIN components c ON c.id = ch.component_id WHERE c.slug = 'turning' AND ch.action = 24`,
    );
    expect(error.target).toMatch(/^Could not parse translations\/cs\/app\.json: more than 20 strings in one file .*\(MAX_UNITS_PER_FILE\)$/);
    // Writing an edit back parses the file as well, within the same limits (and in the parse worker).
    const [unit] = await db.query(
      `SELECT u.id FROM units u JOIN translations t ON t.id = u.translation_id JOIN languages l ON l.id = t.language_id
         JOIN components c ON c.id = t.component_id WHERE c.slug = 'turning' AND l.code = 'cs' AND u.context = 'app.hello'`,
    );
    await app.http().patch(`/api/units/${unit.id}/`).set(...admin).send({ target: ['Ahoj'], state: 20 }).expect(200);
    const commit = await app.http().post('/api/components/imports/turning/repository/').set(...admin).send({ operation: 'commit' }).expect(200);
    expect(commit.body).toEqual({ result: false, detail: expect.stringMatching(/^Could not parse translations\/cs\/app\.json: more than 20 strings in one file /) });
  });

  it.each([
    ['too many strings', keys(21), /^Error: Could not parse sources\/app\.json: more than 20 strings in one file \(the limit was reached at line 1, column \d+\) \(MAX_UNITS_PER_FILE\)$/],
    ['a string too long', `{"app": {"title": "${'y'.repeat(101)}"}}`, /^Error: Could not parse sources\/app\.json: a string longer than 100 characters at line 1, column 19 \(MAX_STRING_LENGTH\)$/],
    ['too many bytes', `${TEMPLATE}${'\n'.repeat(5000)}`, /^Error: Could not read sources\/app\.json: the file has \d+ bytes, more than the limit of 4096 \(MAX_FILE_BYTES\)$/],
  ])('fails the import when the template has %s, naming the file and the limit, and stores nothing', async (_, template, error) => {
    const slug = `template-${sandboxes.length}`;
    const repo = await sandbox({ 'sources/app.json': template, 'translations/cs/app.json': '{"app": {"title": "Název"}}\n' });
    const task = await importComponent(slug, repo);
    expect(task.log.split('\n').filter((line) => line.startsWith('Error:'))).toEqual([expect.stringMatching(error)]);
    expect(typeof task.result).toBe('string');
    expect(await translationsOf(slug)).toEqual([]);
  });
});
