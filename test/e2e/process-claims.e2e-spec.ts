import { DataSource } from 'typeorm';
import { ProcessClaims } from '../../src/jobs/process-claims';
import { createTestDatabase, type TestDatabase } from '../support/test-database';
import { pollUntil } from '../support/wait';

// ProcessClaims is what lets one process tell that another, sharing the database, is alive and working on
// a repository or a task (issue 10, items 7 and 10). Two instances on two connection pools stand for two
// processes; closing one stands for its death (PostgreSQL drops a dead session's locks the same way).
const realPostgres = Boolean(process.env.GLOSSA_TEST_SERVER_URL);

(realPostgres ? describe : describe.skip)('ProcessClaims across processes', () => {
  let database: TestDatabase;
  const sources: DataSource[] = [];
  const instances: ProcessClaims[] = [];

  async function processOnDatabase(): Promise<ProcessClaims> {
    const dataSource = new DataSource({ type: 'postgres', url: database.url, poolSize: 1 });
    await dataSource.initialize();
    sources.push(dataSource);
    const claims = new ProcessClaims(dataSource);
    instances.push(claims);
    return claims;
  }

  /** Whether `claims` finds `name` unclaimed (its recovery callback runs). */
  async function findsUnclaimed(claims: ProcessClaims, name: string): Promise<boolean> {
    let unclaimed = false;
    const release = await claims.claim(name, async () => {
      unclaimed = true;
    });
    await release();
    return unclaimed;
  }

  beforeAll(async () => {
    database = await createTestDatabase();
  });

  afterAll(async () => {
    for (const claims of instances) await claims.onApplicationShutdown();
    for (const dataSource of sources) await dataSource.destroy();
    await database?.drop();
  });

  it('sees the claims of a live process, and none once it is gone', async () => {
    const a = await processOnDatabase();
    const b = await processOnDatabase();
    const releaseA = await a.claim('repository:/data/vcs/p/c');
    expect(await findsUnclaimed(b, 'repository:/data/vcs/p/c')).toBe(false);
    // Its own claim does not make a process think someone else works there; other names are free.
    expect(await findsUnclaimed(a, 'repository:/data/vcs/p/c')).toBe(false);
    expect(await findsUnclaimed(b, 'repository:/data/vcs/p/other')).toBe(true);
    await releaseA();
    expect(await findsUnclaimed(b, 'repository:/data/vcs/p/c')).toBe(true);

    await a.claim('task:1');
    await a.claim('task:1');
    expect(await findsUnclaimed(b, 'task:1')).toBe(false);
    // The process dies without releasing anything: its session ends and its claims with it.
    await a.onApplicationShutdown();
    expect(await findsUnclaimed(b, 'task:1')).toBe(true);
  });

  it('grants no claim, in any process, while a recovery of the name runs', async () => {
    const a = await processOnDatabase();
    const b = await processOnDatabase();
    const events: string[] = [];
    let finishRecovery!: () => void;
    let recoveryStarted!: () => void;
    const started = new Promise<void>((resolve) => (recoveryStarted = resolve));
    const recovering = a.claim('repository:/data/vcs/p/c', async () => {
      events.push('recovery started');
      recoveryStarted();
      await new Promise<void>((resolve) => (finishRecovery = resolve));
      events.push('recovery finished');
    });
    await started;
    const claimedElsewhere = b.claim('repository:/data/vcs/p/c').then((release) => {
      events.push('other process claimed');
      return release;
    });
    const claimedHere = a.claim('repository:/data/vcs/p/c').then((release) => {
      events.push('same process claimed');
      return release;
    });
    // The other process has asked (its claims session's last statement) and was refused: it is waiting.
    await pollUntil(async () => {
      const asked: Array<{ n: number }> = await sources[0].query(
        `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'glossa-claims'
            AND query LIKE '%pg_try_advisory_lock_shared%'`,
      );
      return asked[0].n > 0 ? true : undefined;
    }, 'the other process asking for the claim', { lastSeen: () => events });
    expect(events).toEqual(['recovery started']);
    finishRecovery();
    const releases = await Promise.all([recovering, claimedElsewhere, claimedHere]);
    expect(events[0]).toBe('recovery started');
    expect(events[1]).toBe('recovery finished');
    expect(events.slice(2).sort()).toEqual(['other process claimed', 'same process claimed']);
    for (const release of releases) await release();
    expect(await findsUnclaimed(b, 'repository:/data/vcs/p/c')).toBe(true);
  });
});
