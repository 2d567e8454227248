import { Module } from '@nestjs/common';
import { registerCheckSearch } from './check-search';
import { UnitChecksController } from './unit-checks.controller';
import { UnitChecksService } from './unit-checks.service';

/** Quality checks of units: the rows are written by src/sync/unit-checks.ts wherever units change; this module reads and dismisses them. */
@Module({
  controllers: [UnitChecksController],
  providers: [UnitChecksService],
})
export class ChecksModule {
  constructor() {
    registerCheckSearch();
  }
}
