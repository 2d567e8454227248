import { Injectable, OnModuleInit } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { JobQueue } from '../jobs/job-queue';
import { CHECK_BATCH } from './check-rows';
import { recheckComponent } from './unit-checks';

// A change of a component's `check_flags` rechecks all its strings (checks-suggestions-search.md §3.2). That
// can be every unit of a large component, so it runs as a background job and the PATCH answers at once:
//   * coalesced per component: a recheck still waiting in the queue covers any later change too, since it
//     reads the flags when it runs (pg-boss `short` policy, keyed by the component);
//   * batch by batch: each batch of units is one transaction (recheckComponent), so unit PATCHes wait for
//     one batch at most and never deadlock against the recheck (check-rows.ts lock order); batches of two
//     rechecks of a component take turns on an advisory lock, and every batch reads the flags as they are
//     when it runs, so the recheck queued by the last change, which runs every batch after that change,
//     has the last word;
//   * idempotent and retried: the recheck computes every row from what the database holds, so a run that
//     died (process crash, expiry) half-way is simply run again.

export const COMPONENT_RECHECK_JOB = 'component-recheck';

/** First key of the advisory lock that serialises the rechecks of a component (the second is its id). */
const RECHECK_LOCK_CLASS = 0x636b; // "ck"

export interface ComponentRecheckJob {
  componentId: number;
}

@Injectable()
export class ComponentRecheckScheduler implements OnModuleInit {
  /** Units per transaction of a recheck (tests lower it to get several batches from a small component). */
  batchSize = CHECK_BATCH;

  constructor(
    private readonly dataSource: DataSource,
    private readonly jobs: JobQueue,
  ) {}

  onModuleInit(): void {
    this.jobs.register<ComponentRecheckJob>(COMPONENT_RECHECK_JOB, (data) => this.recheck(data.componentId), {
      oneWaitingPerKey: true,
      retryLimit: 3,
      retryDelaySeconds: 10,
      // A run whose process died is retried once it expires; a recheck of a large component takes a minute or two.
      expireInSeconds: 30 * 60,
    });
  }

  /** Queues the recheck of a component; false when one already waiting covers it (nothing new queued). */
  async scheduleRecheck(componentId: number, manager?: EntityManager): Promise<boolean> {
    return this.jobs.sendUnlessWaiting<ComponentRecheckJob>(COMPONENT_RECHECK_JOB, { componentId }, { key: String(componentId), manager });
  }

  /** The job handler: every check of the component from its current flags, one transaction per batch. */
  async recheck(componentId: number): Promise<void> {
    // A component removed meanwhile has no units left: the batches find nothing to check.
    await recheckComponent(
      (work) =>
        this.dataSource.transaction(async (manager) => {
          await manager.query('SELECT pg_advisory_xact_lock($1::int, $2::int)', [RECHECK_LOCK_CLASS, componentId]);
          return work(manager);
        }),
      componentId,
      this.batchSize,
    );
  }
}
