import { readFile } from 'node:fs/promises';
import { GitSpawner, type SpawnRequest } from './git-spawner';
import { gitEnvironment } from './git-runner';

// The helper process that spawns git for the server (git-spawner.ts): execFile's outcome comes back, a
// helper that dies fails its requests and takes its git processes with it, and the next request gets a new
// helper.

const request = (args: string[], timeout = 60_000): SpawnRequest => ({ file: 'git', args, env: gitEnvironment(false), timeout, maxBuffer: 1024 * 1024 });

/** Whether `pid` is a live process (a zombie waiting for its reaper counts as ended). */
async function alive(pid: number): Promise<boolean> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null);
  return stat !== null && stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
}

/** Asks `done` again every 20 ms until it says yes (a process ending is observed, not announced). */
async function pollUntil(done: () => Promise<true | undefined>, what: string): Promise<void> {
  const deadline = Date.now() + 240_000;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`Gave up waiting: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('GitSpawner', () => {
  const spawners: GitSpawner[] = [];
  const make = (options: ConstructorParameters<typeof GitSpawner>[0] = {}): GitSpawner => {
    const spawner = new GitSpawner(options);
    spawners.push(spawner);
    return spawner;
  };
  afterEach(() => {
    for (const spawner of spawners.splice(0)) if (spawner.helperPid !== null) process.kill(spawner.helperPid, 'SIGKILL');
  });

  it('runs git in another process and answers its output, exit code and the output limit', async () => {
    const spawner = make();
    const ok = await spawner.run(request(['--version']));
    expect(ok).toEqual({ stdout: expect.stringMatching(/^git version /), stderr: '', error: null });
    expect(spawner.helperPid).not.toBeNull();
    expect(spawner.helperPid).not.toBe(process.pid);

    const failed = await spawner.run(request(['check-ref-format', '--branch', 'a..b']));
    expect(failed.error).toMatchObject({ code: 128, killed: false });
    expect(failed.stderr).toContain('not a valid branch name');

    const limited = await spawner.run({ ...request(['help', '-a']), maxBuffer: 10 });
    expect(limited.error?.code).toBe('ERR_CHILD_PROCESS_STDIO_MAXBUFFER');

    // An argument execFile refuses before starting anything fails that request only.
    const helper = spawner.helperPid;
    const refused = await spawner.run(request(['status', 'a\u0000b']));
    expect(refused.error).toMatchObject({ code: null, killed: false, message: expect.stringContaining('null bytes') });
    expect((await spawner.run(request(['--version']))).error).toBeNull();
    expect(spawner.helperPid).toBe(helper);
  });

  it('kills a git past its timeout', async () => {
    const outcome = await make().run(request(['hash-object', '--stdin'], 200));
    expect(outcome.error).toMatchObject({ code: null, killed: true });
  });

  it('fails the requests of a helper that died, kills their git, and starts a new helper for the next one', async () => {
    let started!: (pid: number) => void;
    const gitStarted = new Promise<number>((resolve) => (started = resolve));
    const spawner = make({ onStarted: (pid) => started(pid) });
    // `hash-object --stdin` waits for input that never comes.
    const running = spawner.run(request(['hash-object', '--stdin']));
    const gitPid = await gitStarted;
    const firstHelper = spawner.helperPid!;
    expect(await alive(gitPid)).toBe(true);

    process.kill(firstHelper, 'SIGKILL');
    const outcome = await running;
    expect(outcome.error).toEqual({ code: null, killed: false, message: 'the git helper stopped unexpectedly' });
    // Killed by the server when the helper went (SIGKILL arrives asynchronously: wait for it to take effect).
    await pollUntil(async () => ((await alive(gitPid)) ? undefined : true), 'the orphaned git ended');

    expect((await spawner.run(request(['--version']))).error).toBeNull();
    expect(spawner.helperPid).not.toBe(firstHelper);
  });

  it('ends an idle helper and starts one again on the next request', async () => {
    const spawner = make({ idleMs: 10 });
    await spawner.run(request(['--version']));
    const helper = spawner.helperPid!;
    await pollUntil(async () => (spawner.helperPid === null && !(await alive(helper)) ? true : undefined), 'the idle helper ended');
    expect((await spawner.run(request(['--version']))).error).toBeNull();
    expect(spawner.helperPid).not.toBe(helper);
  });

  it('ends an idle helper at once when closed, and starts one again on the next request', async () => {
    const spawner = make();
    await spawner.run(request(['--version']));
    const helper = spawner.helperPid!;
    spawner.close();
    expect(spawner.helperPid).toBeNull();
    await pollUntil(async () => (!(await alive(helper)) ? true : undefined), 'the closed helper ended');
    expect((await spawner.run(request(['--version']))).error).toBeNull();
    expect(spawner.helperPid).not.toBe(helper);
  });

  it('keeps a helper with a request out when closed: it answers, and ends once idle', async () => {
    const spawner = make({ idleMs: 10 });
    const running = spawner.run(request(['--version']));
    const helper = spawner.helperPid!;
    spawner.close();
    expect(spawner.helperPid).toBe(helper);
    expect((await running).error).toBeNull();
    await pollUntil(async () => (spawner.helperPid === null && !(await alive(helper)) ? true : undefined), 'the helper ended once idle');
  });
});
