import { Module } from '@nestjs/common';
import { SyncModule } from '../../sync/sync.module';
import { TranslationsModule } from '../translations/translations.module';
import { TranslationUnitsController } from './translation-units.controller';
import { UnitAddService } from './unit-add.service';
import { UnitEditService } from './unit-edit.service';
import { UnitsController } from './units.controller';
import { UnitsReadService } from './units-read.service';

/** Units: `/api/units/` and the units sub-list of a translation (a child resource lives in its own module). */
@Module({
  imports: [TranslationsModule, SyncModule],
  controllers: [TranslationUnitsController, UnitsController],
  providers: [UnitsReadService, UnitEditService, UnitAddService],
})
export class UnitsModule {}
