import { Module } from '@nestjs/common';
import { LabelsController } from './labels.controller';
import { LabelsService } from './labels.service';

/** Project labels (issues 13/14): the labels sub-collection of a project. Unit label reads and writes: unit-labels.ts. */
@Module({
  controllers: [LabelsController],
  providers: [LabelsService],
})
export class LabelsModule {}
