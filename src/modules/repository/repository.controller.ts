import { Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBody, ApiExtraModels, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { anyOf, CheckOrder } from '../../common/auth/check-order';
import { Ctx, RequestContext } from '../../common/http/request-context';
import { pathOf } from '../../common/links/link-builder';
import {
  CommitInfoResponse,
  ProjectRepositoryResponse,
  RepositoryOperationRequestDto,
  RepositoryOperationResponse,
  RepositoryResponse,
} from './repository.response';
import { REPOSITORY_WRITE_PERMISSIONS, RepositoryService } from './repository.service';
import { ValidatedBody } from '../../common/http/validation';

/**
 * Which vcs.* right an operation needs depends on the `operation` in the body, so Weblate validates the body
 * first. A caller with none of them can run no operation at all: it is refused before the body is read, as
 * DRF orders checks (check-order.ts); the operation's own right is checked after the body (the service).
 */
const OPERATION_ORDER = CheckOrder({ object: 'scope', permission: anyOf(...REPOSITORY_WRITE_PERMISSIONS) });

/**
 * `…/repository/` of projects, components and translations (weblate-api.md §5.6–§5.8, §6.10, §10.5). GET
 * answers the status with the endpoint's own API URL as `url`; POST runs an operation and answers 200.
 */
@ApiTags('repository')
@ApiExtraModels(CommitInfoResponse)
@Controller('api')
export class RepositoryController {
  constructor(private readonly repository: RepositoryService) {}

  @Get('projects/:project/repository')
  @ApiOperation({ operationId: 'getProjectRepository', summary: 'Get the repository status of a project' })
  @ApiOkResponse({ type: ProjectRepositoryResponse })
  async projectStatus(@Ctx() ctx: RequestContext, @Param('project') project: string): Promise<ProjectRepositoryResponse> {
    const status = await this.repository.projectStatus(ctx, project);
    return { ...status, url: ctx.links.api(pathOf('api', 'projects', project, 'repository')) };
  }

  @Post('projects/:project/repository')
  @OPERATION_ORDER
  @ApiOperation({ operationId: 'runProjectRepositoryOperation', summary: 'Run a repository operation on every component of a project' })
  @HttpCode(200)
  @ApiBody({ type: RepositoryOperationRequestDto })
  @ApiOkResponse({ type: RepositoryOperationResponse })
  projectOperation(@Ctx() ctx: RequestContext, @Param('project') project: string, @ValidatedBody() body: unknown): Promise<RepositoryOperationResponse> {
    return this.repository.operateOnProject(ctx, project, body);
  }

  @Get('components/:project/:component/repository')
  @ApiOperation({ operationId: 'getComponentRepository', summary: 'Get the repository status of a component' })
  @ApiOkResponse({ type: RepositoryResponse })
  async componentStatus(
    @Ctx() ctx: RequestContext,
    @Param('project') project: string,
    @Param('component') component: string,
  ): Promise<RepositoryResponse> {
    const status = await this.repository.componentStatus(ctx, project, component);
    return toRepositoryResponse(status, ctx.links.api(pathOf('api', 'components', project, component, 'repository')));
  }

  @Post('components/:project/:component/repository')
  @OPERATION_ORDER
  @ApiOperation({ operationId: 'runComponentRepositoryOperation', summary: 'Run a repository operation (commit, pull, push, …) on a component' })
  @HttpCode(200)
  @ApiBody({ type: RepositoryOperationRequestDto })
  @ApiOkResponse({ type: RepositoryOperationResponse })
  componentOperation(
    @Ctx() ctx: RequestContext,
    @Param('project') project: string,
    @Param('component') component: string,
    @ValidatedBody() body: unknown,
  ): Promise<RepositoryOperationResponse> {
    return this.repository.operateOnComponent(ctx, project, component, body);
  }

  @Get('translations/:project/:component/:language/repository')
  @ApiOperation({ operationId: 'getTranslationRepository', summary: 'Get the repository status of a translation' })
  @ApiOkResponse({ type: RepositoryResponse })
  async translationStatus(
    @Ctx() ctx: RequestContext,
    @Param('project') project: string,
    @Param('component') component: string,
    @Param('language') language: string,
  ): Promise<RepositoryResponse> {
    const status = await this.repository.translationStatus(ctx, project, component, language);
    return toRepositoryResponse(status, ctx.links.api(pathOf('api', 'translations', project, component, language, 'repository')));
  }

  @Post('translations/:project/:component/:language/repository')
  @OPERATION_ORDER
  @ApiOperation({ operationId: 'runTranslationRepositoryOperation', summary: 'Run a repository operation on a translation' })
  @HttpCode(200)
  @ApiBody({ type: RepositoryOperationRequestDto })
  @ApiOkResponse({ type: RepositoryOperationResponse })
  translationOperation(
    @Ctx() ctx: RequestContext,
    @Param('project') project: string,
    @Param('component') component: string,
    @Param('language') language: string,
    @ValidatedBody() body: unknown,
  ): Promise<RepositoryOperationResponse> {
    return this.repository.operateOnTranslation(ctx, project, component, language, body);
  }
}

/** Weblate 4.x key order: the three flags, `url`, then the component-level details (§6.10). */
function toRepositoryResponse(
  status: Omit<RepositoryResponse, 'url'>,
  url: string,
): RepositoryResponse {
  return {
    needs_commit: status.needs_commit,
    needs_merge: status.needs_merge,
    needs_push: status.needs_push,
    url,
    remote_commit: status.remote_commit,
    status: status.status,
    merge_failure: status.merge_failure,
  };
}
