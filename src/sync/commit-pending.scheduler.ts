import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { JobQueue } from '../jobs/job-queue';
import { WriteBackService } from './write-back.service';

// commit_pending_age (languages-formats-hashing.md §5.2; Weblate's commit_pending task): strings edited
// through the API and left pending longer than the component's commit_pending_age hours are committed (and
// pushed when push_on_commit is on) by a periodic job. pg-boss's cron sends one job per slot whatever the
// number of processes, so components are committed once.

export const COMMIT_PENDING_JOB = 'commit-pending';
/** Every five minutes: the age is counted in hours, a finer check only costs queries. */
const COMMIT_PENDING_CRON = '*/5 * * * *';

@Injectable()
export class CommitPendingScheduler implements OnModuleInit {
  private readonly logger = new Logger(CommitPendingScheduler.name);

  constructor(
    private readonly dataSource: DataSource,
    private readonly jobs: JobQueue,
    private readonly writeBack: WriteBackService,
  ) {}

  onModuleInit(): void {
    this.jobs.register(COMMIT_PENDING_JOB, () => this.commitAged(), { retryLimit: 0, expireInSeconds: 60 * 60 });
    this.jobs.schedule(COMMIT_PENDING_JOB, COMMIT_PENDING_CRON);
  }

  /** Commits every component holding a pending string whose last change is older than its commit_pending_age. */
  async commitAged(): Promise<number[]> {
    const rows: Array<{ id: number }> = await this.dataSource.query(
      `SELECT DISTINCT c.id
         FROM units u
         JOIN translations t ON t.id = u.translation_id
         JOIN components c ON c.id = t.component_id
        WHERE u.pending
          AND NOT EXISTS (SELECT 1 FROM changes ch
                           WHERE ch.unit_id = u.id AND ch.timestamp > now() - c.commit_pending_age * interval '1 hour')
        ORDER BY c.id`,
    );
    const committed: number[] = [];
    for (const { id } of rows) {
      try {
        const outcome = await this.writeBack.commitPending(id, { actorId: null });
        if (outcome.result) committed.push(id);
        else this.logger.warn(`Committing aged pending strings of component ${id} failed: ${outcome.detail ?? ''}`);
      } catch (error) {
        // One broken component must not keep the others from being committed.
        this.logger.error(`Committing aged pending strings of component ${id} failed: ${(error as Error).message}`);
      }
    }
    return committed;
  }
}
