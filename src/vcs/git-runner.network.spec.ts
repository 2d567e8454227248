import { Logger } from '@nestjs/common';
import { rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import * as path from 'node:path';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { parseAddress } from '../common/net/network-address';
import { GitCommandError, GitNetworkError, networkFailureMessage, runGit, type NetworkAccess } from './git-runner';
import {
  ANY_HOST,
  PRIVATE_HOST_MESSAGE,
  PUBLIC_HOSTS_ONLY,
  parsePrivateHostSetting,
  pinnedSshCommand,
  type HostLookup,
} from './repository-host-policy';
import { createGitSandbox, type GitSandbox } from './testing/git-sandbox';

// The network side of runGit (issue 10 item 6) against real HTTP servers on 127.0.0.1 standing in for
// internal services: what git may reach, where it connects, and what a failure says.

interface Recorder {
  server: Server;
  port: number;
  requests: string[];
}

/** An HTTP server on 127.0.0.1 that records each request and answers with `respond`. */
async function listen(respond: (url: string) => { status: number; headers?: Record<string, string> }): Promise<Recorder> {
  const requests: string[] = [];
  const server = createServer((request, response) => {
    requests.push(request.url ?? '');
    const { status, headers } = respond(request.url ?? '');
    response.writeHead(status, headers).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port, requests };
}

/** A port nothing listens on: bound, then released. */
async function closedPort(): Promise<number> {
  const probe = await listen(() => ({ status: 200 }));
  await new Promise((resolve) => probe.server.close(resolve));
  return probe.port;
}

const lsRemote = (url: string, network: Omit<NetworkAccess, 'urls' | 'direction'>): Promise<unknown> =>
  runGit(['ls-remote', '--', url], { network: { urls: [url], direction: 'fetch', ...network }, timeoutMs: 30_000 }).catch((error) => error);

describe('runGit network commands', () => {
  const servers: Server[] = [];
  let internal: Recorder;

  beforeAll(async () => {
    Logger.overrideLogger(false);
    internal = await listen(() => ({ status: 200 }));
    servers.push(internal.server);
  });
  afterAll(async () => {
    for (const server of servers) await new Promise((resolve) => server.close(resolve));
  });

  it('refuses a loopback host before git runs, with the one fetch message', async () => {
    const error = await lsRemote(`http://127.0.0.1:${internal.port}/repo.git`, { policy: PUBLIC_HOSTS_ONLY });
    expect(error).toBeInstanceOf(GitNetworkError);
    expect((error as GitNetworkError).message).toBe(networkFailureMessage('fetch'));
    expect((error as GitNetworkError).detail).toBe(PRIVATE_HOST_MESSAGE);
    expect(internal.requests).toEqual([]);
  });

  it('refuses a public-looking name that resolves to loopback', async () => {
    const lookup: HostLookup = async () => ['127.0.0.1'];
    const error = await lsRemote(`http://git.example.org:${internal.port}/repo.git`, { policy: PUBLIC_HOSTS_ONLY, lookup });
    expect(error).toBeInstanceOf(GitNetworkError);
    expect(internal.requests).toEqual([]);
  });

  it('connects to the checked address and does not follow a redirect to an internal service', async () => {
    // "git.partner.test" is allowed by name and resolves (in this test) to 127.0.0.1, where a server
    // redirects every request to another internal port: git must reach the first and never the second.
    const target = await listen(() => ({ status: 200 }));
    const redirecting = await listen((url) => ({ status: 301, headers: { Location: `http://127.0.0.1:${target.port}${url}` } }));
    servers.push(target.server, redirecting.server);
    const { policy } = parsePrivateHostSetting('git.partner.test');
    const lookup: HostLookup = async (host) => (host === 'git.partner.test' ? ['127.0.0.1'] : []);

    const error = await lsRemote(`http://git.partner.test:${redirecting.port}/repo.git`, { policy, lookup });
    expect(error).toBeInstanceOf(GitNetworkError);
    expect((error as GitNetworkError).message).toBe(networkFailureMessage('fetch'));
    // Reached through the pinned address: the system resolver does not know the name at all.
    expect(redirecting.requests).toEqual(['/repo.git/info/refs?service=git-upload-pack']);
    expect(target.requests).toEqual([]);
    expect((error as GitNetworkError).detail).toContain('301');
  });

  it('pins ssh to the checked address too', async () => {
    // A TCP server standing in for an ssh server: it records what the client says first, then hangs up.
    const greetings: string[] = [];
    const sshServer = createNetServer((socket) => {
      socket.once('data', (chunk) => {
        greetings.push(chunk.toString('latin1').split('\r\n')[0]);
        socket.destroy();
      });
    });
    await new Promise<void>((resolve) => sshServer.listen(0, '127.0.0.1', resolve));
    servers.push(sshServer as unknown as Server);
    const port = (sshServer.address() as AddressInfo).port;
    const { policy } = parsePrivateHostSetting('git.partner.test');
    const lookup: HostLookup = async (host) => (host === 'git.partner.test' ? ['127.0.0.1'] : []);
    const env = { GIT_SSH: process.env.GIT_SSH, GIT_SSH_COMMAND: process.env.GIT_SSH_COMMAND };
    delete process.env.GIT_SSH;
    delete process.env.GIT_SSH_COMMAND;
    try {
      const error = await lsRemote(`ssh://git@git.partner.test:${port}/repo.git`, { policy, lookup });
      expect(error).toBeInstanceOf(GitNetworkError);
    } finally {
      Object.assign(process.env, Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined)));
    }
    // ssh reached the server although the system resolver does not know the name.
    expect(greetings).toEqual([expect.stringMatching(/^SSH-2\.0-/)]);
    expect(pinnedSshCommand(policy, [{ target: { scheme: 'ssh', host: 'git.partner.test', port }, addresses: [parseAddress('127.0.0.1')!] }]))
      .toBe(`ssh -o BatchMode=yes -o 'HostName=127.0.0.1' -o 'HostKeyAlias=[git.partner.test]:${port}'`);
  });

  it('says the same whether the port is open or closed (private hosts allowed)', async () => {
    const open = await listen(() => ({ status: 404 }));
    servers.push(open.server);
    const closed = await closedPort();
    const openError = (await lsRemote(`http://127.0.0.1:${open.port}/repo.git`, { policy: ANY_HOST })) as GitNetworkError;
    const closedError = (await lsRemote(`http://127.0.0.1:${closed}/repo.git`, { policy: ANY_HOST })) as GitNetworkError;
    expect(open.requests).toHaveLength(1);
    expect(openError).toBeInstanceOf(GitNetworkError);
    expect(closedError).toBeInstanceOf(GitNetworkError);
    expect(openError.message).toBe(closedError.message);
    expect(`${openError.message}${openError.stderr}${openError.stdout}`).not.toContain(String(open.port));
    // The server log gets the difference.
    expect(openError.detail).not.toBe(closedError.detail);
  });

  it('reports push failures with their own fixed text', async () => {
    const error = await runGit(['ls-remote', '--', 'http://10.0.0.1/repo.git'], {
      network: { urls: ['http://10.0.0.1/repo.git'], direction: 'push', policy: PUBLIC_HOSTS_ONLY },
    }).catch((e) => e);
    expect(error.message).toBe(networkFailureMessage('push'));
  });

  describe('with a local repository', () => {
    let sandbox: GitSandbox;
    beforeAll(async () => {
      sandbox = await createGitSandbox({ 'README.md': 'hello\n' });
    });
    afterAll(() => sandbox.cleanup());

    it('keeps git\'s own words: there is no network to map', async () => {
      const missing = `${sandbox.root}/missing.git`;
      const error = await runGit(['ls-remote', '--', missing], {
        allowLocal: true,
        network: { urls: [missing], direction: 'fetch', policy: PUBLIC_HOSTS_ONLY },
      }).catch((e) => e);
      expect(error).toBeInstanceOf(GitCommandError);
      expect(error).not.toBeInstanceOf(GitNetworkError);
      expect(error.message).toContain('does not appear to be a git repository');
      const { stdout } = await runGit(['ls-remote', '--', sandbox.upstream], {
        allowLocal: true,
        network: { urls: [sandbox.upstream], direction: 'fetch', policy: PUBLIC_HOSTS_ONLY },
      });
      expect(stdout).toContain('refs/heads/main');
    });

    it('turns the working copy path in error texts into "."', async () => {
      const seed = path.join(sandbox.root, 'seed');
      await writeFile(path.join(seed, '.git', 'index.lock'), '');
      try {
        const error = await runGit(['add', '--', 'README.md'], { cwd: seed }).catch((e) => e);
        expect(error).toBeInstanceOf(GitCommandError);
        expect(error.message).toContain("Unable to create './.git/index.lock'");
        expect(`${error.message}${error.stderr}`).not.toContain(sandbox.root);
      } finally {
        await rm(path.join(seed, '.git', 'index.lock'));
      }
    });
  });
});
