import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { QueryFailedError, Repository } from 'typeorm';
import { projectVisibleSql } from '../../common/auth/access-sql';
import { ApiValidationError, notFound, permissionDenied } from '../../common/http/api-errors';
import type { ApiCaller, RequestContext } from '../../common/http/request-context';
import { validateBody } from '../../common/http/validation';
import { PageRequest, resolvePage, ResolvedPage } from '../../common/pagination/page-params';
import { RemovalTaskScheduler } from '../../sync/removal-task.scheduler';
import { CreateProjectDto, UpdateProjectDto } from './dto/project-write.dto';
import { readProjectDetail } from './project-read.statement';
import { Project } from './project.entity';

const UNIQUE_VIOLATION = '23505';

@Injectable()
export class ProjectsService {
  constructor(
    @InjectRepository(Project) private readonly projects: Repository<Project>,
    private readonly removals: RemovalTaskScheduler,
  ) {}

  /** Projects ordered by id (weblate-api.md §5.6); one count and one page query. */
  async list(pageRequest: PageRequest, caller: ApiCaller | null): Promise<{ page: ResolvedPage; count: number; items: Project[] }> {
    // Only projects the caller can see (src/common/auth/access-sql.ts).
    const visible = () => this.projects.createQueryBuilder('project').where(projectVisibleSql(caller, 'project'));
    const count = await visible().getCount();
    const page = resolvePage(pageRequest, count);
    const items = await visible().orderBy('project.id', 'ASC').offset(page.offset).limit(page.size).getMany();
    return { page, count, items };
  }

  async getBySlug(slug: string): Promise<Project> {
    const project = await this.projects.findOneBy({ slug });
    if (!project) throw notFound();
    return project;
  }

  /** The same project for its GET response only: one named statement, a plain entity-shaped object. */
  async detailBySlug(slug: string, prefetched?: unknown): Promise<Project> {
    const project = await readProjectDetail(this.projects.manager.connection, prefetched, slug);
    if (project === null) throw notFound();
    return project;
  }

  /** Weblate 4.x needs the global `project.add` permission; until teams exist only superusers hold it. */
  async create(ctx: RequestContext, body: unknown): Promise<Project> {
    if (!ctx.can('project.add')) throw permissionDenied('Can not create projects');
    const dto = await validateBody(CreateProjectDto, body);
    this.assertMaySetAccess(ctx, dto);
    await this.assertUnique(dto.name, dto.slug);
    return this.save(this.projects.create(this.fromDto(dto)));
  }

  /** PUT validates against CreateProjectDto (every field), PATCH against UpdateProjectDto; after the checks (§2.3). */
  async update(ctx: RequestContext, slug: string, body: unknown, dtoClass: new () => UpdateProjectDto): Promise<Project> {
    const project = await this.getBySlug(slug);
    if (!ctx.can('project.edit')) throw permissionDenied('Can not edit project');
    const dto = await validateBody(dtoClass, body);
    this.assertMaySetAccess(ctx, dto);
    await this.assertUnique(dto.name, dto.slug, project.id);
    Object.assign(project, this.fromDto(dto));
    return this.save(project);
  }

  /**
   * DELETE (weblate-api.md §10.4): a background removal task (src/sync RemovalTaskScheduler) deletes the
   * project with its components, records 39 "Removed project" and removes the working copies; 204 at once.
   */
  async remove(ctx: RequestContext, slug: string): Promise<void> {
    const project = await this.getBySlug(slug);
    if (!ctx.can('project.edit')) throw permissionDenied('Can not delete project');
    await this.removals.scheduleProjectRemoval(project.id, ctx.caller?.id ?? null);
  }

  /**
   * Issue 10 item 10: access_control is accepted on project writes, as Weblate's project settings accept it,
   * with Weblate's permission for it, `project.permissions` ("Manage project access"; the built-in
   * Administration role holds it, superusers always). On a new project it is checked site-wide, as
   * `project.add` is. Omitted on PUT, it is left as it is (DRF leaves fields out of validated_data alone).
   * Visibility follows at once: every request resolves access from the row (src/common/auth/access-sql.ts).
   */
  private assertMaySetAccess(ctx: RequestContext, dto: UpdateProjectDto): void {
    if (dto.access_control !== undefined && !ctx.can('project.permissions')) throw permissionDenied();
  }

  private fromDto(dto: UpdateProjectDto): Partial<Project> {
    const fields: Partial<Project> = {
      name: dto.name,
      slug: dto.slug,
      web: dto.web,
      translationReview: dto.translation_review,
      sourceReview: dto.source_review,
      setLanguageTeam: dto.set_language_team,
      instructions: dto.instructions,
      enableHooks: dto.enable_hooks,
      languageAliases: dto.language_aliases,
      accessControl: dto.access_control,
    };
    return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as Partial<Project>;
  }

  /** DRF's UniqueValidator texts, checked up front so the client gets field errors, not a 500. */
  private async assertUnique(name: string | undefined, slug: string | undefined, exceptId?: number): Promise<void> {
    const errors: Record<string, string[]> = {};
    if (name !== undefined) {
      const other = await this.projects.findOneBy({ name });
      if (other && other.id !== exceptId) errors.name = ['Project with this Project name already exists.'];
    }
    if (slug !== undefined) {
      const other = await this.projects.findOneBy({ slug });
      if (other && other.id !== exceptId) errors.slug = ['Project with this URL slug already exists.'];
    }
    if (Object.keys(errors).length > 0) throw new ApiValidationError(errors);
  }

  /** A concurrent insert can still win the race; report it like the up-front check. */
  private async save(project: Project): Promise<Project> {
    try {
      return await this.projects.save(project);
    } catch (error) {
      if (error instanceof QueryFailedError && (error.driverError as { code?: string }).code === UNIQUE_VIOLATION) {
        throw new ApiValidationError({ slug: ['Project with this URL slug already exists.'] });
      }
      throw error;
    }
  }
}
