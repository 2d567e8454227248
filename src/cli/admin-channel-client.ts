import * as fs from 'node:fs';
import * as net from 'node:net';
import type { AppConfig } from '../config/app-config';
import { embeddedDatabaseOwner } from '../database/embedded-lock';
import { adminSocketPath, type AdminReply } from './admin-channel-protocol';

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
 * When a server has the embedded database under DATA_DIR open (its lock names a live process) and serves the
 * admin channel, runs the command there (src/cli/admin-channel.ts) and answers its exit code. Answers
 * undefined when the command should run in this process: PostgreSQL, no server running, or a server that does
 * not answer on the channel (the command then reports the database as in use, as before).
 */
export async function forwardToRunningServer(config: AppConfig, argv: readonly string[], io: Output): Promise<number | undefined> {
  if (config.databaseUrl) return undefined;
  if (embeddedDatabaseOwner(config.dataDir) === null) return undefined;
  const socketPath = adminSocketPath(config.dataDir);
  if (!fs.existsSync(socketPath)) return undefined;
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
