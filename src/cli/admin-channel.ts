import type { INestApplicationContext } from '@nestjs/common';
import * as fs from 'node:fs';
import * as net from 'node:net';
import { DataSource } from 'typeorm';
import type { AppConfig } from '../config/app-config';
import { adminSocketPath, type AdminReply, MAX_ADMIN_REQUEST_BYTES, parseAdminRequest } from './admin-channel-protocol';
import { importIntoApp } from './import-component';
import type { CliBackend } from './program';
import { runCli } from './run-cli';

/**
 * The admin channel (issue 15 "The first hour"): while the server has the embedded database open, no other
 * process can (PGlite has one session and one owner, stack-evaluation.md §5), so `npx glossa <command>` sends
 * its command line here and the server runs it on its own connection and application, streaming the output
 * back. The channel is a Unix socket under DATA_DIR with mode 0600: whoever may connect to it may already
 * read and write the database files beside it, so it grants nothing new. PostgreSQL deployments do not need
 * it (every process opens its own connection) and do not start it.
 */
export interface AdminChannel {
  /** The socket's path, or null when the channel could not be started (see the log line). */
  readonly path: string | null;
  close(): Promise<void>;
}

/** Linux's sun_path holds 108 bytes (macOS 104) including the terminating NUL. */
const MAX_SOCKET_PATH_BYTES = 103;

function serverBackend(app: INestApplicationContext, config: AppConfig): CliBackend {
  return {
    // The server migrated at start; `migrate` then finds nothing pending, as it should.
    withDataSource: (work) => work(app.get(DataSource)),
    importComponent: (options) => importIntoApp(app, config, options),
  };
}

export async function startAdminChannel(app: INestApplicationContext, config: AppConfig, warn: (message: string) => void): Promise<AdminChannel> {
  const socketPath = adminSocketPath(config.dataDir);
  if (Buffer.byteLength(socketPath) > MAX_SOCKET_PATH_BYTES) {
    warn(`Admin channel off: ${socketPath} is longer than a Unix socket path may be; stop the server to use the admin CLI.`);
    return { path: null, close: async () => undefined };
  }
  // This process holds the database lock, so a socket file left here is from a server that was killed.
  fs.rmSync(socketPath, { force: true });
  // Commands run one at a time, as they would one after another from a shell.
  let queue: Promise<unknown> = Promise.resolve();
  const backend = serverBackend(app, config);
  const server = net.createServer((socket) => {
    let buffered = '';
    let started = false;
    const reply = (message: AdminReply): void => {
      if (!socket.destroyed) socket.write(`${JSON.stringify(message)}\n`);
    };
    socket.setEncoding('utf8');
    socket.on('error', () => socket.destroy());
    socket.on('data', (chunk: string) => {
      if (started) return;
      buffered += chunk;
      const newline = buffered.indexOf('\n');
      if (newline < 0 && buffered.length <= MAX_ADMIN_REQUEST_BYTES) return;
      started = true;
      const argv = newline < 0 ? null : parseAdminRequest(buffered.slice(0, newline));
      if (!argv) {
        reply({ err: 'error: the admin channel expects one JSON line {"argv": [...]} of at most 64 KiB' });
        reply({ exit: 1 });
        socket.end();
        return;
      }
      const io = { out: (line: string) => reply({ out: line }), err: (line: string) => reply({ err: line }), progress: (percent: number) => reply({ progress: percent }) };
      queue = queue
        .then(() => runCli(argv, () => config, io, backend))
        .then((code) => {
          reply({ exit: code });
          socket.end();
        });
    });
  });
  const previousUmask = process.umask(0o177);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(socketPath, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } finally {
    process.umask(previousUmask);
  }
  fs.chmodSync(socketPath, 0o600);
  return {
    path: socketPath,
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await queue;
      fs.rmSync(socketPath, { force: true });
    },
  };
}
