import { HttpStatus, Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ApiError, ApiValidationError, notFound, permissionDenied } from '../../common/http/api-errors';
import { bodyFieldValue } from '../../common/http/drf-fields';
import type { RequestContext } from '../../common/http/request-context';
import { ComponentImportService, type ComponentRepositoryStatus } from '../../sync/component-import.service';
import { ComponentScanError } from '../../sync/component-scanner';
import { MessageTemplateError } from '../../sync/message-template';
import { RepositoryOperationsService } from '../../sync/repository-operations.service';
import { WriteBackError, WriteBackService } from '../../sync/write-back.service';
import { RepositoryLockTimeoutError } from '../../vcs/repository-lock';
import { GitCommandError } from '../../vcs/git-runner';
import type { Component } from '../components/component.entity';
import { ComponentsService } from '../components/components.service';
import { ProjectsService } from '../projects/projects.service';
import { REPOSITORY_OPERATIONS, RepositoryOperation } from './repository.response';

// The repository endpoints of projects, components and translations (weblate-api.md §10.5). Reading the
// status needs `meta:vcs.status` and every operation a vcs.* permission; until teams exist only superusers
// hold them. Weblate raises a plain PermissionDenied there, so the answer is 403 even for anonymous callers
// (§2.3). A translation works on its component's repository; a project on each of its components.
//
// Operations run over src/sync (WriteBackService, RepositoryOperationsService): commit writes pending units
// back, push goes to push/push_branch, reset/cleanup/file-sync/file-scan act on the working copy. Git and
// file failures are answered as `{"result": false, "detail"}`, which wlc prints.

export interface OperationResult {
  result: boolean;
  detail?: string;
}

/** The object a repository request addresses: its components and, for a translation, the translation. */
interface RepositoryScope {
  components: Array<Pick<Component, 'id' | 'name' | 'push'> & { projectName: string }>;
  translationId: number | null;
}

@Injectable()
export class RepositoryService {
  private readonly logger = new Logger(RepositoryService.name);

  constructor(
    private readonly dataSource: DataSource,
    private readonly imports: ComponentImportService,
    private readonly writeBack: WriteBackService,
    private readonly operations: RepositoryOperationsService,
    private readonly components: ComponentsService,
    private readonly projects: ProjectsService,
  ) {}

  /** Project status: each flag is true when any component needs it (Weblate's Project.needs_commit etc.). */
  async projectStatus(ctx: RequestContext, projectSlug: string): Promise<Pick<ComponentRepositoryStatus, 'needs_commit' | 'needs_merge' | 'needs_push'>> {
    const scope = await this.projectScope(projectSlug);
    assertCanUseRepository(ctx);
    const flags = { needs_commit: false, needs_merge: false, needs_push: false };
    for (const component of scope.components) {
      const status = await this.imports.repositoryStatus(component.id);
      flags.needs_commit ||= status.needs_commit;
      flags.needs_merge ||= status.needs_merge;
      flags.needs_push ||= status.needs_push;
    }
    return flags;
  }

  async componentStatus(ctx: RequestContext, projectSlug: string, componentSlug: string): Promise<ComponentRepositoryStatus> {
    const scope = await this.componentScope(projectSlug, componentSlug);
    assertCanUseRepository(ctx);
    return this.imports.repositoryStatus(scope.components[0].id);
  }

  /** The component's repository, except `needs_commit`, which is about this translation's own pending strings. */
  async translationStatus(ctx: RequestContext, projectSlug: string, componentSlug: string, languageCode: string): Promise<ComponentRepositoryStatus> {
    const scope = await this.translationScope(projectSlug, componentSlug, languageCode);
    assertCanUseRepository(ctx);
    const status = await this.imports.repositoryStatus(scope.components[0].id);
    return { ...status, needs_commit: (await this.pendingUnits(scope)) > 0 };
  }

  operateOnProject(ctx: RequestContext, projectSlug: string, body: unknown): Promise<OperationResult> {
    return this.operate(ctx, () => this.projectScope(projectSlug), body);
  }

  operateOnComponent(ctx: RequestContext, projectSlug: string, componentSlug: string, body: unknown): Promise<OperationResult> {
    return this.operate(ctx, () => this.componentScope(projectSlug, componentSlug), body);
  }

  operateOnTranslation(ctx: RequestContext, projectSlug: string, componentSlug: string, languageCode: string, body: unknown): Promise<OperationResult> {
    return this.operate(ctx, () => this.translationScope(projectSlug, componentSlug, languageCode), body);
  }

  /**
   * The object (404) and a vcs.* write right on it (403) were checked before the body was read (the routes'
   * CheckOrder rule, repository.controller.ts); then the body (400) and the operation's own right (403), which
   * depends on it, as in Weblate.
   */
  private async operate(ctx: RequestContext, resolve: () => Promise<RepositoryScope>, body: unknown): Promise<OperationResult> {
    const scope = await resolve();
    const operation = parseOperation(body);
    assertCanUseRepository(ctx, operation);
    const actorId = ctx.caller?.id ?? null;
    let result = true;
    const details: string[] = [];
    for (const component of scope.components) {
      const outcome = await this.runOnComponent(component, operation, scope.translationId, actorId);
      result &&= outcome.result;
      if (outcome.detail) details.push(outcome.detail);
    }
    return details.length > 0 ? { result, detail: details.join('\n') } : { result };
  }

