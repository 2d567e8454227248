import { existsSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { GitCommandError, gitEnvironment, runGit } from './git-runner';
import { GitSandbox, createGitSandbox } from './testing/git-sandbox';

describe('runGit', () => {
  let sandbox: GitSandbox;

  beforeAll(async () => {
    sandbox = await createGitSandbox({ 'README.md': 'hello\n' });
  });
  afterAll(() => sandbox.cleanup());

  it('runs git without a shell and returns its output', async () => {
    const { stdout } = await runGit(['--version']);
    expect(stdout).toMatch(/^git version \d+\.\d+/);
    // Shell syntax in an argument stays a literal argument.
    await expect(runGit(['rev-parse', '--verify', '--end-of-options', '$(touch pwned)'], { cwd: sandbox.upstream }))
      .rejects.toBeInstanceOf(GitCommandError);
    expect(existsSync(path.join(sandbox.upstream, 'pwned'))).toBe(false);
  });

  it('reports the subcommand, exit code and stderr, with URL credentials removed', async () => {
    const error = await runGit(['check-ref-format', '--branch', 'https://user:s3cret@example.org/x']).catch((e) => e);
    expect(error).toBeInstanceOf(GitCommandError);
    expect(error.command).toBe('check-ref-format');
    expect(error.exitCode).toBe(128);
    expect(error.timedOut).toBe(false);
    expect(error.stderr).toContain("'https://example.org/x' is not a valid branch name");
    expect(error.message).toMatch(/^git check-ref-format exited with code 128: fatal: /);
    expect(`${error.message} ${error.stderr}`).not.toContain('s3cret');
  });

  it('refuses the ext:: transport even when a caller skipped the URL policy', async () => {
    const marker = path.join(sandbox.root, 'ext-ran');
    const error = await runGit(['ls-remote', '--', `ext::sh -c touch% ${marker}`], { allowLocal: true }).catch((e) => e);
    expect(error).toBeInstanceOf(GitCommandError);
    expect(error.stderr).toContain("transport 'ext' not allowed");
    expect(existsSync(marker)).toBe(false);
  });

  it('allows the file transport only when local repositories are allowed', async () => {
    const denied = await runGit(['ls-remote', '--', sandbox.upstream]).catch((e) => e);
    expect(denied).toBeInstanceOf(GitCommandError);
    expect(denied.stderr).toContain("transport 'file' not allowed");
    const { stdout } = await runGit(['ls-remote', '--', sandbox.upstream], { allowLocal: true });
    expect(stdout).toContain('refs/heads/main');
  });

  it('kills git when it runs past the timeout', async () => {
    // `hash-object --stdin` waits for input that never comes.
    const error = await runGit(['hash-object', '--stdin'], { timeoutMs: 200 }).catch((e) => e);
    expect(error).toBeInstanceOf(GitCommandError);
    expect(error.timedOut).toBe(true);
    expect(error.exitCode).toBeNull();
    expect(error.message).toBe('git hash-object timed out');
  });

  it('reports a missing working directory as a failure to run', async () => {
    const error = await runGit(['status'], { cwd: path.join(os.tmpdir(), 'glossa-does-not-exist-42') }).catch((e) => e);
    expect(error).toBeInstanceOf(GitCommandError);
    expect(error.exitCode).toBeNull();
    expect(error.timedOut).toBe(false);
  });
});

describe('gitEnvironment', () => {
  const saved = { ...process.env };
  afterEach(() => {
    process.env = { ...saved };
  });

  it('keeps variables that could redirect git out of the child environment', () => {
    process.env.GIT_DIR = '/somewhere/else/.git';
    process.env.GIT_CONFIG_PARAMETERS = "'core.sshCommand'='touch /tmp/x'";
    process.env.GIT_EXEC_PATH = '/tmp/evil';
    const env = gitEnvironment(false);
    expect(env.GIT_DIR).toBeUndefined();
    expect(env.GIT_CONFIG_PARAMETERS).toBeUndefined();
    expect(env.GIT_EXEC_PATH).toBeUndefined();
    expect(env.PATH).toBe(process.env.PATH);
  });

  it('never prompts, pins the locale and restricts transports', () => {
    const env = gitEnvironment(false);
    expect(env).toMatchObject({
      GIT_TERMINAL_PROMPT: '0',
      GIT_ASKPASS: '/bin/true',
      LC_ALL: 'C',
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_ALLOW_PROTOCOL: 'https:http:ssh:git',
    });
    expect(gitEnvironment(true).GIT_ALLOW_PROTOCOL).toBe('https:http:ssh:git:file');
  });

  it('lets callers add data variables such as the committer', () => {
    expect(gitEnvironment(false, { GIT_COMMITTER_NAME: 'Glossa' }).GIT_COMMITTER_NAME).toBe('Glossa');
  });
});
