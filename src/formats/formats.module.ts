import { Module } from '@nestjs/common';
import { FileParser } from './file-parser';

/** The file parser (one pool of parse workers per process); needs the global ConfigModule. */
@Module({ providers: [FileParser], exports: [FileParser] })
export class FormatsModule {}
