import { Module } from '@nestjs/common';
import { SyncModule } from '../../sync/sync.module';
import { ComponentsModule } from '../components/components.module';
import { ProjectsModule } from '../projects/projects.module';
import { RepositoryController } from './repository.controller';
import { RepositoryService } from './repository.service';

/** Repository status and operations of projects, components and translations (weblate-api.md §10.5). */
@Module({
  imports: [ProjectsModule, ComponentsModule, SyncModule],
  controllers: [RepositoryController],
  providers: [RepositoryService],
})
export class RepositoryModule {}
