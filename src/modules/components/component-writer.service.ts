import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { rename, stat } from 'node:fs/promises';
import { type EntityManager, QueryFailedError, Repository } from 'typeorm';
import { ApiValidationError, FieldErrors, permissionDenied } from '../../common/http/api-errors';
import type { RequestContext } from '../../common/http/request-context';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { FILE_FORMATS, getFileFormat } from '../../formats/format.registry';
import { taskErrorText } from '../../sync/task-log-text';
import { GitCommandError } from '../../vcs/git-runner';
import { ComponentTaskScheduler } from '../../sync/component-task.scheduler';
import { WorkingCopyService } from '../../sync/working-copy.service';
import { ComponentRecheckScheduler } from '../../sync/component-recheck.scheduler';
import { Language } from '../languages/language.entity';
import type { Project } from '../projects/project.entity';
import { ProjectsService } from '../projects/projects.service';
import { COMPONENT_DEFAULTS, ComponentSettingDefaults, DEFAULT_SOURCE_LANGUAGE } from './component-defaults';
import { Component } from './component.entity';
import { isRedactedFormOf, RepositoryUrlError } from '../../vcs/repository-url-policy';
import { repositoryFileErrors } from './component-repository.rules';
import { ComponentWriteMode, ComponentWriteValues, repositoryHostErrors, validateComponentWrite } from './component-write.validator';
import { ComponentsService } from './components.service';

const UNIQUE_VIOLATION = '23505';

/** Settings that decide what the working copy and the scan hold: changing one re-imports the component. */
const IMPORT_SETTINGS = ['repo', 'push', 'branch', 'filemask', 'template', 'intermediate', 'file_format', 'language_regex'] as const;

/** Settings the repository checks read: changing one validates the component against its repository again. */
const REPOSITORY_FILE_SETTINGS = ['repo', 'branch', 'filemask', 'template', 'intermediate', 'new_base', 'file_format', 'language_regex'] as const;

/** Everything a write may set, once validated: the wire settings plus name, slug and the four required ones. */
type ComponentSettings = ComponentSettingDefaults & { name: string; slug: string; repo: string; filemask: string; file_format: string };

/**
 * Creating (`POST /api/projects/<p>/components/`, weblate-api.md §10.11) and editing (PUT/PATCH, §10.13)
 * components. Validation follows Weblate's order: permission, serializer fields, source language, then the
 * model's clean() rules, each of which reports only its first failure, then the checks against the
 * repository (fetched synchronously, as Weblate does: file mask matches files, template and new_base exist),
 * which answer 400 and store nothing. The clone and the parsing of files run in the background: the response
 * carries `task_url` while the import task runs.
 */
@Injectable()
export class ComponentWriterService {
  private readonly logger = new Logger(ComponentWriterService.name);

  constructor(
    @InjectRepository(Component) private readonly components: Repository<Component>,
    @InjectRepository(Language) private readonly languages: Repository<Language>,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly projects: ProjectsService,
    private readonly reader: ComponentsService,
    private readonly scheduler: ComponentTaskScheduler,
    private readonly workingCopies: WorkingCopyService,
    private readonly rechecks: ComponentRecheckScheduler,
  ) {}

  async create(ctx: RequestContext, projectSlug: string, body: unknown): Promise<Component> {
    const project = await this.projects.getBySlug(projectSlug);
    if (!ctx.can('project.edit')) throw permissionDenied('Can not create components');
    const values = this.validate(body, 'create');
    await this.checkRepositoryHosts(values);
    const sourceLanguage = await this.resolveLanguage(values.source_language ?? DEFAULT_SOURCE_LANGUAGE);
    const settings = { ...COMPONENT_DEFAULTS, ...values } as ComponentSettings;
    await this.checkModelRules(project, settings, null);
    await this.checkRepositoryFiles(settings);
    const saved = await this.save(
      this.components.create({ ...toEntityFields(settings), projectId: project.id, sourceLanguageId: sourceLanguage.id }),
    );
    try {
      await this.scheduler.scheduleImport(saved.id);
    } catch (error) {
      // A component nobody will ever import would sit there empty: undo the insert and report the failure.
      await this.components.delete({ id: saved.id });
      throw error;
    }
    return this.reader.getById(saved.id);
  }

