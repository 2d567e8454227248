import { Module } from '@nestjs/common';
import { FormatsModule } from '../../formats/formats.module';
import { SyncModule } from '../../sync/sync.module';
import { TranslationsModule } from '../translations/translations.module';
import { BulkEditService } from './bulk-edit.service';
import { BulkTranslateService } from './bulk-translate.service';
import { BulkController } from './bulk.controller';
import { TranslationUnitsController } from './translation-units.controller';
import { UnitAddService } from './unit-add.service';
import { UnitEditService } from './unit-edit.service';
import { UnitsController } from './units.controller';
import { UnitsReadService } from './units-read.service';

/** Units: `/api/units/`, the units sub-list of a translation (a child resource lives in its own module) and the bulk routes. */
@Module({
  imports: [TranslationsModule, SyncModule, FormatsModule],
  controllers: [TranslationUnitsController, UnitsController, BulkController],
  providers: [UnitsReadService, UnitEditService, UnitAddService, BulkEditService, BulkTranslateService],
})
export class UnitsModule {}
