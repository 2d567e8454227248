import { ComponentFileController } from './component-file.controller';
import { Module } from '@nestjs/common';
import { FormatsModule } from '../../formats/formats.module';
import { SyncModule } from '../../sync/sync.module';
import { TranslationFileController } from './translation-file.controller';
import { TranslationFileService } from './translation-file.service';
import { TranslationLookup } from './translation-lookup.service';
import { TranslationsController } from './translations.controller';
import { TranslationsService } from './translations.service';
import { TranslationUploadController } from './translation-upload.controller';
import { TranslationUploadService } from './translation-upload.service';

/** Translations and their file; exports the path lookup the units and changes modules address them with. */
@Module({
  imports: [SyncModule, FormatsModule],
  controllers: [TranslationsController, TranslationFileController, TranslationUploadController, ComponentFileController],
  providers: [TranslationLookup, TranslationsService, TranslationFileService, TranslationUploadService],
  exports: [TranslationLookup],
})
export class TranslationsModule {}
