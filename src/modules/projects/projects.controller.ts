import { ReadWithAccess } from '../../common/auth/read-with-access';
import { PROJECT_DETAIL_READ } from './project-read.statement';
import { Controller, Delete, Get, HttpCode, Param, Patch, Post, Put, Res } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiExtraModels, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Ctx, RequestContext } from '../../common/http/request-context';
import { ApiPaginatedResponse, ApiPagingQuery } from '../../common/openapi/api-paginated-response';
import { listEnvelope, ListEnvelope } from '../../common/pagination/list-envelope';
import { parsePageRequest } from '../../common/pagination/page-params';
import { CreateProjectDto, UpdateProjectDto } from './dto/project-write.dto';
import { ProjectResponse, toProjectResponse } from './project.response';
import { ProjectsService } from './projects.service';
import { CheckOrder } from '../../common/auth/check-order';
import { ValidatedBody } from '../../common/http/validation';

@ApiTags('projects')
@ApiExtraModels(ProjectResponse)
@Controller('api/projects')
export class ProjectsController {
  constructor(private readonly projects: ProjectsService) {}

  @Get()
  @ApiOperation({ operationId: 'listProjects', summary: 'List projects' })
  @ApiPagingQuery()
  @ApiPaginatedResponse(ProjectResponse)
  async list(@Ctx() ctx: RequestContext): Promise<ListEnvelope<ProjectResponse>> {
    const { page, count, items } = await this.projects.list(parsePageRequest(ctx.query), ctx.caller);
    return listEnvelope(ctx, page, count, items.map((p) => toProjectResponse(p, ctx.links)));
  }

  @Post()
  @CheckOrder({ global: 'project.add', message: 'Can not create projects' })
  @ApiOperation({ operationId: 'createProject', summary: 'Create a project' })
  @ApiCreatedResponse({ type: ProjectResponse })
  @ApiBody({ type: CreateProjectDto })
  async create(@Ctx() ctx: RequestContext, @ValidatedBody() payload: unknown, @Res({ passthrough: true }) res: Response): Promise<ProjectResponse> {
    const body = toProjectResponse(await this.projects.create(ctx, payload), ctx.links);
    res.setHeader('Location', body.url);
    return body;
  }

  @Get(':project')
  @ReadWithAccess(PROJECT_DETAIL_READ)
  @ApiOperation({ operationId: 'getProject', summary: 'Get a project' })
  @ApiOkResponse({ type: ProjectResponse })
  async detail(@Ctx() ctx: RequestContext, @Param('project') slug: string): Promise<ProjectResponse> {
    return toProjectResponse(await this.projects.detailBySlug(slug, ctx.prefetched), ctx.links);
  }

  @Put(':project')
  @CheckOrder({ object: 'scope', permission: 'project.edit', message: 'Can not edit project' })
  @ApiOperation({ operationId: 'replaceProject', summary: 'Replace a project' })
  @ApiOkResponse({ type: ProjectResponse })
  @ApiBody({ type: CreateProjectDto })
  async replace(@Ctx() ctx: RequestContext, @Param('project') slug: string, @ValidatedBody() body: unknown): Promise<ProjectResponse> {
    return toProjectResponse(await this.projects.update(ctx, slug, body, CreateProjectDto), ctx.links);
  }

  @Patch(':project')
  @CheckOrder({ object: 'scope', permission: 'project.edit', message: 'Can not edit project' })
  @ApiOperation({ operationId: 'updateProject', summary: 'Update a project (partial)' })
  @ApiOkResponse({ type: ProjectResponse })
  @ApiBody({ type: UpdateProjectDto })
  async update(@Ctx() ctx: RequestContext, @Param('project') slug: string, @ValidatedBody() body: unknown): Promise<ProjectResponse> {
    return toProjectResponse(await this.projects.update(ctx, slug, body, UpdateProjectDto), ctx.links);
  }

  @Delete(':project')
  @CheckOrder({ object: 'scope', permission: 'project.edit', message: 'Can not delete project' })
  @ApiOperation({ operationId: 'deleteProject', summary: 'Delete a project' })
  @HttpCode(204)
  @ApiNoContentResponse()
  async remove(@Ctx() ctx: RequestContext, @Param('project') slug: string): Promise<void> {
    await this.projects.remove(ctx, slug);
  }
}
