import { Module } from '@nestjs/common';
import { ComponentsModule } from '../components/components.module';
import { LanguagesModule } from '../languages/languages.module';
import { ProjectsModule } from '../projects/projects.module';
import { StatisticsController } from './statistics.controller';
import { StatisticsService } from './statistics.service';

/** Statistics of translations, components, projects and languages (weblate-api.md §6.9, §11). */
@Module({
  imports: [ProjectsModule, ComponentsModule, LanguagesModule],
  controllers: [StatisticsController],
  providers: [StatisticsService],
})
export class StatisticsModule {}
