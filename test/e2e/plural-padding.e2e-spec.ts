import { DataSource } from 'typeorm';
import { createGitSandbox, type GitSandbox } from '../../src/vcs/testing/git-sandbox';
import { authHeader } from '../support/contract';
import { createProject } from '../support/factories';
import { waitForTask } from '../support/tasks';
import { createTestApp, TEST_ADMIN_TOKEN, TestApp } from '../support/test-app';

// Weblate answers a plural unit's `target` with exactly the translation's number of plural forms
// (Unit.get_target_plurals; formats.md §2.3, weblate-api.md §9.5): a file that gives fewer forms than the
// language has is padded with "", one that gives more is cut, and an empty plural is ["", "", …]. The Czech
// file below declares no Plural-Forms, so its translation uses Czech's three forms.

const POT = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\nmsgid "%d file"\nmsgid_plural "%d files"\nmsgstr[0] ""\nmsgstr[1] ""\n\nmsgid "%d day"\nmsgid_plural "%d days"\nmsgstr[0] ""\nmsgstr[1] ""\n\nmsgid "Hello"\nmsgstr ""\n';
const CS = 'msgid ""\nmsgstr ""\n"Language: cs\\n"\n"Content-Type: text/plain; charset=UTF-8\\n"\n\nmsgid "%d file"\nmsgid_plural "%d files"\nmsgstr[0] "%d soubor"\nmsgstr[1] "%d soubory"\n\nmsgid "%d day"\nmsgid_plural "%d days"\nmsgstr[0] ""\nmsgstr[1] ""\n\nmsgid "Hello"\nmsgstr ""\n';

interface WireUnit {
  id: number;
  source: string[];
  target: string[];
}

describe('plural targets fitted to the translation plural', () => {
  let app: TestApp;
  let db: DataSource;
  let sandbox: GitSandbox;
  const admin = authHeader(TEST_ADMIN_TOKEN);

  const csUnits = async (query = ''): Promise<WireUnit[]> => (await app.http().get(`/api/translations/plp/app/cs/units/?page_size=10${query}`).expect(200)).body.results;

  beforeAll(async () => {
    app = await createTestApp();
    db = app.glossa.app.get(DataSource);
    sandbox = await createGitSandbox({ 'po/app.pot': POT, 'po/cs.po': CS });
    await createProject(db, { name: 'Plurals', slug: 'plp' });
    const created = await app
      .http()
      .post('/api/projects/plp/components/')
      .set(...admin)
      .send({ name: 'App', slug: 'app', repo: sandbox.upstream, filemask: 'po/*.po', new_base: 'po/app.pot', file_format: 'po' })
      .expect(201);
    await waitForTask(app, created.body.task_url);
  });

  afterAll(async () => {
    await app?.close();
    await sandbox?.cleanup();
  });

  it('stores the forms the file gave', async () => {
    const stored = await db.query(
      `SELECT u.target FROM units u JOIN translations t ON t.id = u.translation_id JOIN languages l ON l.id = t.language_id
        WHERE l.code = 'cs' ORDER BY u.position`,
    );
    expect(stored.map((row: { target: string }) => row.target)).toEqual(['%d soubor\x1e\x1e%d soubory', '', '']);
  });

  it('answers three forms in the translation list, padding the short plural and the empty one', async () => {
    const units = await csUnits();
    expect(units.map((unit) => unit.target)).toEqual([['%d soubor', '%d soubory', ''], ['', '', ''], ['']]);
    expect(units.map((unit) => unit.source)).toEqual([['%d file', '%d files'], ['%d day', '%d days'], ['Hello']]);
  });

  it('answers the same through a search, /api/units/ and a single unit', async () => {
    const found = await csUnits('&q=source:file');
    expect(found.map((unit) => unit.target)).toEqual([['%d soubor', '%d soubory', '']]);
    const all = (await app.http().get('/api/units/?q=language:cs AND source:day').expect(200)).body.results as WireUnit[];
    expect(all.map((unit) => unit.target)).toEqual([['', '', '']]);
    const one = (await app.http().get(`/api/units/${found[0].id}/`).expect(200)).body as WireUnit;
    expect(one.target).toEqual(['%d soubor', '%d soubory', '']);
  });

  it('cuts a stored plural with more forms than the translation has', async () => {
    const [unit] = await csUnits('&q=source:file');
    await db.query("UPDATE units SET target = 'a\x1e\x1eb\x1e\x1ec\x1e\x1ed' WHERE id = $1", [unit.id]);
    expect((await app.http().get(`/api/units/${unit.id}/`).expect(200)).body.target).toEqual(['a', 'b', 'c']);
  });

  it('answers a write of an empty plural with every form', async () => {
    const [unit] = await csUnits('&q=source:day');
    const written = await app.http().patch(`/api/units/${unit.id}/`).set(...admin).send({ target: ['', '', ''], state: 0 }).expect(200);
    expect(written.body.target).toEqual(['', '', '']);
    const wrote = await app.http().patch(`/api/units/${unit.id}/`).set(...admin).send({ target: ['%d den', '%d dny', '%d dní'], state: 20 }).expect(200);
    expect(wrote.body.target).toEqual(['%d den', '%d dny', '%d dní']);
  });
});
