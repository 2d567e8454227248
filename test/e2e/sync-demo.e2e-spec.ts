import { Module, type INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { DataSource } from 'typeorm';
import { loadConfig, type AppConfig } from '../../src/config/app-config';
import { ConfigModule } from '../../src/config/config.module';
import { DatabaseModule } from '../../src/database/database.module';
import { JobsModule } from '../../src/jobs/jobs.module';
import { ComponentImportService } from '../../src/sync/component-import.service';
import { DEFAULT_MESSAGE_TEMPLATES } from '../../src/sync/component-defaults';
import { DemoSeeder } from '../../src/sync/demo-seeder';
import { SyncModule } from '../../src/sync/sync.module';
import { WriteBackService } from '../../src/sync/write-back.service';
import { runGit } from '../../src/vcs/git-runner';
import { createComponent, createLanguages, createProject } from '../support/factories';
import { dropJobSchema } from '../support/tasks';
import { createTestDatabase, type TestDatabase } from '../support/test-database';

// Demo mode: an empty installation gets the demo project, imported before the server answers, from a
// local repository that is allowed even though ALLOW_LOCAL_REPOSITORIES is off.

describe('sync: demo seeder', () => {
  let database: TestDatabase;
  let dataDir: string;
  let config: AppConfig;
  let app: INestApplicationContext;
  let db: DataSource;
  const jobSchema = `pgboss_test_${randomBytes(4).toString('hex')}`;

  beforeAll(async () => {
    database = await createTestDatabase();
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'glossa-demo-'));
    config = loadConfig({ DATABASE_URL: database.url, DATA_DIR: dataDir, DEMO: 'true', ALLOW_LOCAL_REPOSITORIES: 'false' });
    @Module({ imports: [ConfigModule.forRoot(config), DatabaseModule.forRoot(database.url, 1), JobsModule.forRoot({ schema: jobSchema }), SyncModule] })
    class TestRootModule {}
    app = await NestFactory.createApplicationContext(TestRootModule, { logger: false });
    await app.init();
    db = app.get(DataSource);
    // An installation whose language table the start-up has not filled yet (test databases come from a template
    // the service has started on once, test/support/template-start.ts): the first test needs "en" missing.
    await db.query('TRUNCATE languages RESTART IDENTITY CASCADE');
  });

  afterAll(async () => {
    await app?.close();
    await dropJobSchema(database.url, jobSchema);
    await database?.drop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('needs the source language before it can seed', async () => {
    await expect(app.get(DemoSeeder).run()).rejects.toThrow('"en"');
    expect(await db.query('SELECT id FROM projects')).toEqual([]);
  });

  it('does nothing when demo mode is off', async () => {
    const seeder = new DemoSeeder(db, { ...config, demo: false }, app.get(ComponentImportService));
    await expect(seeder.run()).resolves.toBe(false);
  });

  it('creates and imports the demo project on an empty installation', async () => {
    await createLanguages(db, ['en', 'cs', 'de']);
    await expect(app.get(DemoSeeder).run()).resolves.toBe(true);

    const [project] = await db.query('SELECT name, slug, web FROM projects');
    expect(project).toEqual({ name: 'Demo', slug: 'demo', web: 'https://example.org/' });
    const [component] = await db.query('SELECT * FROM components');
    expect(component).toMatchObject({
      name: 'App',
      slug: 'app',
      repo: path.join(dataDir, 'demo-repository'),
      push: path.join(dataDir, 'demo-repository'),
      branch: 'main',
      filemask: 'translations/*/app.json',
      template: 'sources/app.json',
      file_format: 'json-nested',
      commit_message: DEFAULT_MESSAGE_TEMPLATES.commitMessage,
      pull_message: DEFAULT_MESSAGE_TEMPLATES.pullMessage,
      language_regex: '^[^.]+$',
      task_id: null,
    });
    const translations = await db.query(
      `SELECT l.code, t.filename, t.is_source, t.total, t.translated FROM translations t
         JOIN languages l ON l.id = t.language_id ORDER BY l.code`,
    );
    expect(translations).toEqual([
      { code: 'cs', filename: 'translations/cs/app.json', is_source: false, total: 12, translated: 12 },
      { code: 'de', filename: 'translations/de/app.json', is_source: false, total: 12, translated: 6 },
      { code: 'en', filename: 'sources/app.json', is_source: true, total: 12, translated: 12 },
    ]);
    const [{ count }] = await db.query('SELECT count(*)::int AS count FROM changes WHERE action = 0');
    expect(count).toBe(3);
  });

  it('seeds only once', async () => {
    await expect(app.get(DemoSeeder).run()).resolves.toBe(false);
    expect(await db.query('SELECT slug FROM projects')).toEqual([{ slug: 'demo' }]);
  });

  it('can pull the demo repository although local repositories are not allowed', async () => {
    const [{ id }] = await db.query("SELECT id FROM components WHERE slug = 'app'");
    await expect(app.get(ComponentImportService).pullComponent(id)).resolves.toEqual({ result: true });
  });

  it('pushes back into the demo repository, whose checked-out tree follows (wlc push demo/app works)', async () => {
    const [{ id }] = await db.query("SELECT id FROM components WHERE slug = 'app'");
    // A commit in the working copy, as a translation commit would make one.
    const workingCopy = path.join(dataDir, 'vcs', 'demo', 'app');
    await writeFile(path.join(workingCopy, 'README.md'), 'Changed by a test\n');
    const git = (cwd: string, ...args: string[]) => runGit(args, { cwd, env: { GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.org', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.org' } });
    await git(workingCopy, 'commit', '--quiet', '--all', '--message=Test change');
    const pushed = (await git(workingCopy, 'rev-parse', 'HEAD')).stdout.trim();

    await expect(app.get(WriteBackService).push(id, null)).resolves.toEqual({ result: true });
    const demo = path.join(dataDir, 'demo-repository');
    expect((await git(demo, 'rev-parse', 'HEAD')).stdout.trim()).toBe(pushed);
    expect(await readFile(path.join(demo, 'README.md'), 'utf8')).toBe('Changed by a test\n');
    expect((await git(demo, 'status', '--porcelain')).stdout.trim()).toBe('');
  });

  it('still refuses other local repositories', async () => {
    const project = await createProject(db);
    const component = await createComponent(db, project, { repo: path.join(dataDir, 'demo-repository', '..', 'elsewhere') });
    await expect(app.get(ComponentImportService).importComponent(component.id)).rejects.toThrow('Local repositories are not allowed');
  });
});