  private async runOnComponent(
    component: RepositoryScope['components'][number],
    operation: RepositoryOperation,
    translationId: number | null,
    actorId: number | null,
  ): Promise<OperationResult> {
    try {
      switch (operation) {
        case 'commit':
          // A translation commits its own strings only.
          return await this.writeBack.commitPending(component.id, { translationId: translationId ?? undefined, actorId });
        case 'push':
          return await this.writeBack.push(component.id, actorId);
        case 'pull':
          return await this.operations.pull(component.id, actorId);
        case 'reset':
          return await this.operations.reset(component.id, actorId);
        case 'cleanup':
          return await this.operations.cleanup(component.id);
        case 'file-sync':
          return await this.operations.fileSync(component.id, actorId);
        case 'file-scan':
          return await this.operations.fileScan(component.id, actorId);
      }
    } catch (error) {
      // Failures of git or of the files are the operation's result, as Weblate reports them; bugs stay 500s.
      // Another operation held the repository too long: Weblate answers 423 (weblate-api.md §4.3, §10.4).
      if (error instanceof RepositoryLockTimeoutError) throw new ApiError(HttpStatus.LOCKED, error.message);
      if (error instanceof GitCommandError || error instanceof ComponentScanError || error instanceof MessageTemplateError || error instanceof WriteBackError) {
        this.logger.warn(`Repository operation ${operation} on component ${component.id} failed: ${error.message}`);
        return { result: false, detail: error.message };
      }
      throw error;
    }
  }

  private async projectScope(projectSlug: string): Promise<RepositoryScope> {
    const project = await this.projects.getBySlug(projectSlug);
    const components: Array<{ id: number; name: string; push: string }> = await this.dataSource.query(
      'SELECT id, name, push FROM components WHERE project_id = $1 ORDER BY id',
      [project.id],
    );
    return { components: components.map((c) => ({ ...c, projectName: project.name })), translationId: null };
  }

  private async componentScope(projectSlug: string, componentSlug: string): Promise<RepositoryScope> {
    const component = await this.components.getBySlugs(projectSlug, componentSlug);
    return { components: [{ id: component.id, name: component.name, push: component.push, projectName: component.project.name }], translationId: null };
  }

  private async translationScope(projectSlug: string, componentSlug: string, languageCode: string): Promise<RepositoryScope> {
    const rows: Array<{ translationId: number; id: number; name: string; push: string; projectName: string }> = await this.dataSource.query(
      `SELECT t.id AS "translationId", c.id, c.name, c.push, p.name AS "projectName"
         FROM translations t JOIN languages l ON l.id = t.language_id
         JOIN components c ON c.id = t.component_id JOIN projects p ON p.id = c.project_id
        WHERE p.slug = $1 AND c.slug = $2 AND l.code = $3`,
      [projectSlug, componentSlug, languageCode],
    );
    if (rows.length === 0) throw notFound();
    const { translationId, ...component } = rows[0];
    return { components: [component], translationId };
  }

  /** Strings changed in the database and not yet written to the repository, in the addressed scope. */
  private async pendingUnits(scope: RepositoryScope): Promise<number> {
    const [{ pending }] =
      scope.translationId !== null
        ? await this.dataSource.query('SELECT count(*)::int AS pending FROM units WHERE translation_id = $1 AND pending', [scope.translationId])
        : await this.dataSource.query(
            `SELECT count(*)::int AS pending FROM units u JOIN translations t ON t.id = u.translation_id
              WHERE t.component_id = ANY($1::int[]) AND u.pending`,
            [scope.components.map((c) => c.id)],
          );
    return pending;
  }
}

/**
 * `meta:vcs.status` and the vcs.* operations: a plain 403 (§10.5). Any vcs.* write permission on the path's
 * object (teams granting on it, resolved by src/common/auth/scope-access.ts) allows status and operations.
 */
export const REPOSITORY_WRITE_PERMISSIONS: readonly string[] = ['vcs.commit', 'vcs.push', 'vcs.reset', 'vcs.update'];

function assertCanUseRepository(ctx: RequestContext, operation?: RepositoryOperation): void {
  if (!REPOSITORY_WRITE_PERMISSIONS.some((permission) => ctx.can(permission))) throw permissionDenied();
  // Weblate's repository_operation map: each operation needs its own permission.
  if (operation !== undefined && !ctx.can(OPERATION_PERMISSION[operation])) throw permissionDenied();
}

const OPERATION_PERMISSION: Record<RepositoryOperation, string> = {
  commit: 'vcs.commit',
  push: 'vcs.push',
  pull: 'vcs.update',
  reset: 'vcs.reset',
  cleanup: 'vcs.reset',
  'file-sync': 'vcs.reset',
  'file-scan': 'vcs.reset',
};

/** RepoRequestSerializer: `operation` is a required choice. */
function parseOperation(body: unknown): RepositoryOperation {
  const raw = bodyFieldValue(body, 'operation', { type: 'choice', required: true, choices: REPOSITORY_OPERATIONS });
  if (raw === undefined) throw new ApiValidationError({ operation: ['This field is required.'] });
  if (raw === null) throw new ApiValidationError({ operation: ['This field may not be null.'] });
  const match = REPOSITORY_OPERATIONS.find((operation) => operation === raw);
  if (!match) throw new ApiValidationError({ operation: [`"${typeof raw === 'object' ? JSON.stringify(raw) : String(raw)}" is not a valid choice.`] });
  return match;
}
