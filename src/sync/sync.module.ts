import { Module } from '@nestjs/common';
import { ComponentImportService } from './component-import.service';
import { ComponentScanner } from './component-scanner';
import { ComponentTaskScheduler } from './component-task.scheduler';
import { DemoSeeder } from './demo-seeder';
import { RepositoryOperationsService } from './repository-operations.service';
import { WorkingCopyService } from './working-copy.service';
import { WriteBackService } from './write-back.service';

/**
 * Where git, files and the database meet (architecture.md "Code layout"). Needs the TypeORM DataSource,
 * the global ConfigModule and the global JobsModule (JobsModule.forRoot) in the application.
 */
@Module({
  providers: [WorkingCopyService, ComponentScanner, ComponentImportService, ComponentTaskScheduler, DemoSeeder, WriteBackService, RepositoryOperationsService],
  exports: [ComponentImportService, ComponentTaskScheduler, DemoSeeder, WorkingCopyService, WriteBackService, RepositoryOperationsService],
})
export class SyncModule {}
