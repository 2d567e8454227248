import { ProjectsModule } from './projects/projects.module';
import { RootModule } from './root/root.module';
import { LanguagesModule } from './languages/languages.module';

/** Every resource module of the API; the order is the order of the root listing's routes. */
export const RESOURCE_MODULES = [RootModule, ProjectsModule, LanguagesModule];
