import { DataSource } from 'typeorm';
import { buildProgram } from '../../src/cli/program';
import { CliError } from '../../src/cli/users';
import { createGitSandbox, type GitSandbox } from '../../src/vcs/testing/git-sandbox';
import { authHeader } from '../support/contract';
import { createProject } from '../support/factories';
import { createTestApp, type TestApp } from '../support/test-app';

describe('admin CLI (glossa <command>)', () => {
  let app: TestApp;
  let dataSource: DataSource;
  let sandbox: GitSandbox;

  beforeAll(async () => {
    app = await createTestApp();
    dataSource = app.glossa.app.get(DataSource);
    sandbox = await createGitSandbox({
      'sources/app.json': '{"hello": "Hello", "bye": "Bye"}\n',
      'translations/cs/app.json': '{"hello": "Ahoj"}\n',
      'translations/de/app.json': '{"hello": "Hallo", "bye": "Tschüss"}\n',
    });
  });
  afterAll(async () => {
    await app.close();
    await sandbox?.cleanup();
  });

  /** Runs one command line in-process against the test database; resolves with stdout and stderr lines. */
  async function run(...args: string[]): Promise<{ out: string[]; err: string[] }> {
    const out: string[] = [];
    const err: string[] = [];
    const program = buildProgram(() => app.config, { out: (line) => out.push(line), err: (line) => err.push(line) });
    await program.parseAsync(['node', 'glossa', ...args]);
    return { out, err };
  }

  it('migrate applies nothing on an up-to-date database', async () => {
    expect((await run('migrate')).out).toEqual(['No pending migrations.']);
  });

  it('createadmin makes a superuser with a working token; createtoken adds another one', async () => {
    const { out, err } = await run('createadmin', '--username', 'operator', '--email', 'op@example.org');
    expect(err).toEqual(['Created superuser "operator".']);
    expect(out).toHaveLength(1);
    expect(out[0]).toMatch(/^wlu_[A-Za-z0-9]{36}$/);
    const [user] = await dataSource.query('SELECT is_superuser, is_active, email FROM users WHERE username = $1', ['operator']);
    expect(user).toEqual({ is_superuser: true, is_active: true, email: 'op@example.org' });
    await app.http().get('/api/metrics/').set(...authHeader(out[0])).expect(200);

    const again = await run('createadmin', '--username', 'operator');
    expect(again.err).toEqual(['User "operator" is now an active superuser.']);

    const second = await run('createtoken', 'operator');
    expect(second.out[0]).toMatch(/^wlu_/);
    expect(second.out[0]).not.toBe(out[0]);
    await app.http().get('/api/metrics/').set(...authHeader(second.out[0])).expect(200);
    // The first token keeps working: tokens are added, not replaced.
    await app.http().get('/api/metrics/').set(...authHeader(out[0])).expect(200);
  });

  it('createtoken refuses an unknown user', async () => {
    await expect(run('createtoken', 'nobody')).rejects.toThrow(new CliError('No user "nobody".'));
  });

  it('languages sync reports what it changed (nothing after the start-up sync)', async () => {
    await dataSource.query(`UPDATE languages SET name = 'Wrong' WHERE code = 'cs'`);
    expect((await run('languages', 'sync')).out).toEqual(['Language table: 1 languages added or updated.']);
    const [cs] = await dataSource.query(`SELECT name FROM languages WHERE code = 'cs'`);
    expect(cs.name).toBe('Czech');
  });

  // `import` starts a second service (with its own job workers) beside the test's; the embedded database
  // serves one session, which two busy services cannot share, so this runs on PostgreSQL only.
  const realPostgres = Boolean(process.env.GLOSSA_TEST_SERVER_URL);
  (realPostgres ? it : it.skip)('import creates a component from a repository and waits for its import', async () => {
    await createProject(dataSource, { name: 'CLI', slug: 'cli' });
    const { out } = await run(
      'import',
      'cli',
      'app',
      '--repo',
      sandbox.upstream,
      '--filemask',
      'translations/*/app.json',
      '--template',
      'sources/app.json',
      '--file-format',
      'json',
    );
    expect(out).toEqual(['Imported cli/app: 3 translations, 6 strings.']);
    const list = await app.http().get('/api/components/cli/app/translations/').expect(200);
    expect(list.body.count).toBe(3);
  });

  (realPostgres ? it : it.skip)('import reports validation errors of the API', async () => {
    await expect(run('import', 'cli', 'bad', '--repo', sandbox.upstream, '--filemask', 'no-star.json')).rejects.toThrow(CliError);
    await expect(run('import', 'missing', 'x', '--repo', sandbox.upstream, '--filemask', 'a/*.json')).rejects.toThrow(CliError);
  });

  it('rejects unknown commands and missing options with usage help', async () => {
    await expect(run('frobnicate')).rejects.toMatchObject({ code: 'commander.unknownCommand' });
    await expect(run('createadmin')).rejects.toMatchObject({ code: 'commander.missingMandatoryOptionValue' });
  });
});
