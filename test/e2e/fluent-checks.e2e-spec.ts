import { DataSource } from 'typeorm';
import { ProjectAccess } from '../../src/modules/projects/project.entity';
import { createGitSandbox, type GitSandbox } from '../../src/vcs/testing/git-sandbox';
import { authHeader } from '../support/contract';
import { createProject } from '../support/factories';
import { waitForTask } from '../support/tasks';
import { createTestApp, TEST_ADMIN_TOKEN, TestApp } from '../support/test-app';

// Weblate's Fluent source checks (checks-suggestions-search.md §1.6, §2.3): a Fluent component turns on
// fluent-source-syntax and fluent-source-inner-html; they are stored on the source units, so `check:<id>`
// on the source translation and the source units' has_failing_check agree.

const SOURCE = [
  'plain = Nothing to see',
  'markup = Read <b>this</b> and <a href="https://example.org">that</a>',
  'unclosed = Unclosed <b>bold text',
  'unquoted = Read <a href=docs>this</a>',
  'attribute = Fine value',
  '    .title = Unclosed <b>in an attribute, which is not inner HTML',
  '',
].join('\n');
const CS = ['plain = Nic k vidění', 'markup = Čti <b>toto</b> a <a href="https://example.org">tamto</a>', ''].join('\n');

interface UnitBody {
  id: number;
  context: string;
  has_failing_check: boolean;
}

describe('Fluent source checks', () => {
  let app: TestApp;
  let sandbox: GitSandbox;
  const admin = authHeader(TEST_ADMIN_TOKEN);
  const sourceUnits = async (q = ''): Promise<UnitBody[]> =>
    (await app.http().get('/api/translations/flu/app/en/units/').query(q === '' ? {} : { q }).set(...admin).expect(200)).body.results;
  const contexts = (units: UnitBody[]) => units.map((unit) => unit.context).sort();

  beforeAll(async () => {
    app = await createTestApp();
    const db = app.glossa.app.get(DataSource);
    await createProject(db, { name: 'Fluent', slug: 'flu', accessControl: ProjectAccess.Protected });
    sandbox = await createGitSandbox({ 'locales/en/app.ftl': SOURCE, 'locales/cs/app.ftl': CS });
    const created = await app
      .http()
      .post('/api/projects/flu/components/')
      .set(...admin)
      .send({ name: 'app', slug: 'app', repo: sandbox.upstream, filemask: 'locales/*/app.ftl', template: 'locales/en/app.ftl', file_format: 'fluent', manage_units: true })
      .expect(201);
    await waitForTask(app, created.body.task_url, admin);
  });

  afterAll(async () => {
    await app?.close();
    await sandbox?.cleanup();
  });

  it('flags inner HTML that would lose text, on values only; check: and has_failing_check agree', async () => {
    const all = await sourceUnits();
    expect(contexts(all)).toEqual(['attribute', 'attribute.title', 'markup', 'plain', 'unclosed', 'unquoted']);
    expect(contexts(await sourceUnits('check:fluent-source-inner-html'))).toEqual(['unclosed', 'unquoted']);
    // A file that parses has valid patterns only.
    expect(await sourceUnits('check:fluent-source-syntax')).toEqual([]);
    expect(contexts(all.filter((unit) => unit.has_failing_check))).toEqual(['unclosed', 'unquoted']);
    expect(contexts(await sourceUnits('has:check'))).toEqual(['unclosed', 'unquoted']);
    const unclosed = all.find((unit) => unit.context === 'unclosed')!;
    const checks = (await app.http().get(`/api/units/${unclosed.id}/checks/`).set(...admin).expect(200)).body.results;
    expect(checks).toEqual([
      { id: 'fluent-source-inner-html', name: 'Fluent source inner HTML', description: 'Fluent source should be valid inner HTML', dismissed: false },
    ]);
  });

  it('checks source strings added through the API: invalid syntax, lost markup', async () => {
    const add = (key: string, value: string) => app.http().post('/api/translations/flu/app/en/units/').set(...admin).send({ key, value: [value] });
    await add('broken', 'Broken { $name').expect(200);
    await add('stray', 'Stray </i> end tag').expect(200);
    expect(contexts(await sourceUnits('check:fluent-source-syntax'))).toEqual(['broken']);
    // Invalid syntax is left to the syntax check.
    expect(contexts(await sourceUnits('check:fluent-source-inner-html'))).toEqual(['stray', 'unclosed', 'unquoted']);
    const all = await sourceUnits();
    expect(contexts(all.filter((unit) => unit.has_failing_check))).toEqual(['broken', 'stray', 'unclosed', 'unquoted']);
    const translation = (await app.http().get('/api/translations/flu/app/en/').set(...admin).expect(200)).body;
    expect(translation.failing_checks).toBe(4);
  });
});
