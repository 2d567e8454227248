import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import type { AppConfig } from '../config/app-config';
import { EMBEDDED_LOCK_FILE } from '../database/embedded-lock';
import { forwardToRunningServer } from './admin-channel-client';
import { ADMIN_STARTING_FILE, adminSocketPath } from './admin-channel-protocol';

// A command started while the server that owns DATA_DIR is still starting (no admin channel yet) waits for
// the channel instead of opening the database itself. The "owner" here is a real live process (a sleeping
// child), the "server" a socket that answers the channel's protocol once it is opened.

describe('forwardToRunningServer while the owner is starting', () => {
  let dir: string;
  let owner: ChildProcess;
  let channel: net.Server | undefined;
  const config = (): AppConfig => ({ databaseUrl: undefined, dataDir: dir }) as AppConfig;

  /** Collects the command's output and resolves `waiting` when the command reports that it waits. */
  function output() {
    const lines: string[] = [];
    let reportWaiting!: () => void;
    const waiting = new Promise<void>((resolve) => (reportWaiting = resolve));
    const io = {
      out: (line: string) => lines.push(line),
      err: (line: string) => {
        lines.push(line);
        if (line.startsWith('Waiting for the server')) reportWaiting();
      },
    };
    return { io, lines, waiting };
  }

  beforeEach(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'glossa-admin-client-'));
    owner = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    await new Promise((resolve) => owner.once('spawn', resolve));
    writeFileSync(path.join(dir, EMBEDDED_LOCK_FILE), String(owner.pid));
  });
  afterEach(async () => {
    if (owner.exitCode === null && owner.signalCode === null) {
      const exited = new Promise((resolve) => owner.once('exit', resolve));
      owner.kill('SIGKILL');
      await exited;
    }
    if (channel) await new Promise((resolve) => channel!.close(resolve));
    channel = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  it('runs the command on the server once its admin channel opens', async () => {
    const { io, lines, waiting } = output();
    const forwarded = forwardToRunningServer(config(), ['createadmin'], io);
    await waiting;
    channel = net.createServer((socket) => {
      socket.once('data', (request) => {
        expect(JSON.parse(request.toString('utf8'))).toEqual({ argv: ['createadmin'] });
        socket.end(`${JSON.stringify({ out: 'Created' })}\n${JSON.stringify({ exit: 0 })}\n`);
      });
    });
    await new Promise<void>((resolve) => channel!.listen(adminSocketPath(dir), resolve));
    await expect(forwarded).resolves.toBe(0);
    expect(lines).toEqual([`Waiting for the server (process ${owner.pid}) to finish starting…`, 'Created']);
  });

  it('runs the command here when the owner goes away while it waits', async () => {
    const { io, waiting } = output();
    const forwarded = forwardToRunningServer(config(), ['createadmin'], io);
    await waiting;
    owner.kill('SIGKILL');
    await expect(forwarded).resolves.toBeUndefined();
  });

  it('runs the command here when no channel opens in time (another command has the database open)', async () => {
    const { io } = output();
    await expect(forwardToRunningServer(config(), ['createadmin'], io, 0)).resolves.toBeUndefined();
  });

  it('waits past its bound for an owner marked as a starting server, until the channel opens', async () => {
    writeFileSync(path.join(dir, ADMIN_STARTING_FILE), String(owner.pid));
    const { io, lines, waiting } = output();
    // A bound of 0: without the mark the command would give up at once (the test above).
    const forwarded = forwardToRunningServer(config(), ['createadmin'], io, 0);
    await waiting;
    channel = net.createServer((socket) => socket.once('data', () => socket.end(`${JSON.stringify({ out: 'Created' })}\n${JSON.stringify({ exit: 0 })}\n`)));
    await new Promise<void>((resolve) => channel!.listen(adminSocketPath(dir), resolve));
    await expect(forwarded).resolves.toBe(0);
    expect(lines).toEqual([`Waiting for the server (process ${owner.pid}) to finish starting…`, 'Created']);
  });

  it('gives up on its bound when the mark names another process than the owner', async () => {
    writeFileSync(path.join(dir, ADMIN_STARTING_FILE), String(process.pid));
    const { io } = output();
    await expect(forwardToRunningServer(config(), ['createadmin'], io, 0)).resolves.toBeUndefined();
  });

  it('does not wait when no process owns the directory', async () => {
    rmSync(path.join(dir, EMBEDDED_LOCK_FILE));
    const { io, lines } = output();
    await expect(forwardToRunningServer(config(), ['createadmin'], io)).resolves.toBeUndefined();
    expect(lines).toEqual([]);
  });
});
