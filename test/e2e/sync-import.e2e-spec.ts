import { Module, type INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { DataSource } from 'typeorm';
import { loadConfig } from '../../src/config/app-config';
import { ConfigModule } from '../../src/config/config.module';
import { DatabaseModule } from '../../src/database/database.module';
import { JobsModule } from '../../src/jobs/jobs.module';
import type { Component } from '../../src/modules/components/component.entity';
import { ComponentImportService } from '../../src/sync/component-import.service';
import { ComponentTaskScheduler } from '../../src/sync/component-task.scheduler';
import { SyncModule } from '../../src/sync/sync.module';
import { gitBlobHash } from '../../src/vcs/git-blob-hash';
import { createGitSandbox, type GitSandbox } from '../../src/vcs/testing/git-sandbox';
import { withLock } from '../../src/vcs/repository-lock';
import { createComponent, createLanguages, createProject } from '../support/factories';
import { dropJobSchema } from '../support/tasks';
import { createTestDatabase, type TestDatabase } from '../support/test-database';
import { PATIENCE_MS } from '../support/wait';

// Import, rescan and pull of a json-nested component against a real git repository, with the import
// running as a pg-boss job, on PostgreSQL (TEST_DATABASE_URL) and on the embedded PGlite database alike.

// The worked example of languages-formats-hashing.md §2.2 as the template.
const TEMPLATE = `{
    "app": {"title": "Weblate", "greeting": "Hello, {name}!"},
    "cart": {"items": "{count} items in cart"},
    "list": ["First", "Second"]
}
`;
const CS = '{"app": {"title": "Weblate", "greeting": "Ahoj, {name}!"}, "list": [null, "Druhý"]}\n';
const DE = '{"app": {"greeting": "Hallo, {name}!"}, "cart": {"items": "{count} Artikel im Warenkorb"}}\n';

// Expected unit identity per the reference's worked example (§2.2 / §3.3).
const WORKED_EXAMPLE = [
  { position: 1, context: 'app.title', source: 'Weblate', id_hash: '-6717303852330811496', content_hash: '-95846635629574223', num_words: 1 },
  { position: 2, context: 'app.greeting', source: 'Hello, {name}!', id_hash: '-6722914994396313773', content_hash: '2877657794238324096', num_words: 2 },
  { position: 3, context: 'cart.items', source: '{count} items in cart', id_hash: '1816141635243407310', content_hash: '307477479833810214', num_words: 4 },
  { position: 4, context: 'list[0]', source: 'First', id_hash: '-4384817994132090469', content_hash: '-271234623273053001', num_words: 1 },
  { position: 5, context: 'list[1]', source: 'Second', id_hash: '2687294331881052410', content_hash: '1212373771198498151', num_words: 1 },
];

describe('sync: component import, rescan and pull', () => {
  let database: TestDatabase;
  let dataDir: string;
  let app: INestApplicationContext;
  let db: DataSource;
  let sandbox: GitSandbox;
  let component: Component;
  const jobSchema = `pgboss_test_${randomBytes(4).toString('hex')}`;

  beforeAll(async () => {
    database = await createTestDatabase();
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'glossa-sync-'));
    const config = loadConfig({
      DATABASE_URL: database.url,
      DATA_DIR: dataDir,
      DEMO: 'false',
      ALLOW_LOCAL_REPOSITORIES: 'true',
      JOB_POLLING_SECONDS: '0.5',
    });
    // Pool of one: the embedded database's production setting, and the strictest for hidden deadlocks.
    @Module({ imports: [ConfigModule.forRoot(config), DatabaseModule.forRoot(database.url, 1), JobsModule.forRoot({ schema: jobSchema, shutdownTimeoutMs: 5000 }), SyncModule] })
    class TestRootModule {}
    app = await NestFactory.createApplicationContext(TestRootModule, { logger: false });
    await app.init();
    db = app.get(DataSource);
    sandbox = await createGitSandbox({
      'sources/app.json': TEMPLATE,
      'translations/cs/app.json': CS,
      'translations/de/app.json': DE,
      'translations/qq/app.json': '{}\n',
      'translations/de.bak/app.json': '{}\n',
    });
    const languages = await createLanguages(db, ['en', 'cs', 'de']);
    const project = await createProject(db, { slug: 'sync', name: 'Sync' });
    component = await createComponent(db, project, {
      slug: 'app',
      name: 'App',
      repo: sandbox.upstream,
      branch: '',
      filemask: 'translations/*/app.json',
      template: 'sources/app.json',
      sourceLanguageId: languages.get('en')!.id,
    });
  });

  afterAll(async () => {
    await app?.close();
    // pg-boss's schema lives beside the migrated one; on the shared embedded database it must go.
    await dropJobSchema(database.url, jobSchema);
    await database?.drop();
    await sandbox?.cleanup();
    await rm(dataDir, { recursive: true, force: true });
  });

  const translations = () =>
    db.query(
      `SELECT t.*, l.code FROM translations t JOIN languages l ON l.id = t.language_id
        WHERE t.component_id = $1 ORDER BY l.code`,
      [component.id],
    );
  const units = (code: string) =>
    db.query(
      `SELECT u.* FROM units u JOIN translations t ON t.id = u.translation_id JOIN languages l ON l.id = t.language_id
        WHERE t.component_id = $1 AND l.code = $2 ORDER BY u.position`,
      [component.id, code],
    );
  const changes = () =>
    db.query(
      `SELECT c.*, l.code FROM changes c LEFT JOIN languages l ON l.id = c.language_id WHERE c.component_id = $1 ORDER BY c.id`,
      [component.id],
    );

  async function waitForTask(taskId: string): Promise<{ status: string; progress: number; result: unknown; log: string }> {
    const deadline = Date.now() + PATIENCE_MS;
    for (;;) {
      const [task] = await db.query('SELECT status, progress, result, log FROM tasks WHERE id = $1', [taskId]);
      if (task.status === 'completed' || task.status === 'failed') return task;
      if (Date.now() > deadline) throw new Error(`Task ${taskId} still ${task.status}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  it('imports through a pg-boss job: task queued → completed, component.task_id set then cleared', async () => {
    const taskId = await app.get(ComponentTaskScheduler).scheduleImport(component.id);
    const [queued] = await db.query('SELECT kind, status, progress, component_id FROM tasks WHERE id = $1', [taskId]);
    expect(queued).toEqual({ kind: 'component-import', status: expect.stringMatching(/^(queued|running|completed)$/), progress: expect.any(Number), component_id: component.id });
    const [job] = await db.query(`SELECT name FROM ${jobSchema}.job WHERE id = $1`, [taskId]);
    expect(job).toEqual({ name: 'component-import' });

    const task = await waitForTask(taskId);
    expect(task.status).toBe('completed');
    expect(task.progress).toBe(100);
    expect(task.result).toEqual({ result: true, translations: 3, units: 15 });
    expect(task.log).toContain('unknown language code "qq"');
    expect(task.log).not.toContain('de.bak');
    const [row] = await db.query('SELECT task_id, branch FROM components WHERE id = $1', [component.id]);
    // The remote's default branch is stored when the component named none.
    expect(row).toEqual({ task_id: null, branch: 'main' });
  });

  it('creates the source translation from the template: read-only units, everything translated', async () => {
    const templateBlob = gitBlobHash(Buffer.from(TEMPLATE));
    const [, , en] = await translations();
    expect(en).toMatchObject({
      code: 'en',
      language_code: 'en',
      filename: 'sources/app.json',
      is_source: true,
      is_template: true,
      revision: `${templateBlob},${templateBlob}`,
      total: 5,
      total_words: 9,
      translated: 5,
      translated_words: 9,
      readonly: 5,
      fuzzy: 0,
      approved: 0,
    });
    const rows = await units('en');
    expect(rows.map((u: Record<string, unknown>) => u.state)).toEqual([100, 100, 100, 100, 100]);
    for (const unit of rows) {
      expect(unit.target).toBe(unit.source);
      expect(unit.source_unit_id).toBe(unit.id);
    }
  });

  it('fills every unit field: template order, hashes of the worked example, states, links to source units', async () => {
    const sourceIds = new Map((await units('en')).map((u: Record<string, string>) => [u.id_hash, u.id]));
    const cs = await units('cs');
    expect(cs.map(({ position, context, source, id_hash, content_hash, num_words }: Record<string, unknown>) => ({
      position, context, source, id_hash, content_hash, num_words,
    }))).toEqual(WORKED_EXAMPLE);
    expect(cs.map((u: Record<string, unknown>) => [u.target, u.state])).toEqual([
      ['Weblate', 20],
      ['Ahoj, {name}!', 20],
      ['', 0],
      ['', 0],
      ['Druhý', 20],
    ]);
    for (const unit of cs) {
      expect(unit).toMatchObject({ flags: '', extra_flags: '', note: '', location: '', explanation: '', previous_source: '', priority: 100, pending: false });
      expect(unit.source_unit_id).toBe(sourceIds.get(unit.id_hash));
      expect(typeof unit.timestamp).toBe('string');
    }
    // Write-back patches the file through its format (issue 11), so no JSON path is kept per unit any more.
    expect(cs[4].file_location).toBeNull();
  });

  it('stores statistics and revisions of the translations', async () => {
    const [cs, de] = await translations();
    expect(cs).toMatchObject({
      language_code: 'cs',
      filename: 'translations/cs/app.json',
      is_source: false,
      is_template: false,
      revision: `${gitBlobHash(Buffer.from(CS))},${gitBlobHash(Buffer.from(TEMPLATE))}`,
      total: 5,
      total_words: 9,
      total_chars: 7 + 14 + 21 + 5 + 6,
      translated: 3,
      translated_words: 4,
      translated_chars: 7 + 14 + 6,
      fuzzy: 0,
      readonly: 0,
      // "app.title" is translated as its source ("Weblate"): Weblate's `same` check fails for it.
      failing_checks: 1,
      failing_checks_words: 1,
      have_suggestion: 0,
      have_comment: 0,
    });
    expect(de).toMatchObject({ total: 5, translated: 2, translated_words: 6 });
  });

  it('records the import history per string: 13 per source string, 44 per string of each translation, then 0', async () => {
    const rows = await changes();
    const perString = (action: number, code: string) => WORKED_EXAMPLE.map(() => [action, code]);
    expect(rows.map((c: Record<string, unknown>) => [c.action, c.code])).toEqual([
      ...perString(13, 'en'),
      [0, 'en'],
      ...perString(44, 'cs'),
      [0, 'cs'],
      ...perString(44, 'de'),
      [0, 'de'],
    ]);
    // Each string's change names its unit and carries its text, in file order; no user (a scan).
    for (const code of ['en', 'cs', 'de']) {
      const stored = await units(code);
      const history = rows.filter((c: Record<string, unknown>) => c.code === code && c.action !== 0);
      expect(history.map((c: Record<string, unknown>) => [c.unit_id, c.target, c.old])).toEqual(stored.map((u: Record<string, unknown>) => [u.id, u.target, '']));
    }
    const resource = rows.find((c: Record<string, unknown>) => c.action === 0);
    expect(resource).toMatchObject({ unit_id: null, target: '', user_id: null, author_id: null, project_id: component.projectId });
    expect(resource.translation_id).not.toBeNull();
    for (const row of rows) expect(row).toMatchObject({ user_id: null, author_id: null, translation_id: expect.any(Number) });
  });

  it('pulls a changed string: 59 with the new text, 0 for the rescanned translation only, same unit id', async () => {
    const before = (await units('cs'))[1];
    const lastChange = (await changes()).at(-1).id;
    const CS2 = CS.replace('Ahoj', 'Nazdar');
    const head = await sandbox.commitUpstream({ 'translations/cs/app.json': CS2 }, 'Update Czech');

    await expect(app.get(ComponentImportService).pullComponent(component.id)).resolves.toEqual({ result: true });

    const after = (await units('cs'))[1];
    expect(after).toMatchObject({ id: before.id, target: 'Nazdar, {name}!', state: 20 });
    const newChanges = (await changes()).filter((c: Record<string, string>) => BigInt(c.id) > BigInt(lastChange));
    expect(newChanges.map((c: Record<string, unknown>) => [c.action, c.code, c.unit_id, c.target])).toEqual([
      [21, null, null, ''],
      [59, 'cs', before.id, 'Nazdar, {name}!'],
      [0, 'cs', null, ''],
    ]);
    expect(newChanges[1].old).toBe('Ahoj, {name}!');
    const [cs] = await translations();
    expect(cs.revision).toBe(`${gitBlobHash(Buffer.from(CS2))},${gitBlobHash(Buffer.from(TEMPLATE))}`);

    const status = await app.get(ComponentImportService).repositoryStatus(component.id);
    expect(status).toMatchObject({ needs_commit: false, needs_merge: false, needs_push: false, merge_failure: null });
    expect(Object.keys(status)).toEqual(['needs_commit', 'needs_merge', 'needs_push', 'remote_commit', 'status', 'merge_failure']);
    expect(status.remote_commit?.revision).toBe(head);
    expect(status.status).toContain('On branch main');
  });

  it('pulls a template change: new string everywhere, changed source fuzzies translations, removed string deleted', async () => {
    const lastChange = (await changes()).at(-1).id;
    const greetingIds = new Map((await db.query(
      `SELECT l.code, u.id FROM units u JOIN translations t ON t.id = u.translation_id JOIN languages l ON l.id = t.language_id
        WHERE t.component_id = $1 AND u.context = 'app.greeting'`, [component.id])).map((r: Record<string, string>) => [r.code, r.id]));
    const TEMPLATE2 = '{"app": {"title": "Weblate", "greeting": "Hi, {name}!", "bye": "Bye"}, "cart": {"items": "{count} items in cart"}, "list": ["First"]}\n';
    await sandbox.commitUpstream({ 'sources/app.json': TEMPLATE2 }, 'Change the template');

    await expect(app.get(ComponentImportService).pullComponent(component.id)).resolves.toEqual({ result: true });

    const en = await units('en');
    expect(en.map((u: Record<string, unknown>) => [u.position, u.context, u.target, u.state])).toEqual([
      [1, 'app.title', 'Weblate', 100],
      [2, 'app.greeting', 'Hi, {name}!', 100],
      [3, 'app.bye', 'Bye', 100],
      [4, 'cart.items', '{count} items in cart', 100],
      [5, 'list[0]', 'First', 100],
    ]);
    const cs = await units('cs');
    expect(cs.map((u: Record<string, unknown>) => [u.context, u.source, u.target, u.state, u.previous_source])).toEqual([
      ['app.title', 'Weblate', 'Weblate', 20, ''],
      ['app.greeting', 'Hi, {name}!', 'Nazdar, {name}!', 10, 'Hello, {name}!'],
      ['app.bye', 'Bye', '', 0, ''],
      ['cart.items', '{count} items in cart', '', 0, ''],
      ['list[0]', 'First', '', 0, ''],
    ]);
    expect(cs[1].id).toBe(greetingIds.get('cs'));
    expect(cs[2].source_unit_id).toBe(en[2].id);
    const newChanges = (await changes()).filter((c: Record<string, string>) => BigInt(c.id) > BigInt(lastChange));
    expect(newChanges.map((c: Record<string, unknown>) => [c.action, c.code, c.unit_id, c.target])).toEqual([
      [21, null, null, ''],
      [13, 'en', en[2].id, 'Bye'],
      [59, 'en', greetingIds.get('en'), 'Hi, {name}!'],
      [0, 'en', null, ''],
      [44, 'cs', cs[2].id, ''],
      [30, 'cs', greetingIds.get('cs'), 'Hi, {name}!'],
      [0, 'cs', null, ''],
      [44, 'de', expect.any(String), ''],
      [30, 'de', greetingIds.get('de'), 'Hi, {name}!'],
      [0, 'de', null, ''],
    ]);
    const [csStats, , enStats] = await translations();
    expect(enStats).toMatchObject({ total: 5, translated: 5 });
    expect(csStats).toMatchObject({ total: 5, translated: 1, fuzzy: 1, fuzzy_words: 2 });
    // After the whole scan every unit has its source unit's text again, so none is flagged source_differs
    // (migration SourceTrigramsOnSourceUnits: the source searches rely on it).
    expect(await db.query(
      `SELECT u.id, u.source_differs FROM units u JOIN units s ON s.id = u.source_unit_id
        WHERE u.id <> s.id AND (u.source_differs OR u.source <> s.source OR u.context <> s.context)`,
    )).toEqual([]);
  });

  const workingCopyPath = () => path.join(dataDir, 'vcs', 'sync', 'app');
  // The test's own git commands in Glossa's working copy take the same process-wide lock as Glossa's
  // (git.repository.ts), so a commit or pull still running in the background never meets them half-way.
  const localGit = (args: string[]) => withLock(workingCopyPath(), () => sandbox.git(workingCopyPath(), args));
  const gitOut = async (...args: string[]) => (await localGit(args)).trim();

  it('merge_style rebase (the default): a diverged upstream is pulled by replaying the local commit on it, 21', async () => {
    const workingCopy = workingCopyPath();
    await localGit(['config', 'user.email', 'local@glossa.invalid']);
    await localGit(['config', 'user.name', 'Local']);
    const { writeFile } = await import('node:fs/promises');
    await writeFile(path.join(workingCopy, 'README.local'), 'local\n');
    await localGit(['add', 'README.local']);
    await localGit(['commit', '--quiet', '-m', 'Local commit']);
    const author = await gitOut('log', '-1', '--format=%an <%ae> %at', 'HEAD');
    const upstream = await sandbox.commitUpstream({ 'README.upstream': 'upstream\n' }, 'Upstream commit');
    const lastChange = (await changes()).at(-1).id;

    await expect(app.get(ComponentImportService).pullComponent(component.id)).resolves.toEqual({ result: true });

    // Linear history: the local commit sits on top of upstream's, no merge commit.
    expect(await gitOut('rev-parse', 'HEAD~1')).toBe(upstream);
    // The author (and date) are kept; the committer is the site.
    expect(await gitOut('log', '-1', '--format=%s|%an <%ae> %at|%cn', 'HEAD')).toBe(`Local commit|${author}|Glossa`);
    expect(await gitOut('rev-list', '--merges', '--count', 'HEAD')).toBe('0');
    const newChanges = (await changes()).filter((c: Record<string, string>) => BigInt(c.id) > BigInt(lastChange));
    expect(newChanges.map((c: Record<string, unknown>) => c.action)).toEqual([21]);
  });

  it('merge_style merge: a merge commit by the site with the rendered merge_message, 20', async () => {
    await db.query(`UPDATE components SET merge_style = 'merge', merge_message = $2 WHERE id = $1`, [
      component.id,
      "Merge branch '{{ component_remote_branch }}' of {{ project_name }}/{{ component_name }} into {{ site_title }}.\n\n",
    ]);
    const upstream = await sandbox.commitUpstream({ 'README.upstream': 'upstream 2\n' }, 'Second upstream commit');
    await expect(app.get(ComponentImportService).pullComponent(component.id)).resolves.toEqual({ result: true });
    expect(await gitOut('log', '-1', '--format=%s|%an|%cn|%P', 'HEAD')).toBe(`Merge branch 'main' of Sync/App into Glossa.|Glossa|Glossa|${await gitOut('rev-parse', 'HEAD^1')} ${upstream}`);
    expect((await changes()).at(-1).action).toBe(20);
    await db.query(`UPDATE components SET merge_style = 'rebase' WHERE id = $1`, [component.id]);
  });

  it('reports a rebase conflict as result false, records 23 and shows it as merge_failure', async () => {
    const service = app.get(ComponentImportService);
    const workingCopy = workingCopyPath();
    // A local commit that conflicts with the next upstream change.
    await localGit(['config', 'user.email', 'local@glossa.invalid']);
    await localGit(['config', 'user.name', 'Local']);
    await sandbox.commitUpstream({ 'translations/de/app.json': '{"app": {"title": "Upstream"}}\n' }, 'Upstream German');
    const { writeFile } = await import('node:fs/promises');
    await writeFile(path.join(workingCopy, 'translations/de/app.json'), '{"app": {"title": "Local"}}\n');
    await localGit(['commit', '--quiet', '-am', 'Local German']);

    const result = await service.pullComponent(component.id);
    expect(result.result).toBe(false);
    expect(result.detail).toMatch(/conflict/i);
    const [last] = (await changes()).slice(-1);
    expect(last).toMatchObject({ action: 23, translation_id: null });
    // The rebase was aborted: the local commit is still HEAD and nothing is half-applied.
    expect(await gitOut('log', '-1', '--format=%s', 'HEAD')).toBe('Local German');
    expect(await gitOut('status', '--porcelain')).toBe('');
    const status = await service.repositoryStatus(component.id);
    expect(status).toMatchObject({ needs_merge: true, needs_push: true, merge_failure: result.detail });
  });
});
