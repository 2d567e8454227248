import { Module } from '@nestjs/common';
import { TranslationsModule } from '../translations/translations.module';
import { ChangesController } from './changes.controller';
import { ChangesService } from './changes.service';

/**
 * The change history. Writers record changes with the plain function in change-recorder.ts inside their own
 * transaction, so no module needs to import this one (the module graph stays acyclic).
 */
@Module({
  imports: [TranslationsModule],
  controllers: [ChangesController],
  providers: [ChangesService],
})
export class ChangesModule {}
