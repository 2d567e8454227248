import { Module } from '@nestjs/common';
import { TranslationsModule } from '../translations/translations.module';
import { ChangesController } from './changes.controller';
import { ChangeFeed } from './change-feed';
import { ChangeStreamController } from './change-stream.controller';
import { ChangeStreamService } from './change-stream.service';
import { ChangesService } from './changes.service';

/**
 * The change history. Writers record changes with the plain function in change-recorder.ts inside their own
 * transaction, so no module needs to import this one (the module graph stays acyclic). Modules that follow
 * the history (webhooks, notifications, the change stream) import it for the ChangeFeed.
 */
@Module({
  imports: [TranslationsModule],
  // The stream's routes first: `changes/stream` must not reach `changes/:id`.
  controllers: [ChangeStreamController, ChangesController],
  providers: [ChangesService, ChangeFeed, ChangeStreamService],
  exports: [ChangeFeed],
})
export class ChangesModule {}
