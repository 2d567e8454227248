import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { JobQueue } from '../../jobs/job-queue';
import type { ApiMetricsResponse } from './metrics.response';

@Injectable()
export class OpsMetricsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly jobQueue: JobQueue,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Site-wide counts in one query, plus the job queue lengths (weblate-api.md §6.13). */
  async metrics(): Promise<ApiMetricsResponse> {
    const [row]: Array<Record<string, string>> = await this.dataSource.query(
      `SELECT (SELECT count(*) FROM units) AS units,
              (SELECT count(*) FROM units WHERE state >= 20) AS units_translated,
              -- Weblate's internal anonymous account is not a user of the site (issue 12 item 3).
              (SELECT count(*) FROM users WHERE username <> 'anonymous') AS users,
              (SELECT count(*) FROM changes) AS changes,
              (SELECT count(*) FROM projects) AS projects,
              (SELECT count(*) FROM components) AS components,
              (SELECT count(*) FROM translations) AS translations,
              (SELECT count(DISTINCT language_id) FROM translations) AS languages`,
    );
    return {
      units: Number(row.units),
      units_translated: Number(row.units_translated),
      users: Number(row.users),
      changes: Number(row.changes),
      projects: Number(row.projects),
      components: Number(row.components),
      translations: Number(row.translations),
      languages: Number(row.languages),
      checks: 0,
      configuration_errors: 0,
      suggestions: 0,
      celery_queues: await this.jobQueue.queueSizes(),
      name: this.config.siteTitle,
    };
  }
}
