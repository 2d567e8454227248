import * as fs from 'node:fs';
import * as net from 'node:net';
import type { AppConfig } from '../config/app-config';
import { embeddedDatabaseOwner } from '../database/embedded-lock';
import { adminSocketPath, type AdminReply, startingServer } from './admin-channel-protocol';

interface Output {
  out(line: string): void;
  err(line: string): void;
}

interface ProgressBar {
  update(percent: number): void;
  stop(): void;
}

/** The same bar `glossa import` draws when it runs the import itself (cli-progress, loaded only when needed). */
async function progressBar(): Promise<ProgressBar> {
  const { SingleBar } = await import('cli-progress');
  const bar = new SingleBar({ format: 'Importing [{bar}] {percentage}%', hideCursor: true });
  bar.start(100, 0);
  return { update: (percent) => bar.update(percent), stop: () => bar.stop() };
}

/**
 * How long a command waits for the owner of DATA_DIR's lock to open an admin channel when the owner is not
 * marked as a starting server (admin-channel-protocol.ts): it may be another command running in-process.
 */
export const STARTING_SERVER_WAIT_MS = 120_000;
const POLL_MS = 100;

/**
 * Waits until the server that owns DATA_DIR's lock opens its admin channel: a server takes the lock before it
 * can answer (the first start holds it while its setup child builds the database, src/bootstrap/first-start.ts).
 * An owner marked as a starting server is waited for as long as it lives, however slow the machine; any other
 * owner for `waitMs`. Answers false when the owner went away or did not open a channel in time (e.g. another
 * CLI command runs the database in-process); the command then runs here and reports the database as in use.
 */
async function waitForAdminChannel(dataDir: string, socketPath: string, owner: number, io: Output, waitMs: number): Promise<boolean> {
  io.err(`Waiting for the server (process ${owner}) to finish starting…`);
  const deadline = Date.now() + waitMs;
  for (;;) {
    if (fs.existsSync(socketPath)) return true;
    if (embeddedDatabaseOwner(dataDir) === null) return false;
    if (Date.now() >= deadline && startingServer(dataDir) !== owner) return fs.existsSync(socketPath);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/**
 * When a server has the embedded database under DATA_DIR open (its lock names a live process) and serves the
 * admin channel, runs the command there (src/cli/admin-channel.ts) and answers its exit code. Answers
 * undefined when the command should run in this process: PostgreSQL, no server running, or a server that does
 * not answer on the channel (the command then reports the database as in use, as before). A server still
 * starting is waited for, up to `startingWaitMs`.
 */
export async function forwardToRunningServer(
  config: AppConfig,
  argv: readonly string[],
  io: Output,
  startingWaitMs = STARTING_SERVER_WAIT_MS,
): Promise<number | undefined> {
  if (config.databaseUrl) return undefined;
  const owner = embeddedDatabaseOwner(config.dataDir);
  if (owner === null) return undefined;
  const socketPath = adminSocketPath(config.dataDir);
  if (!fs.existsSync(socketPath) && !(await waitForAdminChannel(config.dataDir, socketPath, owner, io, startingWaitMs))) return undefined;
  let bar: Promise<ProgressBar> | undefined;
  const code = await new Promise<number | undefined>((resolve) => {
    let answered = false;
    let buffered = '';
    const socket = net.createConnection(socketPath, () => socket.write(`${JSON.stringify({ argv })}\n`));
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      answered = true;
      buffered += chunk;
      let newline: number;
      while ((newline = buffered.indexOf('\n')) >= 0) {
        const message = JSON.parse(buffered.slice(0, newline)) as AdminReply;
        buffered = buffered.slice(newline + 1);
        if ('out' in message) io.out(message.out);
        else if ('err' in message) io.err(message.err);
        else if ('progress' in message) {
          const percent = message.progress;
          bar ??= progressBar();
          void bar.then((b) => b.update(percent));
        } else if ('exit' in message) resolve(message.exit);
      }
    });
    socket.on('error', (error) => {
      if (!answered) resolve(undefined);
      else {
        io.err(`error: the server closed the admin channel: ${error.message}`);
        resolve(1);
      }
    });
    socket.on('close', () => {
      if (!answered) resolve(undefined);
      else resolve(1);
    });
  });
  if (bar) (await bar).stop();
  return code;
}
