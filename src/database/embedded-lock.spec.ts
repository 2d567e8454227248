import { existsSync, linkSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { acquireLock, EMBEDDED_LOCK_FILE, EmbeddedDatabaseInUseError, LOCK_HOLDER_ENV } from './embedded-lock';

describe('acquireLock', () => {
  let dir: string;
  let lockPath: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'glossa-lock-'));
    lockPath = path.join(dir, EMBEDDED_LOCK_FILE);
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('writes this process id and removes the file on release', () => {
    const release = acquireLock(lockPath, {});
    expect(readFileSync(lockPath, 'utf8')).toBe(String(process.pid));
    release();
    expect(existsSync(lockPath)).toBe(false);
  });

  it('refuses a directory a live process holds, naming the process, with an error meant for the operator', () => {
    // The parent of this test process is alive and is not this process.
    writeFileSync(lockPath, String(process.ppid));
    expect(() => acquireLock(lockPath, {})).toThrow(EmbeddedDatabaseInUseError);
    expect(() => acquireLock(lockPath, {})).toThrow(`is in use by process ${process.ppid}.`);
    expect(readFileSync(lockPath, 'utf8')).toBe(String(process.ppid));
  });

  it('works under the lock its parent holds for it, and leaves that lock to the parent', () => {
    writeFileSync(lockPath, String(process.ppid));
    const release = acquireLock(lockPath, { [LOCK_HOLDER_ENV]: String(process.ppid) });
    release();
    expect(readFileSync(lockPath, 'utf8')).toBe(String(process.ppid));
  });

  it('refuses when the holder variable names another process than the lock owner', () => {
    writeFileSync(lockPath, String(process.ppid));
    expect(() => acquireLock(lockPath, { [LOCK_HOLDER_ENV]: String(process.ppid + 1) })).toThrow(EmbeddedDatabaseInUseError);
  });

  it('takes over a lock left by a dead process or held by this process itself', () => {
    writeFileSync(lockPath, '999999999');
    acquireLock(lockPath, {});
    expect(readFileSync(lockPath, 'utf8')).toBe(String(process.pid));
    acquireLock(lockPath, {});
    expect(readFileSync(lockPath, 'utf8')).toBe(String(process.pid));
  });

  it('keeps its own lock file in place when it takes it over (never a moment without the owner named)', () => {
    acquireLock(lockPath, {});
    // A second name for the same file: a lock removed and created again would be a new file with one name.
    linkSync(lockPath, path.join(dir, 'same-file'));
    const release = acquireLock(lockPath, {});
    expect(statSync(lockPath).nlink).toBe(2);
    rmSync(path.join(dir, 'same-file'));
    release();
    expect(existsSync(lockPath)).toBe(false);
  });

  it('creates the lock file with the pid in it, leaving no other file behind', () => {
    acquireLock(lockPath, {});
    expect(readdirSync(dir)).toEqual([EMBEDDED_LOCK_FILE]);
    expect(readFileSync(lockPath, 'utf8')).toBe(String(process.pid));
  });
});
