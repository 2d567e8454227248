import { Logger, type INestApplication } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { AppConfig } from '../config/app-config';
import { syncLanguageCatalog } from '../modules/languages/language-catalog';
import { bootstrapAdmin } from '../modules/users/admin-bootstrap';
import { DemoSeeder } from '../sync/demo-seeder';
import { WorkingCopyService } from '../sync/working-copy.service';

/**
 * Data the service needs before it answers, in order: migrations (run by TypeORM on connect), the
 * language table, the bootstrap administrator, the git lock files a killed process left in the working
 * copies (issue 10, item 7), the demo project.
 */
export async function runStartupTasks(app: INestApplication, config: AppConfig): Promise<void> {
  const logger = new Logger('Startup');
  const dataSource = app.get(DataSource);
  const changedLanguages = await syncLanguageCatalog(dataSource);
  if (changedLanguages > 0) logger.log(`Language table: ${changedLanguages} languages added or updated`);
  const adminId = await bootstrapAdmin(dataSource, config);
  if (adminId !== null) logger.log(`Administrator "${config.adminUsername}" is ready (token from ADMIN_TOKEN)`);
  const repaired = await app.get(WorkingCopyService).recoverStaleLocks();
  if (repaired > 0) logger.warn(`Removed stale git locks in ${repaired} working copies`);
  // Imported synchronously so the spec's endpoints answer with data as soon as the server listens.
  if (await app.get(DemoSeeder).run()) logger.log('Demo project imported: /api/components/demo/app/');
}
