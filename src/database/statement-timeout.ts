import { AsyncLocalStorage } from 'node:async_hooks';
import { EntitySubscriberInterface, EventSubscriber, type TransactionStartEvent } from 'typeorm';

// Statement timeouts (issue 10 item 5: one anonymous search over a 64 MB string ran for 41 s and held a pool
// connection all along). Every connection of the application's pool starts with PostgreSQL's
// statement_timeout set to the API limit (a startup parameter, so no request pays an extra statement).
// Background work (job handlers, migrations, start-up tasks) runs inside runAsBackgroundWork(); each of
// its transactions begins with SET LOCAL statement_timeout = the background limit, since an import may
// legitimately take longer than any request should. Statements outside a transaction keep the API limit:
// the long ones of background work (unit writes, removals) all run in transactions.
//
// The embedded PGlite does not enforce statement_timeout: it has no timer interrupt (a query runs to its end
// and blocks the process's event loop meanwhile; verified with PGlite 0.5 and pglite-socket 0.2, which also
// leaves the startup parameter unapplied). The settings are harmless there; the embedded database is meant
// for small single-process installations, PostgreSQL for anything exposed to anonymous callers.

// The storage is enabled only while a background run is in progress. In Node 20 an enabled AsyncLocalStorage
// turns on the promise hooks process-wide: every promise of every request then runs an init hook that copies
// the store onto it (about 5 % of a read's Node CPU, docs/performance.md "Request pipeline" and "Detail reads and
// the floor, session 10"), although requests never read it. Disabling it when the last run settles turns the
// hooks off again. What a run awaits sees the store exactly as before; what a run starts without awaiting it
// and that is still going after every run settled is no longer background (none of the runs does that: job
// handlers, start-up tasks and feed drains await their work). `disable()` is marked experimental in Node 20's
// documentation; the behaviour relied on here is pinned by statement-timeout.spec.ts.
const background = new AsyncLocalStorage<true>();
let runs = 0;

function leaveRun(): void {
  runs -= 1;
  if (runs === 0) background.disable();
}

/** Runs `work` as background work: its transactions get the background statement timeout. */
export function runAsBackgroundWork<T>(work: () => Promise<T>): Promise<T> {
  runs += 1;
  let running: Promise<T>;
  try {
    running = background.run(true, work);
  } catch (error) {
    leaveRun();
    throw error;
  }
  return running.finally(leaveRun);
}

export function isBackgroundWork(): boolean {
  return background.getStore() === true;
}

/** libpq's `options` startup parameter that sets the session's statement_timeout (0: none). */
export function statementTimeoutOption(milliseconds: number): string {
  return `-c statement_timeout=${Math.max(0, Math.round(milliseconds))}`;
}

/**
 * A TypeORM subscriber class (registered through the data source's `subscribers` option, so migrations
 * run during initialize() already see it) that gives background transactions their own limit.
 */
export function backgroundStatementTimeoutSubscriber(milliseconds: number): new () => EntitySubscriberInterface {
  const statement = `SET LOCAL statement_timeout = ${Math.max(0, Math.round(milliseconds))}`;
  @EventSubscriber()
  class BackgroundStatementTimeout implements EntitySubscriberInterface {
    async afterTransactionStart(event: TransactionStartEvent): Promise<void> {
      if (isBackgroundWork()) await event.queryRunner.query(statement);
    }
  }
  return BackgroundStatementTimeout;
}

/**
 * PostgreSQL's query_canceled (57014): statement_timeout fired (or an operator cancelled the statement). The
 * connection stays usable; only the statement, or its transaction, is rolled back.
 */
export function isStatementTimeout(error: unknown): boolean {
  const code = (error as { code?: unknown; driverError?: { code?: unknown } } | null)?.code ?? (error as { driverError?: { code?: unknown } } | null)?.driverError?.code;
  return code === '57014';
}
