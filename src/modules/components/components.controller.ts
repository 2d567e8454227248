import { ReadWithAccess } from '../../common/auth/read-with-access';
import { COMPONENT_DETAIL_READ } from './component-read.statement';
import { Controller, Delete, Get, Headers, HttpCode, Param, Patch, Put } from '@nestjs/common';
import { ApiBody, ApiExtraModels, ApiHeader, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiPreconditionFailedResponse, ApiTags } from '@nestjs/swagger';
import { conditionalWrite } from '../../common/http/preconditions';
import { Ctx, RequestContext } from '../../common/http/request-context';
import { ApiPaginatedResponse, ApiPagingQuery } from '../../common/openapi/api-paginated-response';
import { listEnvelope, ListEnvelope } from '../../common/pagination/list-envelope';
import { parsePageRequest } from '../../common/pagination/page-params';
import { ComponentResponse, toComponentResponse } from './component.response';
import { ComponentWriterService } from './component-writer.service';
import { ComponentsService } from './components.service';
import { ComponentUpdateDto, ComponentWriteDto } from './dto/component-write.dto';
import { CheckOrder } from '../../common/auth/check-order';
import { ValidatedBody } from '../../common/http/validation';

const IF_MATCH_HEADER = { name: 'If-Match', required: false, description: 'ETag of an earlier GET; 412 when the component changed since' };

/** `/api/components/` and `/api/components/<project>/<component>/` (weblate-api.md §5.7). */
@ApiTags('components')
@ApiExtraModels(ComponentResponse)
@Controller('api/components')
export class ComponentsController {
  constructor(
    private readonly components: ComponentsService,
    private readonly writer: ComponentWriterService,
  ) {}

  @Get()
  @ApiOperation({ operationId: 'listComponents', summary: 'List components' })
  @ApiPagingQuery()
  @ApiPaginatedResponse(ComponentResponse)
  async list(@Ctx() ctx: RequestContext): Promise<ListEnvelope<ComponentResponse>> {
    const { page, count, items } = await this.components.list(parsePageRequest(ctx.query), ctx.caller);
    return listEnvelope(ctx, page, count, items.map((component) => toComponentResponse(component, ctx.links)));
  }

  @Get(':project/:component')
  @ReadWithAccess(COMPONENT_DETAIL_READ)
  @ApiOperation({ operationId: 'getComponent', summary: 'Get a component' })
  @ApiOkResponse({ type: ComponentResponse })
  async detail(@Ctx() ctx: RequestContext, @Param('project') project: string, @Param('component') component: string): Promise<ComponentResponse> {
    return toComponentResponse(await this.components.detailBySlugs(project, component, ctx.prefetched), ctx.links);
  }

  /** Full update: name, slug, repo, filemask and file_format are required (weblate-api.md §10.13). */
  @Put(':project/:component')
  @CheckOrder({ object: 'scope', permission: 'component.edit', message: 'Can not edit component' })
  @ApiOperation({ operationId: 'replaceComponent', summary: 'Replace a component' })
  @ApiBody({ type: ComponentWriteDto })
  @ApiOkResponse({ type: ComponentResponse })
  @ApiHeader(IF_MATCH_HEADER)
  @ApiPreconditionFailedResponse({ description: 'If-Match does not match the current ETag' })
  async replace(
    @Ctx() ctx: RequestContext,
    @Param('project') project: string,
    @Param('component') component: string,
    @ValidatedBody() body: unknown,
    @Headers('if-match') ifMatch?: string,
  ): Promise<ComponentResponse> {
    return this.conditional(ctx, project, component, ifMatch, async () =>
      toComponentResponse(await this.writer.update(ctx, project, component, body, 'replace'), ctx.links),
    );
  }

  @Patch(':project/:component')
  @CheckOrder({ object: 'scope', permission: 'component.edit', message: 'Can not edit component' })
  @ApiOperation({ operationId: 'updateComponent', summary: 'Update a component (partial)' })
  @ApiBody({ type: ComponentUpdateDto })
  @ApiOkResponse({ type: ComponentResponse })
  @ApiHeader(IF_MATCH_HEADER)
  @ApiPreconditionFailedResponse({ description: 'If-Match does not match the current ETag' })
  async update(
    @Ctx() ctx: RequestContext,
    @Param('project') project: string,
    @Param('component') component: string,
    @ValidatedBody() body: unknown,
    @Headers('if-match') ifMatch?: string,
  ): Promise<ComponentResponse> {
    return this.conditional(ctx, project, component, ifMatch, async () =>
      toComponentResponse(await this.writer.update(ctx, project, component, body, 'update'), ctx.links),
    );
  }

  @Delete(':project/:component')
  @CheckOrder({ object: 'scope', permission: 'component.edit', message: 'Can not delete component' })
  @ApiOperation({ operationId: 'deleteComponent', summary: 'Delete a component' })
  @HttpCode(204)
  @ApiNoContentResponse()
  @ApiHeader(IF_MATCH_HEADER)
  @ApiPreconditionFailedResponse({ description: 'If-Match does not match the current ETag' })
  async remove(
    @Ctx() ctx: RequestContext,
    @Param('project') project: string,
    @Param('component') component: string,
    @Headers('if-match') ifMatch?: string,
  ): Promise<void> {
    await this.conditional(ctx, project, component, ifMatch, () => this.components.remove(ctx, project, component));
  }

  /** If-Match compares with the ETag of this component's GET representation (preconditions.ts). */
  private conditional<T>(ctx: RequestContext, project: string, component: string, ifMatch: string | undefined, write: () => Promise<T>): Promise<T> {
    return conditionalWrite(`component:${project}/${component}`, ifMatch, () => this.detail(ctx, project, component), write);
  }
}