  /** PUT (`replace`: the required fields must be there) and PATCH (`update`); unsent fields keep their values. */
  async update(ctx: RequestContext, projectSlug: string, componentSlug: string, body: unknown, mode: Exclude<ComponentWriteMode, 'create'>): Promise<Component> {
    const component = await this.reader.getBySlugs(projectSlug, componentSlug);
    if (!ctx.can('component.edit')) throw permissionDenied('Can not edit component');
    const values = this.validate(body, mode);
    keepStoredCredentials(values, component);
    await this.checkRepositoryHosts(values, component);
    if (values.source_language !== undefined && values.source_language !== component.sourceLanguage.code) {
      // Weblate resolves the language first (400 when unknown), then refuses any change in clean().
      await this.resolveLanguage(values.source_language);
      throw new ApiValidationError({ source_language: ['Source language can not be changed, please recreate the component instead.'] });
    }
    const current = fromEntity(component);
    const settings = { ...current, ...values } as ComponentSettings;
    await this.checkModelRules(component.project, settings, component.id);
    if (REPOSITORY_FILE_SETTINGS.some((key) => values[key] !== undefined && values[key] !== current[key])) {
      await this.checkRepositoryFiles(settings);
    }

    const changed = toEntityFields(values);
    const recheck = values.check_flags !== undefined && values.check_flags !== current.check_flags;
    await this.components.manager.transaction(async (manager) => {
      await this.save(Object.assign(component, changed), manager);
      // The component's flags switch and configure checks: its strings are rechecked (checks-suggestions-search.md
      // §3.2) by a background job, coalesced per component; the answer does not wait for it. The job is queued
      // in the transaction that saves the flags, so it exists exactly when the change committed (a crash
      // between a save and a later send lost the recheck).
      if (recheck) await this.rechecks.scheduleRecheck(component.id, manager);
    });
    if (settings.slug !== current.slug) await this.moveWorkingCopy(component.project.slug, current.slug, settings.slug);
    if (IMPORT_SETTINGS.some((key) => values[key] !== undefined && values[key] !== current[key])) {
      await this.scheduler.scheduleImport(component.id);
    }
    return this.reader.getById(component.id);
  }

  private validate(body: unknown, mode: ComponentWriteMode): ComponentWriteValues {
    const { values, errors } = validateComponentWrite(body, mode, {
      fileFormats: [...FILE_FORMATS.keys()],
      allowLocalRepositories: this.config.allowLocalRepositories,
    });
    if (Object.keys(errors).length > 0) throw new ApiValidationError(errors);
    return values;
  }

  /** Repository hosts must be public unless ALLOW_PRIVATE_REPOSITORY_HOSTS says otherwise (issue 10 item 6). */
  private async checkRepositoryHosts(values: ComponentWriteValues, current?: Component): Promise<void> {
    const errors = await repositoryHostErrors(values, this.config.privateRepositoryHosts, {
      lookup: this.config.repositoryHostLookup,
      changed: current ? (field) => values[field] !== current[field] : undefined,
    });
    if (Object.keys(errors).length > 0) throw new ApiValidationError(errors);
  }

  /** The error sits at `source_language.code`, as Weblate reports it (weblate-api.md §6.3). */
  private async resolveLanguage(code: string): Promise<Language> {
    const language = await this.languages.findOneBy({ code });
    if (!language) throw new ApiValidationError({ source_language: { code: ['Language with this language code was not found.'] } });
    return language;
  }

  /** Weblate's Component.clean() checks that need no repository (4.x order; the first failure wins). */
  private async checkModelRules(project: Project, settings: ComponentSettings, componentId: number | null): Promise<void> {
    if (settings.new_lang === 'url' && project.instructions === '') {
      throw new ApiValidationError({
        new_lang: ['Please either fill in an instruction URL or use a different option for adding a new language.'],
      });
    }
    const clash = async (field: 'slug' | 'name', message: string): Promise<FieldErrors | null> => {
      const other = await this.components.findOneBy({ projectId: project.id, [field]: settings[field] });
      return other && other.id !== componentId ? { [field]: [message] } : null;
    };
    const duplicate =
      (await clash('slug', 'Component with this URL slug already exists in the project.')) ??
      (await clash('name', 'Component with this name already exists in the project.'));
    if (duplicate) throw new ApiValidationError(duplicate);
    if (settings.suggestion_autoaccept > 0 && !settings.suggestion_voting) {
      const message = 'Accepting suggestions automatically only works with voting turned on.';
      throw new ApiValidationError({ suggestion_autoaccept: [message], suggestion_voting: [message] });
    }
  }

