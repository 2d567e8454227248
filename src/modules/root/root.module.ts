import { Module } from '@nestjs/common';
import { RootController } from './root.controller';
import { SchemaController } from './schema.controller';

@Module({ controllers: [RootController, SchemaController] })
export class RootModule {}
