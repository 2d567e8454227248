import { spawn, type ChildProcess } from 'node:child_process';

// Why git is not spawned by the server itself (issue 11, docs/performance.md "git spawner"): starting a
// process from Node forks the whole server (libuv has no posix_spawn/vfork path on Linux) and the main thread
// waits until the child has exec'd. For a 540 MB process that is about 11 ms of CPU and 30–40 ms of the main
// thread per git process on an idle machine, and about 60 ms at load 9; from a 43 MB process it is 1.2 ms
// and 3–4 ms. So a small node process, started on demand, spawns git for the server: the server sends it
// execFile's arguments over IPC and gets execFile's outcome back. What git runs, its environment, working
// directory, timeout (SIGKILL), output limit and encoding are decided by git-runner.ts as before; the helper
// only applies them. It knows nothing of Glossa.
//
// Robustness:
// * started on the first request, ended after IDLE_MS without one (its memory goes back to the system), and
//   started again when it died (crashed, killed): a request never waits on a helper that is gone;
// * a helper that dies with git running fails those requests as "could not run", and the server kills the
//   git processes it was told about, so no orphaned git keeps working in a repository whose lock the server
//   has released (the stale-lock recovery would take its lock files for a killed git's);
// * every request has a deadline of its own timeout plus REPLY_GRACE_MS: a helper that does not answer by
//   then is killed (and so are its git processes), as execFile kills a git that runs too long;
// * when the server dies the IPC channel closes; the helper then stops taking requests, lets the git
//   processes it runs finish (each still under its timeout) and exits, i.e. git is not cut off halfway
//   any more than when the server spawned it itself;
// * it never keeps the server alive (unref'd while idle), and a helper that cannot be started fails the
//   request the way a git that cannot be started does.

export interface GitSpawnerOptions {
  /** How long an idle helper lives (default 30 s, as the parse worker). */
  idleMs?: number;
  /** Told each process the helper started (its pid), for tests. */
  onStarted?: (pid: number) => void;
}

const IDLE_MS = 30_000;
const REPLY_GRACE_MS = 10_000;

/** What execFile is given (git-runner.ts decides every field). */
export interface SpawnRequest {
  file: string;
  args: readonly string[];
  cwd?: string;
  env: NodeJS.ProcessEnv;
  timeout: number;
  maxBuffer: number;
}

/** execFile's outcome: the error's fields git-runner.ts reads, or null on success. */
export interface SpawnOutcome {
  stdout: string;
  stderr: string;
  error: { code: number | string | null; killed: boolean; message: string } | null;
}

type HelperMessage = { id: number; pid: number } | ({ id: number } & SpawnOutcome);

/**
 * The helper's program. It runs in its own node process (`node -e`), so it is passed as source text: it may
 * use nothing from this module, only what it requires itself.
 */
function helperProgram(): void {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { execFile } = require('node:child_process') as typeof import('node:child_process');
  let running = 0;
  let closing = false;
  process.on('message', (request: { id: number } & SpawnRequest) => {
    if (closing) return;
    const reply = (outcome: SpawnOutcome): void => {
      if (process.connected) process.send!({ id: request.id, ...outcome });
    };
    let child;
    try {
      child = execFile(
        request.file,
        request.args,
        { cwd: request.cwd, env: request.env, timeout: request.timeout, killSignal: 'SIGKILL', maxBuffer: request.maxBuffer, encoding: 'utf8', windowsHide: true },
        (error, stdout, stderr) => {
          running -= 1;
          reply({ stdout, stderr, error: error ? { code: (error.code as number | string | undefined) ?? null, killed: error.killed === true, message: error.message } : null });
          if (closing && running === 0) process.exit(0);
        },
      );
    } catch (error) {
      // Arguments execFile refuses outright (a NUL byte): that request fails, the helper goes on.
      reply({ stdout: '', stderr: '', error: { code: null, killed: false, message: (error as Error).message } });
      return;
    }
    running += 1;
    if (child.pid !== undefined && process.connected) process.send!({ id: request.id, pid: child.pid });
  });
  process.on('disconnect', () => {
    closing = true;
    if (running === 0) process.exit(0);
  });
}

const HELPER_SOURCE = `(${helperProgram.toString()})();`;

interface Pending {
  resolve: (outcome: SpawnOutcome) => void;
  gitPid: number | null;
  deadline: NodeJS.Timeout;
}

export class GitSpawner {
  private helper: ChildProcess | null = null;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private idleTimer: NodeJS.Timeout | null = null;

  constructor(private readonly options: GitSpawnerOptions = {}) {}

  /** The helper's pid while it runs (tests, diagnostics). */
  get helperPid(): number | null {
    return this.helper?.pid ?? null;
  }