  /**
   * Weblate's Component.clean() against the repository (issue 12): the branch is fetched (a blob-less probe
   * clone, removed afterwards, so a refused write leaves no directory), then the file mask must match files,
   * the template (and intermediate) of a monolingual component and new_base must exist. 400 with the field,
   * before anything is stored; a fetch that fails is reported on `repo` with git's cleaned words.
   */
  private async checkRepositoryFiles(settings: ComponentSettings): Promise<void> {
    let files: string[];
    try {
      files = (await this.workingCopies.remoteFiles(settings.repo, settings.branch)).files;
    } catch (error) {
      if (!(error instanceof GitCommandError) && !(error instanceof RepositoryUrlError)) throw error;
      throw new ApiValidationError({ repo: [`Could not update repository: ${taskErrorText(error, this.config)}`] });
    }
    const errors = repositoryFileErrors(files, settings, getFileFormat(settings.file_format));
    if (errors) throw new ApiValidationError(errors);
  }

  /** A concurrent write can still win the race for a slug or name; report it like the up-front check. */
  private async save(component: Component, manager?: EntityManager): Promise<Component> {
    try {
      return await (manager ? manager.getRepository(Component) : this.components).save(component);
    } catch (error) {
      if (error instanceof QueryFailedError && (error.driverError as { code?: string }).code === UNIQUE_VIOLATION) {
        throw new ApiValidationError({ slug: ['Component with this URL slug already exists in the project.'] });
      }
      throw error;
    }
  }

  /** The working copy lives at <DATA_DIR>/vcs/<project>/<component>: follow a renamed slug, as Weblate does. */
  private async moveWorkingCopy(projectSlug: string, from: string, to: string): Promise<void> {
    const source = this.workingCopies.directory(projectSlug, from);
    const exists = await stat(source).then(() => true, () => false);
    if (!exists) return;
    try {
      await rename(source, this.workingCopies.directory(projectSlug, to));
    } catch (error) {
      // The next import clones afresh into the new place; the old directory is only wasted space.
      this.logger.warn(`Could not move the working copy of ${projectSlug}/${from}: ${(error as Error).message}`);
    }
  }
}

/**
 * Responses show URLs without their credentials; a client that sends a GET body back with PUT sends that
 * redacted form, which keeps the stored URL (and its credentials) instead of replacing it.
 */
function keepStoredCredentials(values: ComponentWriteValues, component: Component): void {
  const stored = { repo: component.repo, push: component.push, git_export: component.gitExport, repoweb: component.repoweb };
  for (const field of ['repo', 'push', 'git_export', 'repoweb'] as const) {
    const submitted = values[field];
    if (submitted !== undefined && isRedactedFormOf(submitted, stored[field])) values[field] = stored[field];
  }
}

/** Wire names (snake_case) to entity properties (camelCase): every writable setting maps one to one. */
function toEntityFields(values: Partial<ComponentSettings>): Partial<Component> {
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(values)) {
    if (key === 'source_language' || value === undefined) continue;
    fields[key.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase())] = value;
  }
  return fields as Partial<Component>;
}

/** The component's current settings under their wire names, for the model rules of an edit. */
function fromEntity(component: Component): ComponentSettings {
  const settings: Record<string, unknown> = { name: component.name, slug: component.slug, repo: component.repo, filemask: component.filemask, file_format: component.fileFormat };
  for (const key of Object.keys(COMPONENT_DEFAULTS)) {
    settings[key] = (component as unknown as Record<string, unknown>)[key.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase())];
  }
  return settings as unknown as ComponentSettings;
}
