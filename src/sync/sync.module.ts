import { Module, type OnApplicationShutdown } from '@nestjs/common';
import { FormatsModule } from '../formats/formats.module';
import { closeGitHelper } from '../vcs/git-spawner';
import { CommitPendingScheduler } from './commit-pending.scheduler';
import { ComponentImportService } from './component-import.service';
import { ComponentScanner } from './component-scanner';
import { ComponentRecheckScheduler } from './component-recheck.scheduler';
import { ComponentTaskScheduler } from './component-task.scheduler';
import { DemoSeeder } from './demo-seeder';
import { PullTaskScheduler } from './pull-task.scheduler';
import { RemovalTaskScheduler } from './removal-task.scheduler';
import { RepositoryOperationsService } from './repository-operations.service';
import { ReplaceUploadService } from './replace-upload.service';
import { SourceUploadService } from './source-upload.service';
import { WorkingCopyService } from './working-copy.service';
import { WriteBackService } from './write-back.service';

/**
 * Where git, files and the database meet (architecture.md "Code layout"). Needs the TypeORM DataSource,
 * the global ConfigModule and the global JobsModule (JobsModule.forRoot) in the application; parses files
 * through FormatsModule's worker pool.
 */
@Module({
  imports: [FormatsModule],
  providers: [WorkingCopyService, ComponentScanner, ComponentImportService, ComponentTaskScheduler, ComponentRecheckScheduler, DemoSeeder, WriteBackService, RepositoryOperationsService, CommitPendingScheduler, RemovalTaskScheduler, PullTaskScheduler, SourceUploadService, ReplaceUploadService],
  exports: [ComponentImportService, ComponentTaskScheduler, ComponentRecheckScheduler, DemoSeeder, WorkingCopyService, WriteBackService, RepositoryOperationsService, CommitPendingScheduler, RemovalTaskScheduler, PullTaskScheduler, SourceUploadService, ReplaceUploadService],
})
export class SyncModule implements OnApplicationShutdown {
  /**
   * After the job queue has stopped (its beforeApplicationShutdown waits for running jobs, which run git): the
   * idle git helper ends now rather than after its idle time. A server's process exits anyway; an application
   * closed in a process that goes on (a test file's, in a Jest worker) would otherwise leave it behind.
   */
  onApplicationShutdown(): void {
    closeGitHelper();
  }
}
