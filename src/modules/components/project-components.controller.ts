import { Controller, Get, Param, Post, Res } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiExtraModels, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Ctx, RequestContext } from '../../common/http/request-context';
import { ApiPaginatedResponse, ApiPagingQuery } from '../../common/openapi/api-paginated-response';
import { listEnvelope, ListEnvelope } from '../../common/pagination/list-envelope';
import { parsePageRequest } from '../../common/pagination/page-params';
import { ComponentResponse, toComponentResponse } from './component.response';
import { ComponentWriterService } from './component-writer.service';
import { ComponentsService } from './components.service';
import { ComponentWriteDto } from './dto/component-write.dto';
import { CheckOrder } from '../../common/auth/check-order';
import { ValidatedBody } from '../../common/http/validation';

/**
 * `/api/projects/<project>/components/` (weblate-api.md §5.6): the project's components without the nested
 * `project`, and component creation (§10.11). Lives in the components module, the child of the route.
 */
@ApiTags('components')
@ApiExtraModels(ComponentResponse)
@Controller('api/projects/:project/components')
export class ProjectComponentsController {
  constructor(
    private readonly components: ComponentsService,
    private readonly writer: ComponentWriterService,
  ) {}

  @Get()
  @ApiOperation({ operationId: 'listProjectComponents', summary: 'List the components of a project' })
  @ApiPagingQuery()
  @ApiPaginatedResponse(ComponentResponse)
  async list(@Ctx() ctx: RequestContext, @Param('project') project: string): Promise<ListEnvelope<ComponentResponse>> {
    const { page, count, items } = await this.components.listForProject(project, parsePageRequest(ctx.query), ctx.caller);
    const results = items.map((component) => toComponentResponse(component, ctx.links, { withProject: false }));
    return listEnvelope(ctx, page, count, results);
  }

  /** 201 + Location; the import runs in the background and `task_url` points at it meanwhile. */
  @Post()
  @CheckOrder({ object: 'scope', permission: 'project.edit', message: 'Can not create components' })
  @ApiOperation({ operationId: 'createComponent', summary: 'Create a component in a project (imported in the background)' })
  @ApiBody({ type: ComponentWriteDto })
  @ApiCreatedResponse({ type: ComponentResponse })
  async create(
    @Ctx() ctx: RequestContext,
    @Param('project') project: string,
    @ValidatedBody() body: unknown,
    @Res({ passthrough: true }) res: Response,
  ): Promise<ComponentResponse> {
    const response = toComponentResponse(await this.writer.create(ctx, project, body), ctx.links);
    res.setHeader('Location', response.url);
    return response;
  }
}
