import { ComponentFileController } from './component-file.controller';
import { Module } from '@nestjs/common';
import { MulterModule } from '@nestjs/platform-express';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { FormatsModule } from '../../formats/formats.module';
import { SyncModule } from '../../sync/sync.module';
import { SuggestionsModule } from '../suggestions/suggestions.module';
import { TranslationFileController } from './translation-file.controller';
import { TranslationExportService } from './translation-export.service';
import { TranslationFileService } from './translation-file.service';
import { TranslationLookup } from './translation-lookup.service';
import { TranslationsController } from './translations.controller';
import { TranslationsService } from './translations.service';
import { TranslationUploadController } from './translation-upload.controller';
import { TranslationUploadService } from './translation-upload.service';
import { uploadMulterOptions, UploadLimitsInterceptor } from './upload-limits';

/** Translations and their file; exports the path lookup the units and changes modules address them with. */
@Module({
  imports: [SyncModule, FormatsModule, SuggestionsModule, MulterModule.registerAsync({ inject: [APP_CONFIG], useFactory: (config: AppConfig) => uploadMulterOptions(config) })],
  controllers: [TranslationsController, TranslationFileController, TranslationUploadController, ComponentFileController],
  providers: [TranslationLookup, TranslationsService, TranslationFileService, TranslationExportService, TranslationUploadService, UploadLimitsInterceptor],
  exports: [TranslationLookup],
})
export class TranslationsModule {}
