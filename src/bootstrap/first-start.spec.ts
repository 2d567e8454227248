import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { AppConfig } from '../config/app-config';
import { EMBEDDED_LOCK_FILE, LOCK_HOLDER_ENV } from '../database/embedded-lock';
import { FIRST_START_CHILD_ENV, isFirstStartChild, prepareFirstStart } from './first-start';

// The child is a real process; the entry here is a small script standing in for dist/main.js, which the
// embedded-start e2e suite runs for real (first start, lock owner, demo data at once).

describe('prepareFirstStart', () => {
  let dir: string;
  const config = (overrides: Partial<AppConfig> = {}): AppConfig => ({ databaseUrl: undefined, dataDir: path.join(dir, 'data'), ...overrides }) as AppConfig;
  /**
   * A stand-in entry that records the variables it was started with and the lock owner it saw
   * ("<first-start> <holder> <lock file>"), then exits with `code`.
   */
  const entry = (code: number): string => {
    const file = path.join(dir, `entry-${code}.cjs`);
    const lock = JSON.stringify(path.join(dir, 'data', EMBEDDED_LOCK_FILE));
    writeFileSync(
      file,
      `const fs = require('fs'); const lock = fs.existsSync(${lock}) ? fs.readFileSync(${lock}, 'utf8') : 'none';` +
        `fs.writeFileSync(${JSON.stringify(path.join(dir, 'ran'))}, [process.env.${FIRST_START_CHILD_ENV}, process.env.${LOCK_HOLDER_ENV}, lock].join(' ')); process.exit(${code});`,
    );
    return file;
  };
  const lockOwner = (): string | null => {
    try {
      return readFileSync(path.join(dir, 'data', EMBEDDED_LOCK_FILE), 'utf8');
    } catch {
      return null;
    }
  };
  const ran = (): string | null => {
    try {
      return readFileSync(path.join(dir, 'ran'), 'utf8');
    } catch {
      return null;
    }
  };

  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'glossa-first-start-'));
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
    delete process.env[FIRST_START_CHILD_ENV];
  });

  /** A stand-in for PGlite's initdb that records the lock owner it ran under, and whether the entry had run. */
  const created: string[] = [];
  const createDataDirectory = async (dataDir: string): Promise<void> => {
    created.push(`${dataDir} ${lockOwner()} ${ran() ?? 'entry not run'}`);
  };
  const failingCreate = async (): Promise<void> => {
    throw new Error('initdb failed');
  };

  it('runs the entry in a child marked as the first-start child on a fresh embedded DATA_DIR, under this process lock', async () => {
    created.length = 0;
    await prepareFirstStart(config(), entry(0), createDataDirectory);
    // initdb first, in this process's turn under the lock, before the setup child.
    expect(created).toEqual([`${path.join(dir, 'data')} ${process.pid} entry not run`]);
    expect(ran()).toBe(`1 ${process.pid} ${process.pid}`);
    // Kept for the server's own start to take over, so no command can open the directory in between.
    expect(lockOwner()).toBe(String(process.pid));
  });

  it('starts no child and releases the lock when creating the data directory fails', async () => {
    await expect(prepareFirstStart(config(), entry(0), failingCreate)).rejects.toThrow('initdb failed');
    expect(ran()).toBeNull();
    expect(lockOwner()).toBeNull();
  });

  it('names the data directory and the exit code when the child fails, and releases the lock', async () => {
    await expect(prepareFirstStart(config(), entry(3), createDataDirectory)).rejects.toThrow(
      `The first start (creating the embedded database in ${path.join(dir, 'data')}) failed with exit code 3; see the messages above.`,
    );
    expect(lockOwner()).toBeNull();
  });

  it('starts no child on PostgreSQL, on an initialised directory, or inside the child itself', async () => {
    created.length = 0;
    await prepareFirstStart(config({ databaseUrl: 'postgres://127.0.0.1/x' }), entry(0), createDataDirectory);
    mkdirSync(path.join(dir, 'ready', 'pglite'), { recursive: true });
    writeFileSync(path.join(dir, 'ready', 'pglite', 'PG_VERSION'), '17\n');
    await prepareFirstStart(config({ dataDir: path.join(dir, 'ready') }), entry(0), createDataDirectory);
    process.env[FIRST_START_CHILD_ENV] = '1';
    expect(isFirstStartChild()).toBe(true);
    await prepareFirstStart(config(), entry(0), createDataDirectory);
    expect(ran()).toBeNull();
    expect(created).toEqual([]);
  });
});
