import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { SyncModule } from '../../sync/sync.module';
import { Language } from '../languages/language.entity';
import { ProjectsModule } from '../projects/projects.module';
import { ComponentAlertsController } from './component-alerts.controller';
import { ComponentAlertsService } from './component-alerts.service';
import { Component } from './component.entity';
import { ComponentLockController } from './component-lock.controller';
import { ComponentWriterService } from './component-writer.service';
import { ComponentsController } from './components.controller';
import { ComponentsService } from './components.service';
import { ProjectComponentsController } from './project-components.controller';

/**
 * Components: list, detail, create, edit, delete, lock and links (weblate-api.md §5.6, §5.7), and their alerts. Creating and
 * editing schedule the background import of src/sync (the job queue is global, registered by AppModule).
 */
@Module({
  imports: [TypeOrmModule.forFeature([Component, Language]), ProjectsModule, SyncModule],
  controllers: [ComponentsController, ProjectComponentsController, ComponentLockController, ComponentAlertsController],
  providers: [ComponentsService, ComponentWriterService, ComponentAlertsService],
  exports: [ComponentsService],
})
export class ComponentsModule {}
