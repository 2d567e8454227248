import { DataSource } from 'typeorm';
import { createGitSandbox, type GitSandbox } from '../../src/vcs/testing/git-sandbox';
import { authHeader } from '../support/contract';
import { createProject } from '../support/factories';
import { waitForTask } from '../support/tasks';
import { createTestApp, TEST_ADMIN_TOKEN, TestApp } from '../support/test-app';

// The DuplicateString component alert (issue 11; Weblate's alert of that name): a file with the same key twice
// (monolingual) or the same source and context twice (bilingual) imports its first entry, and the component's
// alert lists each skipped entry; it stays while the file is unchanged and clears once the file is fixed.

interface Alert {
  name: string;
  details: { occurrences: Array<Record<string, unknown>> };
  timestamp: string;
}

const POT = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\nmsgid "Hello"\nmsgstr ""\n\nmsgid "Bye"\nmsgstr ""\n';
const CS_PO = 'msgid ""\nmsgstr ""\n"Language: cs\\n"\n"Content-Type: text/plain; charset=UTF-8\\n"\n\nmsgid "Hello"\nmsgstr "Ahoj"\n\nmsgid "Bye"\nmsgstr "Nashle"\n\nmsgid "Hello"\nmsgstr "Nazdar"\n';

describe('DuplicateString component alert', () => {
  let app: TestApp;
  let db: DataSource;
  let sandbox: GitSandbox;
  const admin = authHeader(TEST_ADMIN_TOKEN);

  const alerts = async (component: string): Promise<Alert[]> => (await app.http().get(`/api/components/dup/${component}/alerts/`).expect(200)).body.results;
  const pull = async (component: string): Promise<void> => {
    expect((await app.http().post(`/api/components/dup/${component}/repository/`).set(...admin).send({ operation: 'pull' }).expect(200)).body).toEqual({ result: true });
  };
  const unitId = async (component: string, language: string, context: string, source: string): Promise<number> => {
    const [row] = await db.query(
      `SELECT u.id FROM units u JOIN translations t ON t.id = u.translation_id JOIN languages l ON l.id = t.language_id
         JOIN components c ON c.id = t.component_id WHERE c.slug = $1 AND l.code = $2 AND u.context = $3 AND u.source = $4`,
      [component, language, context, source],
    );
    return Number(row.id);
  };

  beforeAll(async () => {
    app = await createTestApp();
    db = app.glossa.app.get(DataSource);
    sandbox = await createGitSandbox({
      'json/en.json': '{"a": {"b": "Bee"}, "c": "Sea"}\n',
      // `a.b` twice: the nested key and the dotted one (languages-formats-hashing.md §2.1). A key repeated
      // literally is not a duplicate: as Python's json.loads, its last value wins.
      'json/cs.json': '{\n  "a": {"b": "Bé"},\n  "a.b": "Bí",\n  "c": "Moře"\n}\n',
      'json/de.json': '{"c": "Meer"}\n',
      'po/app.pot': POT,
      'po/cs.po': CS_PO,
    });
    await createProject(db, { name: 'Duplicates', slug: 'dup' });
    const create = async (body: Record<string, unknown>): Promise<void> => {
      const created = await app.http().post('/api/projects/dup/components/').set(...admin).send({ repo: sandbox.upstream, ...body }).expect(201);
      await waitForTask(app, created.body.task_url);
    };
    await create({ name: 'Json', slug: 'json', filemask: 'json/*.json', template: 'json/en.json', file_format: 'json' });
    await create({ name: 'Po', slug: 'po', filemask: 'po/*.po', new_base: 'po/app.pot', file_format: 'po' });
  });

  afterAll(async () => {
    await app?.close();
    await sandbox?.cleanup();
  });

  it('keeps the first entry of a repeated context and lists the repeat (monolingual)', async () => {
    const [alert, ...others] = await alerts('json');
    expect(others).toEqual([]);
    expect(alert.name).toBe('DuplicateString');
    expect(alert.details).toEqual({
      occurrences: [{ language_code: 'cs', source: 'Bee', unit_pk: await unitId('json', 'cs', 'a.b', 'Bee'), filename: 'json/cs.json', context: 'a.b' }],
    });
    const units = (await app.http().get('/api/translations/dup/json/cs/units/').expect(200)).body.results;
    expect(units.map((unit: { context: string; target: string[] }) => [unit.context, unit.target])).toEqual([
      ['a.b', ['Bé']],
      ['c', ['Moře']],
    ]);
    const raised = (await app.http().get('/api/components/dup/json/changes/?action=47').expect(200)).body.results;
    expect(raised).toHaveLength(1);
  });

  it('keeps the first entry of a repeated source and context (bilingual)', async () => {
    const [alert, ...others] = await alerts('po');
    expect(others).toEqual([]);
    expect(alert.name).toBe('DuplicateString');
    // The repeat's context is empty, as are the other entries': the kept unit is not named by it alone.
    expect(alert.details).toEqual({ occurrences: [{ language_code: 'cs', source: '', unit_pk: null, filename: 'po/cs.po', context: '' }] });
    const units = (await app.http().get('/api/translations/dup/po/cs/units/').expect(200)).body.results;
    expect(units.map((unit: { source: string[]; target: string[] }) => [unit.source, unit.target])).toEqual([
      [['Hello'], ['Ahoj']],
      [['Bye'], ['Nashle']],
    ]);
  });

  it('stays while the file is unchanged, through scans that do not read it, without a second "New alert"', async () => {
    const before = await alerts('json');
    await sandbox.commitUpstream({ 'json/de.json': '{"a": {"b": "Bi"}, "c": "Meer"}\n' }, 'German a.b');
    await pull('json');
    // Still seen (`updated` moves on), still the same alert with the same occurrences.
    const after = await alerts('json');
    expect(after.map(({ name, details, timestamp }) => ({ name, details, timestamp }))).toEqual(before.map(({ name, details, timestamp }) => ({ name, details, timestamp })));
    expect((await app.http().get('/api/components/dup/json/changes/?action=47').expect(200)).body.count).toBe(1);
  });

  it('clears once the files are fixed', async () => {
    await sandbox.commitUpstream(
      { 'json/cs.json': '{\n  "a": {"b": "Bé"},\n  "c": "Moře"\n}\n', 'po/cs.po': CS_PO.replace('\nmsgid "Hello"\nmsgstr "Nazdar"\n', '') },
      'Drop the duplicates',
    );
    await pull('json');
    await pull('po');
    expect(await alerts('json')).toEqual([]);
    expect(await alerts('po')).toEqual([]);
  });
});
