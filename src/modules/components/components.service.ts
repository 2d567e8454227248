import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { DataSource, Repository, SelectQueryBuilder } from 'typeorm';
import { componentVisibleSql } from '../../common/auth/access-sql';
import { ApiValidationError, notFound, permissionDenied } from '../../common/http/api-errors';
import { bodyFieldValue } from '../../common/http/drf-fields';
import type { ApiCaller, RequestContext } from '../../common/http/request-context';
import { PageRequest, resolvePage, ResolvedPage } from '../../common/pagination/page-params';
import { RemovalTaskScheduler } from '../../sync/removal-task.scheduler';
import { ProjectsService } from '../projects/projects.service';
import { Component } from './component.entity';
import { readComponentDetail } from './component-read.statement';
import { parseDrfBoolean } from './component-write.validator';

/** Weblate's action codes written here (weblate-api.md §8.1). */
const ACTION_LOCK = 14;
const ACTION_UNLOCK = 15;

export interface ComponentPage {
  page: ResolvedPage;
  count: number;
  items: Component[];
}

/** Reading, removing and locking components. Creation and edits are in ComponentWriterService. */
@Injectable()
export class ComponentsService {
  constructor(
    @InjectRepository(Component) private readonly components: Repository<Component>,
    private readonly dataSource: DataSource,
    private readonly projects: ProjectsService,
    private readonly removals: RemovalTaskScheduler,
  ) {}

  /** `/api/components/`: ordered by id (weblate-api.md §5.7); one count and one joined page query. */
  async list(pageRequest: PageRequest, caller: ApiCaller | null): Promise<ComponentPage> {
    // Only components the caller can see (src/common/auth/access-sql.ts).
    const visible = componentVisibleSql(caller, 'component', 'project');
    const count = await this.withRelations().where(visible).getCount();
    const page = resolvePage(pageRequest, count);
    const items = await this.withRelations().where(visible).orderBy('component.id', 'ASC').offset(page.offset).limit(page.size).getMany();
    return { page, count, items };
  }

  /** `/api/projects/<p>/components/`: 404 for an unknown project, then the same paging as the global list. */
  async listForProject(projectSlug: string, pageRequest: PageRequest, caller: ApiCaller | null): Promise<ComponentPage> {
    const project = await this.projects.getBySlug(projectSlug);
    // Restricted components stay hidden from project members without access (src/common/auth/access-sql.ts).
    const visible = componentVisibleSql(caller, 'component', 'project');
    const count = await this.withRelations().where('component.projectId = :projectId', { projectId: project.id }).andWhere(visible).getCount();
    const page = resolvePage(pageRequest, count);
    const items = await this.withRelations()
      .where('component.projectId = :projectId', { projectId: project.id })
      .andWhere(visible)
      .orderBy('component.id', 'ASC')
      .offset(page.offset)
      .limit(page.size)
      .getMany();
    return { page, count, items };
  }

  /** The component at `/api/components/<project>/<component>/` with project and source language, or 404. */
  async getBySlugs(projectSlug: string, componentSlug: string): Promise<Component> {
    const component = await this.withRelations()
      .where('project.slug = :projectSlug AND component.slug = :componentSlug', { projectSlug, componentSlug })
      .getOne();
    if (!component) throw notFound();
    return component;
  }

  /** The same component for its GET response only: one named statement, a plain entity-shaped object. */
  async detailBySlugs(projectSlug: string, componentSlug: string, prefetched?: unknown): Promise<Component> {
    const component = await readComponentDetail(this.dataSource, prefetched, projectSlug, componentSlug);
    if (component === null) throw notFound();
    return component;
  }

  async getById(id: number): Promise<Component> {
    const component = await this.withRelations().where('component.id = :id', { id }).getOne();
    if (!component) throw notFound();
    return component;
  }

  /**
   * DELETE (weblate-api.md §10.4): `component.edit`, else 403 `Can not delete component`. As in Weblate the
   * removal runs as a background task (src/sync RemovalTaskScheduler): the answer is 204 at once, the
   * component shows the task as task_url until the task deletes the rows (translations and units cascade,
   * history keeps its rows), records 38 "Removed component" on the project and removes the working copy.
   */
  async remove(ctx: RequestContext, projectSlug: string, componentSlug: string): Promise<void> {
    const component = await this.getBySlugs(projectSlug, componentSlug);
    if (!ctx.can('component.edit')) throw permissionDenied('Can not delete component');
    await this.removals.scheduleComponentRemoval(component.id, ctx.caller?.id ?? null);
  }

  /** GET …/lock/ (weblate-api.md §6.11): anyone who can see the component. */
  async lockState(projectSlug: string, componentSlug: string): Promise<{ locked: boolean }> {
    const component = await this.getBySlugs(projectSlug, componentSlug);
    return { locked: component.locked };
  }

  /**
   * POST …/lock/ (weblate-api.md §10.6): `component.lock` is checked before the body (plain 403), `lock` is a
   * required DRF boolean (wlc sends 0/1). A change of state records 14/15; setting the current state again
   * records nothing, as Weblate's do_lock returns early.
   */
  async setLock(ctx: RequestContext, projectSlug: string, componentSlug: string, body: unknown): Promise<{ locked: boolean }> {
    const component = await this.getBySlugs(projectSlug, componentSlug);
    if (!ctx.can('component.lock')) throw permissionDenied();
    const raw = bodyFieldValue(body, 'lock', { type: 'boolean', required: true });
    if (raw === undefined) throw new ApiValidationError({ lock: ['This field is required.'] });
    const lock = raw === null ? undefined : parseDrfBoolean(raw);
    if (lock === undefined) throw new ApiValidationError({ lock: [raw === null ? 'This field may not be null.' : 'Must be a valid boolean.'] });
    if (lock !== component.locked) {
      await this.dataSource.transaction(async (manager) => {
        await manager.update(Component, { id: component.id }, { locked: lock });
        await manager.query(
          `INSERT INTO changes (action, project_id, component_id, user_id, target) VALUES ($1, $2, $3, $4, '')`,
          [lock ? ACTION_LOCK : ACTION_UNLOCK, component.projectId, component.id, ctx.caller?.id ?? null],
        );
      });
    }
    return { locked: lock };
  }

  private withRelations(): SelectQueryBuilder<Component> {
    return this.components
      .createQueryBuilder('component')
      .innerJoinAndSelect('component.project', 'project')
      .innerJoinAndSelect('component.sourceLanguage', 'sourceLanguage');
  }
}
