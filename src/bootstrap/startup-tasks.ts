import type { INestApplication } from '@nestjs/common';
import type { AppConfig } from '../config/app-config';

/**
 * Data the service needs before it answers, in order: migrations (run by TypeORM on connect), the
 * language table, the bootstrap administrator, the demo project.
 */
export async function runStartupTasks(_app: INestApplication, _config: AppConfig): Promise<void> {
  // Filled in as the modules land.
}
