import { Module } from '@nestjs/common';
import { SyncModule } from '../../sync/sync.module';
import { HooksController } from './hooks.controller';
import { HooksService } from './hooks.service';

/** Incoming repository hooks (integration.md §1): push notifications queue pulls (src/sync PullTaskScheduler). */
@Module({
  imports: [SyncModule],
  controllers: [HooksController],
  providers: [HooksService],
})
export class HooksModule {}
