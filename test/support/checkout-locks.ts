import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { open, readFile, unlink } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { processIsAlive } from '../../src/database/embedded-lock';
import { pollUntil } from './wait';

// Coordination between the Jest workers of one checkout (jest.config.cjs runs two): a plain lock for work
// only one worker may do at a time (the build), and a reader/writer pair for the embedded database's first
// start, which needs the machine's memory to itself (issue 15 item 5: `npm test` under 2 GB).
// Everything lives in the temp directory, named after the checkout, like the parse worker's transpiled copy
// (src/formats/parse-worker/worker-script.ts); an entry left by a killed process is ignored once it is gone.

// Jest runs from the repository root (jest.config.cjs); ESM test modules have no __dirname.
const CHECKOUT = createHash('sha256').update(process.cwd()).digest('hex').slice(0, 16);

const lockPath = (name: string): string => path.join(os.tmpdir(), `glossa-${name}-${CHECKOUT}.lock`);

/** The pid written in a lock file, 0 when there is none yet (a holder that has not written its id) or no file. */
async function holderOf(lockFile: string): Promise<number> {
  return Number((await readFile(lockFile, 'utf8').catch(() => '')).trim()) || 0;
}

/** The process that holds the lock file `name`, when it is another live process. */
async function otherHolder(name: string): Promise<number | undefined> {
  const holder = await holderOf(lockPath(name));
  return holder > 0 && holder !== process.pid && processIsAlive(holder) ? holder : undefined;
}

/**
 * Runs `work` while holding the lock file `name` of this checkout: the second worker waits for the first to
 * finish (an event: the lock file disappears). A lock left by a killed worker is taken over once its process
 * is gone.
 */
export async function withCheckoutLock<T>(name: string, holderWork: string, work: () => Promise<T>): Promise<T> {
  const lockFile = lockPath(name);
  await pollUntil(
    async () => {
      try {
        const handle = await open(lockFile, 'wx');
        await handle.writeFile(String(process.pid));
        await handle.close();
        return true;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        const holder = await holderOf(lockFile);
        // An empty file is a holder that has not written its id yet; a dead holder's lock is removed.
        if (holder > 0 && !processIsAlive(holder)) await unlink(lockFile).catch(() => undefined);
        return undefined;
      }
    },
    `the lock ${lockFile} (held by another Jest worker's ${holderWork})`,
  );
  try {
    return await work();
  } finally {
    await unlink(lockFile).catch(() => undefined);
  }
}

/**
 * The test files the Jest workers of this checkout are running, as files in one directory (`<worker pid>-file`;
 * test/setup/each-file.ts records one before a file's tests and removes it after them).
 *
 * A first start on the embedded database (PGlite's initdb child, 0.7–0.8 GB at its peak) runs while no other
 * worker runs a recorded file, and another worker's next file waits until it is over: so the run's peak is the
 * first start beside an idle worker, not beside a worker's in-process application and database (about 0.8 GB
 * together; issue 15 item 5: `npm test` under 2 GB). A file that does a first start stops being recorded from
 * then on: such a file (embedded-start, cli-embedded) runs only small processes beside its servers, and two of
 * them would otherwise wait for each other. Each side records itself before it looks at the other, so two that
 * begin at once cannot both go ahead.
 */
const RUNNING = path.join(os.tmpdir(), `glossa-running-${CHECKOUT}`);
const FIRST_START_LOCK = 'embedded-first-start';

/** Whether another live worker has a file recorded; drops the records of workers that are gone. */
function otherWorkerRunsAFile(): boolean {
  let entries: string[];
  try {
    entries = readdirSync(RUNNING);
  } catch {
    return false;
  }
  let found = false;
  for (const entry of entries) {
    const worker = Number(entry.split('-')[0]);
    if (!(worker > 0 && processIsAlive(worker))) rmSync(path.join(RUNNING, entry), { force: true });
    else if (worker !== process.pid) found = true;
  }
  return found;
}

let forgetFile: (() => void) | undefined;

function recordFile(): void {
  mkdirSync(RUNNING, { recursive: true });
  const entry = path.join(RUNNING, `${process.pid}-file`);
  writeFileSync(entry, '');
  forgetFile = () => rmSync(entry, { force: true });
}

/** Stops recording this worker's current file. */
export function leaveTestFile(): void {
  forgetFile?.();
  forgetFile = undefined;
}

/** Before a test file's tests: waits while another worker's first start runs, then records the file. */
export async function enterTestFile(): Promise<void> {
  for (;;) {
    recordFile();
    if ((await otherHolder(FIRST_START_LOCK)) === undefined) return;
    leaveTestFile();
    await pollUntil(
      async () => ((await otherHolder(FIRST_START_LOCK)) === undefined ? true : undefined),
      `the end of another Jest worker's embedded first start (${lockPath(FIRST_START_LOCK)})`,
    );
  }
}

/**
 * Runs `work` under the first-start lock, once no other worker runs a recorded file: a first start, or a step as
 * large as one (a fresh checkout's compile: tsc, about 0.4 GB; call it inside `outsideTestFile`). Session 9
 * measured the embedded run's peak (2.03 GB) at such a compile beside the other worker's application and database.
 */
export function asLargeStep<T>(holderWork: string, work: () => Promise<T>): Promise<T> {
  return withCheckoutLock(FIRST_START_LOCK, holderWork, async () => {
    await pollUntil(async () => (otherWorkerRunsAFile() ? undefined : true), `the end of another Jest worker's test file (recorded in ${RUNNING})`);
    return work();
  });
}

/** Runs an embedded first start (`work`) alone: under the first-start lock, once no other worker runs a recorded file. */
export function asEmbeddedFirstStart<T>(work: () => Promise<T>): Promise<T> {
  leaveTestFile();
  return asLargeStep('embedded first start', work);
}

/**
 * Runs `work` with this worker's file unrecorded, so that another worker's step that waits for it to be between
 * files (a first start, a compile) can go ahead meanwhile; records the file again afterwards (waiting, as a new
 * file would, for another worker's first start) if it was recorded before.
 */
export async function outsideTestFile<T>(work: () => Promise<T>): Promise<T> {
  const wasRecorded = forgetFile !== undefined;
  leaveTestFile();
  try {
    return await work();
  } finally {
    if (wasRecorded) await enterTestFile();
  }
}
