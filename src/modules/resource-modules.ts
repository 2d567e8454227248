import { ProjectsModule } from './projects/projects.module';
import { RootModule } from './root/root.module';
import { LanguagesModule } from './languages/languages.module';
import { ComponentsModule } from './components/components.module';
import { StatisticsModule } from './statistics/statistics.module';
import { RepositoryModule } from './repository/repository.module';
import { UsersModule } from './users/users.module';
import { TasksModule } from './tasks/tasks.module';
import { TranslationsModule } from './translations/translations.module';
import { ChangesModule } from './changes/changes.module';
import { UnitsModule } from './units/units.module';
import { ChecksModule } from './checks/checks.module';
import { AccessModule } from './access/access.module';
import { OpsModule } from './ops/ops.module';
import { SuggestionsModule } from './suggestions/suggestions.module';
import { CommentsModule } from './comments/comments.module';
import { HooksModule } from './hooks/hooks.module';
import { AddonsModule } from './addons/addons.module';
import { NotificationsMailModule } from './notifications-mail/notifications-mail.module';
import { LabelsModule } from './labels/labels.module';

/** Every resource module of the API; the order is the order of the root listing's routes. */
export const RESOURCE_MODULES = [RootModule, ProjectsModule, LanguagesModule, ComponentsModule, StatisticsModule, RepositoryModule, UsersModule, TasksModule, TranslationsModule, ChangesModule, UnitsModule, ChecksModule, AccessModule, OpsModule, SuggestionsModule, CommentsModule, HooksModule, AddonsModule, NotificationsMailModule, LabelsModule];
