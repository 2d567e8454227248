import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { EMBEDDED_HEAP_FLAGS, POSTGRES_HEAP_FLAGS } from '../../src/bootstrap/heap-flags';
import { compileServer, eventually, freePort, npmStartArguments, ServerProcess } from '../support/server-process';
import { createTestDatabase, type TestDatabase } from '../support/test-database';
import { TEST_ADMIN_TOKEN } from '../support/test-app';
import { PATIENCE_MS } from '../support/wait';

// `npm start` on PostgreSQL (README "Running on PostgreSQL", "Memory"): package.json's start line carries the
// embedded database's heap limits, and src/start.ts runs the server in a child with PostgreSQL's, passing
// signals and the exit status through. (On the embedded database it runs the server in its own process:
// embedded-start.e2e-spec.ts runs the same line and finds its own pid in the database's lock file.)
const realPostgres = Boolean(process.env.GLOSSA_TEST_SERVER_URL);

/** `node <flags> dist/start.js`, exactly package.json's start line. */
class NpmStart extends ServerProcess {
  protected override nodeArguments(): string[] {
    return npmStartArguments();
  }
}

/** A Linux process's command line, as its words. */
function commandLineOf(pid: number): string[] {
  return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
}

/** The pids of a process's children (Linux). */
function childrenOf(pid: number): number[] {
  return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').split(/\s+/).filter(Boolean).map(Number);
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

(realPostgres ? describe : describe.skip)('npm start on PostgreSQL', () => {
  let database: TestDatabase;
  let dataDir: string;
  let env: Record<string, string>;

  beforeAll(async () => {
    await compileServer();
    database = await createTestDatabase();
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'glossa-npm-start-'));
    env = { DATABASE_URL: database.url, DATA_DIR: dataDir, DEMO: 'false', ADMIN_TOKEN: TEST_ADMIN_TOKEN, SITE_URL: 'http://glossa.test' };
  });

  afterAll(async () => {
    await database?.drop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it("serves from a child with PostgreSQL's heap limits, and stops it on SIGTERM", async () => {
    const server = new NpmStart(await freePort(), env);
    try {
      await server.start();
      const isMemoryFlag = (word: string): boolean => word.startsWith('--max-') || word.startsWith('--v8-pool-size');
      expect(commandLineOf(server.pid).filter(isMemoryFlag)).toEqual([...EMBEDDED_HEAP_FLAGS]);
      const [child, ...others] = childrenOf(server.pid);
      expect(others).toEqual([]);
      const childLine = commandLineOf(child);
      expect(childLine.filter(isMemoryFlag)).toEqual([...POSTGRES_HEAP_FLAGS]);
      expect(childLine).toContain('--no-concurrent-recompilation');
      expect(path.relative(process.cwd(), childLine[childLine.length - 1])).toBe(path.join('dist', 'main.js'));
      const api = await server.fetch('/api/projects/', { headers: { Authorization: `Token ${TEST_ADMIN_TOKEN}` } });
      expect(api.status).toBe(200);

      expect(await server.stop()).toBe(0);
      await eventually(async () => (isRunning(child) ? undefined : true), PATIENCE_MS, 'the server child to exit');
      expect(server.output).toContain('SIGTERM received, shutting down');
    } finally {
      // SIGTERM, not SIGKILL: the parent passes it on, so a failed assertion above leaves no server child behind.
      await server.stop();
    }
  });

  it("ends with the server's exit status", async () => {
    // A setting the server refuses at start (config error: exit status 2, app-config.ts), after the relaunch.
    const server = new NpmStart(await freePort(), { ...env, DATABASE_POOL_SIZE: 'many' });
    try {
      expect(await server.spawn()).toBe(2);
      expect(server.output).toContain('DATABASE_POOL_SIZE');
    } finally {
      await server.kill();
    }
  });
});
