import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { Client } from 'pg';
import { DataSource } from 'typeorm';

// Which live process is working on what (issue 10, items 7 and 10): a repository whose git was killed keeps
// its `.git/index.lock`, and a task whose process was killed stays "running". Both may only be recovered
// when no live process still works on them, and several processes may share one database (and DATA_DIR).
//
// A claim is a session-level PostgreSQL advisory lock taken on a connection of its own: PostgreSQL ends the
// session of a process that dies (SIGKILL included: the kernel closes its socket) and drops its locks with
// it, so "nobody holds the lock" means "no live process works on this". Processes take claims shared (several
// may work in one repository at once, as before); the recovery of a stale state holds the key exclusively
// for its duration, so nobody starts working while it repairs, and nobody's work is repaired under them.
//
// The embedded database serves a single process (its DATA_DIR lock refuses a second one) and has a single
// session, so there the claims are kept in this process only, which is then the whole truth.

/** Ends a claim (once; later calls do nothing). */
export type ReleaseClaim = () => Promise<void>;

type Mode = 'local' | 'postgres';

/** A key held by a recovery in another process is tried again after this long (recoveries are short). */
const CONTENDED_RETRY_MS = 20;

/** 64-bit advisory lock key of a claim name; names are namespaced ("repository:…", "task:…"). */
export function claimKey(name: string): string {
  return createHash('sha256').update(`glossa:${name}`).digest().readBigInt64BE(0).toString();
}

@Injectable()
export class ProcessClaims implements OnApplicationShutdown {
  private readonly logger = new Logger(ProcessClaims.name);
  /** Claims this process holds, by name (a name may be claimed more than once). */
  private readonly held = new Map<string, number>();
  /** The claim being granted per name (see claim()). */
  private readonly acquiring = new Map<string, Promise<void>>();
  private mode: Promise<Mode> | undefined;
  private connection: Promise<Client> | undefined;
  /** The connected client whose session holds the advisory locks of `held`. */
  private session: Client | undefined;
  private closed = false;

  constructor(private readonly dataSource: DataSource) {}

  /**
   * Marks `name` as worked on by this process until the returned function is called. When no live process
   * (this one included) has it claimed, `whenUnclaimed` runs first while the name is held exclusively: no
   * other claim on it (here or in another process) is granted meanwhile, so whatever it finds left over was
   * left by a dead process.
   */
  async claim(name: string, whenUnclaimed?: () => Promise<void>): Promise<ReleaseClaim> {
    // Claims of one name are granted one after the other in this process, so two of them never both believe
    // they are alone (on PostgreSQL one session's locks never conflict with each other).
    const previous = this.acquiring.get(name) ?? Promise.resolve();
    const mine = previous.catch(() => undefined).then(() => this.acquire(name, whenUnclaimed));
    this.acquiring.set(name, mine);
    try {
      await mine;
    } finally {
      if (this.acquiring.get(name) === mine) this.acquiring.delete(name);
    }
    let released = false;
    return async () => {
      if (released) return;
      released = true;
      const count = (this.held.get(name) ?? 0) - 1;
      if (count > 0) this.held.set(name, count);
      else this.held.delete(name);
      if ((await this.currentMode()) === 'postgres') await this.unlockShared(name);
    };
  }

  private async acquire(name: string, whenUnclaimed: (() => Promise<void>) | undefined): Promise<void> {
    const alone = !this.held.has(name);
    if ((await this.currentMode()) === 'postgres') await this.lockShared(name, alone ? whenUnclaimed : undefined);
    else if (alone) await whenUnclaimed?.();
    this.held.set(name, (this.held.get(name) ?? 0) + 1);
  }

  async onApplicationShutdown(): Promise<void> {
    this.closed = true;
    const session = this.session;
    this.session = undefined;
    this.connection = undefined;
    await session?.end().catch(() => undefined);
  }

  private async lockShared(name: string, whenUnclaimed: (() => Promise<void>) | undefined): Promise<void> {
    const key = claimKey(name);
    for (;;) {
      const client = await this.client();
      if (whenUnclaimed) {
        const [{ alone }] = (await client.query<{ alone: boolean }>('SELECT pg_try_advisory_lock($1::bigint) AS alone', [key])).rows;
        if (alone) {
          try {
            await whenUnclaimed();
            // Shared first, then the exclusive lock goes: there is no moment in which another process could
            // take it exclusively and repair under us.
            await client.query('SELECT pg_advisory_lock_shared($1::bigint)', [key]);
          } finally {
            await client.query('SELECT pg_advisory_unlock($1::bigint)', [key]).catch(() => undefined);
          }
          return;
        }
      }
      const [{ shared }] = (await client.query<{ shared: boolean }>('SELECT pg_try_advisory_lock_shared($1::bigint) AS shared', [key])).rows;
      if (shared) return;
      // Another process holds it exclusively while it recovers it. Never block the claims connection on that
      // (it serves every claim of this process): try again shortly.
      await new Promise((resolve) => setTimeout(resolve, CONTENDED_RETRY_MS));
    }
  }

  private async unlockShared(name: string): Promise<void> {
    const session = this.session;
    if (!session) return; // The session is gone, and its locks with it.
    try {
      await session.query('SELECT pg_advisory_unlock_shared($1::bigint)', [claimKey(name)]);
    } catch (error) {
      this.logger.warn(`Could not release the claim on ${name}: ${(error as Error).message}`);
    }
  }

  private currentMode(): Promise<Mode> {
    this.mode ??= this.detectMode().catch((error: unknown) => {
      this.mode = undefined;
      throw error;
    });
    return this.mode;
  }

  private async detectMode(): Promise<Mode> {
    if (!this.url()) return 'local';
    const [{ version }]: Array<{ version: string }> = await this.dataSource.query('SELECT version() AS version');
    return /PGlite|emscripten/i.test(version) ? 'local' : 'postgres';
  }

  private url(): string | undefined {
    return (this.dataSource.options as { url?: string }).url;
  }

  /** The claims connection, opened on first use and again after it was lost. */
  private client(): Promise<Client> {
    if (this.closed) return Promise.reject(new Error('The claims connection is closed.'));
    this.connection ??= this.connect().catch((error: unknown) => {
      this.connection = undefined;
      throw error;
    });
    return this.connection;
  }

  private async connect(): Promise<Client> {
    const client = new Client({ connectionString: this.url(), application_name: 'glossa-claims' });
    const lost = (error?: Error): void => {
      if (this.session !== client) return;
      this.session = undefined;
      this.connection = undefined;
      if (this.closed) return;
      this.logger.warn(`The claims connection was lost${error ? ` (${error.message})` : ''}; reconnecting`);
      // The session's locks went with it: take this process's claims back at once, before another process
      // could mistake their work for abandoned.
      if (this.held.size > 0) void this.client().catch((reason: unknown) => this.logger.error(`Could not reconnect the claims connection: ${(reason as Error).message}`));
    };
    client.on('error', lost);
    client.on('end', () => lost());
    await client.connect();
    for (const [name, count] of this.held) {
      for (let i = 0; i < count; i++) await client.query('SELECT pg_advisory_lock_shared($1::bigint)', [claimKey(name)]);
    }
    this.session = client;
    return client;
  }
}