  run(request: SpawnRequest): Promise<SpawnOutcome> {
    return new Promise((resolve) => {
      let helper: ChildProcess;
      try {
        helper = this.helper ?? this.start();
      } catch (error) {
        resolve(couldNotRun(`the git helper could not be started: ${(error as Error).message}`));
        return;
      }
      const id = this.nextId++;
      // The helper enforces the timeout itself; no answer long after it means the helper is stuck: the request
      // ends as a timed-out git, and the helper is killed (with the git processes it runs).
      const deadline = setTimeout(() => this.expire(id, helper), request.timeout + REPLY_GRACE_MS);
      deadline.unref();
      this.pending.set(id, { resolve, gitPid: null, deadline });
      this.busy(helper);
      helper.send({ id, ...request, args: [...request.args] }, (error) => {
        if (error) this.settle(id, couldNotRun(`the git helper did not take the request: ${error.message}`));
      });
    });
  }

  /**
   * Ends an idle helper now instead of after the idle time; a helper with requests out ends as usual, idle
   * after its last answer. For code that is done with git in a process that goes on (a Jest worker between
   * test files: each file has its own copy of this module, so a file's helper would outlive the file).
   */
  close(): void {
    const helper = this.helper;
    if (!helper || this.pending.size > 0) return;
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    this.helper = null;
    if (helper.connected) helper.disconnect();
  }

  private start(): ChildProcess {
    // No inherited environment: git's comes with each request; NODE_OPTIONS and the like are the server's.
    const helper = spawn(process.execPath, ['--max-old-space-size=512', '-e', HELPER_SOURCE], {
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
      serialization: 'advanced',
      env: {},
      windowsHide: true,
    });
    this.helper = helper;
    helper.on('message', (message: HelperMessage) => {
      if ('pid' in message) {
        const entry = this.pending.get(message.id);
        if (entry) entry.gitPid = message.pid;
        this.options.onStarted?.(message.pid);
      } else {
        this.settle(message.id, { stdout: message.stdout, stderr: message.stderr, error: message.error });
      }
    });
    // 'error' (could not start, or could not be killed) is always followed by 'exit' or 'close' when it died.
    helper.on('error', (error) => this.gone(helper, `the git helper failed: ${error.message}`));
    helper.on('exit', () => this.gone(helper, 'the git helper stopped unexpectedly'));
    return helper;
  }

  private expire(id: number, helper: ChildProcess): void {
    const entry = this.pending.get(id);
    if (!entry) return;
    killGit(entry.gitPid);
    this.settle(id, { stdout: '', stderr: '', error: { code: null, killed: true, message: 'no answer from the git helper' } });
    if (this.helper === helper) helper.kill('SIGKILL');
  }

  /** The helper ended: its requests fail as "could not run" and the git processes it ran are killed. */
  private gone(helper: ChildProcess, reason: string): void {
    if (this.helper !== helper) return;
    this.helper = null;
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    for (const [id, entry] of [...this.pending]) {
      killGit(entry.gitPid);
      this.settle(id, couldNotRun(reason));
    }
  }

  private settle(id: number, outcome: SpawnOutcome): void {
    const entry = this.pending.get(id);
    if (!entry) return;
    this.pending.delete(id);
    clearTimeout(entry.deadline);
    entry.resolve(outcome);
    if (this.pending.size === 0 && this.helper) this.idle(this.helper);
  }

  private busy(helper: ChildProcess): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    // While a request is out, the server waits for its answer like it waited for git.
    helper.ref();
    helper.channel?.ref();
  }

  private idle(helper: ChildProcess): void {
    helper.unref();
    helper.channel?.unref();
    this.idleTimer = setTimeout(() => {
      if (this.helper === helper && this.pending.size === 0) {
        // Closing the channel is the helper's signal to exit (it has nothing running).
        this.helper = null;
        helper.disconnect();
      }
    }, this.options.idleMs ?? IDLE_MS);
    this.idleTimer.unref();
  }
}

function killGit(pid: number | null): void {
  if (pid === null) return;
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // Already ended.
  }
}

function couldNotRun(message: string): SpawnOutcome {
  return { stdout: '', stderr: '', error: { code: null, killed: false, message } };
}

const spawner = new GitSpawner();

/** Runs `request.file` through the helper process, with execFile's semantics (see the top of this file). */
export function spawnThroughHelper(request: SpawnRequest): Promise<SpawnOutcome> {
  return spawner.run(request);
}

/** Ends the idle git helper of this copy of the module now (GitSpawner.close). */
export function closeGitHelper(): void {
  spawner.close();
}
